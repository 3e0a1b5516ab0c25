package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/graphrag/graphrag/server"
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

// TestServeStdioConfirmWeb drives `serve --stdio --confirm-web` as a
// desktop app would: the query pauses with an interrupt naming the
// provider, nothing is sent, and a resume with allow true sends it.
func TestServeStdioConfirmWeb(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", vacuumNotes(t))
	url, queries := fakeSearxNG(t)
	c.env["GRAPHRAG_WEB"] = "searxng=" + url

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	var errs bytes.Buffer
	go func() {
		done <- Run(context.Background(), []string{"-q", "serve", "--stdio", "--confirm-web"}, stdio{in: inR, out: outW, err: &errs}, func(k string) string { return c.env[k] })
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(make([]byte, 64<<10), 4<<20)
	// final reads messages until the one answering id.
	final := func(id string) map[string]json.RawMessage {
		t.Helper()
		for lines.Scan() {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
				t.Fatalf("not a protocol line: %q", lines.Bytes())
			}
			if string(m["id"]) == id {
				return m
			}
		}
		t.Fatalf("stdout ended before the answer to %s\n%s", id, errs.String())
		return nil
	}
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"id": 1, "method": "query", "params": {"query": "` + webQuestion + `", "stream": "json"}}`)
	m := final("1")
	var in server.Interrupt
	if err := json.Unmarshal(m["interrupt"], &in); err != nil || in.Token == "" || !strings.Contains(in.Provider, strings.TrimPrefix(url, "http://")) {
		t.Fatalf("query 1 answered %s (%v)", lines.Bytes(), err)
	}
	if queries.Load() != 0 {
		t.Fatalf("%d queries reached the web before the answer", queries.Load())
	}
	send(`{"id": 2, "method": "resume", "params": {"token": "` + in.Token + `", "allow": true, "stream": "json"}}`)
	m = final("2")
	var r server.QueryResponse
	if err := json.Unmarshal(m["result"], &r); err != nil || !strings.Contains(r.Answer, "120 metres") || queries.Load() == 0 {
		t.Errorf("resume answered %s, %d queries sent", lines.Bytes(), queries.Load())
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Errorf("serve exited %d\n%s", code, errs.String())
	}
}
