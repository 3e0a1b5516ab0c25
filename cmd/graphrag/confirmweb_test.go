package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeSearxNG answers SearxNG's JSON search API and counts the queries
// that reached it.
func fakeSearxNG(t *testing.T) (url string, queries *atomic.Int64) {
	t.Helper()
	queries = new(atomic.Int64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"query": r.URL.Query().Get("q"),
			"results": []map[string]any{{
				"url": "https://example.org/rover", "title": "Rover news",
				"content": "The rover drove 120 metres across the crater floor today.", "engine": "fake", "score": 1,
			}},
		})
	}))
	t.Cleanup(srv.Close)
	return srv.URL, queries
}

const webQuestion = "what is the latest news about the mars rover today?"

func TestConfirmWeb(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", vacuumNotes(t))
	url, queries := fakeSearxNG(t)
	c.env["GRAPHRAG_WEB"] = "searxng=" + url

	t.Run("without the flag the question goes out", func(t *testing.T) {
		out := c.ok("run", "--json", webQuestion)
		var r struct{ Route string }
		_ = json.Unmarshal([]byte(out), &r)
		if r.Route != "web" || queries.Load() == 0 {
			t.Fatalf("route %q, %d web queries: the test needs a question that goes to the web\n%s", r.Route, queries.Load(), out)
		}
	})
	t.Run("no sends nothing and answers from the files", func(t *testing.T) {
		before := queries.Load()
		out, errs, code := c.run("n\n", "run", "--confirm-web", webQuestion)
		if code != 0 || !strings.Contains(errs, "web search declined: nothing was sent") || !strings.Contains(errs, "to the web search ("+url) {
			t.Errorf("exit %d\n%s", code, errs)
		}
		if n := queries.Load() - before; n != 0 {
			t.Errorf("%d queries reached the web after a no", n)
		}
		if strings.Contains(out, "120 metres") || !strings.Contains(out, "route hybrid") {
			t.Errorf("after a no the answer should come from the files (route hybrid):\n%s", out)
		}
	})
	t.Run("end of input is a no, said clearly", func(t *testing.T) {
		before := queries.Load()
		_, errs, code := c.run("", "run", "--confirm-web", webQuestion)
		if code != 0 || queries.Load() != before || !strings.Contains(errs, "no answer (end of input): nothing was sent to the web") {
			t.Errorf("exit %d, %d queries sent\n%s", code, queries.Load()-before, errs)
		}
	})
	t.Run("json output carries the note", func(t *testing.T) {
		out, _, code := c.run("n\n", "run", "--json", "--confirm-web", webQuestion)
		if code != 0 || !strings.Contains(out, "web search declined: nothing was sent") {
			t.Errorf("exit %d\n%s", code, out)
		}
	})
	t.Run("yes sends it", func(t *testing.T) {
		before := queries.Load()
		out, errs, code := c.run("y\n", "run", "--confirm-web", webQuestion)
		if code != 0 || queries.Load() == before || !strings.Contains(out, "120 metres") {
			t.Errorf("exit %d, %d queries\n%s\n%s", code, queries.Load()-before, out, errs)
		}
	})
	t.Run("chat asks in the conversation", func(t *testing.T) {
		before := queries.Load()
		_, errs, code := c.run(webQuestion+"\nno\n", "chat", "--confirm-web")
		if code != 0 || queries.Load() != before || !strings.Contains(errs, "web search declined: nothing was sent") {
			t.Errorf("chat, answered no: exit %d, %d queries sent\n%s", code, queries.Load()-before, errs)
		}
		out, errs, code := c.run(webQuestion+"\nno\n"+webQuestion+"\ny\n", "chat", "--confirm-web")
		if code != 0 || queries.Load() == before || !strings.Contains(out, "120 metres") {
			t.Errorf("chat, answered y: exit %d, %d queries sent\n%s\n%s", code, queries.Load()-before, out, errs)
		}
		if strings.Count(errs, "[y/N]") != 2 {
			t.Errorf("chat should ask before each web search:\n%s", errs)
		}
	})
}
