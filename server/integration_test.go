package server

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
)

// corpusSearcher is a keyword searcher over a few in-memory documents:
// the store boundary, faked.
type corpusSearcher struct{ docs []graphrag.Hit }

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func (c corpusSearcher) Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	if err := ctx.Err(); err != nil {
		return graphrag.SearchResult{}, err
	}
	terms := words(q.Text)
	var hits []graphrag.Hit
	for _, d := range c.docs {
		text := words(d.Source.Title + " " + d.Chunk.Text)
		score := 0.0
		for _, t := range terms {
			if len(t) > 2 && slices.Contains(text, t) {
				score++
			}
		}
		if score > 0 {
			h := d
			h.Score = score
			hits = append(hits, h)
		}
	}
	slices.SortStableFunc(hits, func(a, b graphrag.Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	for i := range hits {
		hits[i].Ranks = graphrag.Ranks{Keyword: i + 1}
	}
	return graphrag.SearchResult{Hits: hits, Mode: graphrag.ModeKeyword, Note: "keyword search only"}, nil
}

// tokenWriter is a streaming writer standing in for an LLM: it answers
// with the first kept hit's text, token by token, citing it.
type tokenWriter struct{}

func (tokenWriter) Write(ctx context.Context, req graphrag.WriteRequest, emit func(string)) (graphrag.Answer, error) {
	if len(req.Hits) == 0 {
		return graphrag.Answer{Text: "No relevant information found.", Abstained: true, By: "fake-llm"}, nil
	}
	text := req.Hits[0].Chunk.Text + " [1]"
	for _, tok := range strings.SplitAfter(text, " ") {
		if emit != nil {
			emit(tok)
		}
	}
	return graphrag.Answer{
		Text:      text,
		Citations: []graphrag.Citation{{N: 1, Hit: req.Hits[0]}},
		By:        "fake-llm",
		Usage:     graphrag.Usage{Calls: 1, PromptTokens: 50, CompletionTokens: 12},
	}, nil
}

func corpusDoc(id, title, text string) graphrag.Hit {
	return graphrag.Hit{
		Chunk:  graphrag.Chunk{ID: graphrag.ChunkID(id, 0), DocID: id, Text: text},
		Source: graphrag.Source{DocID: id, Path: id, Title: title, Type: "md", ModTime: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)},
	}
}

// TestRealGraph serves the real RAG graph from nodes.Build over a faked
// store and writer: the JSON answer, the NDJSON stream, the diagram and
// the stdio protocol all work with the real event sequence.
func TestRealGraph(t *testing.T) {
	search := corpusSearcher{docs: []graphrag.Hit{
		corpusDoc("/notes/acme-invoices.md", "acme-invoices.md", "Acme Corporation invoices are payable within 30 days of the invoice date. Late payments incur a 2% monthly fee."),
		corpusDoc("/notes/garden.md", "garden.md", "The tomatoes in the garden need watering twice a week during the summer."),
		corpusDoc("/notes/travel.md", "travel.md", "The passport renewal takes six weeks; book the appointment early."),
	}}
	rag, err := nodes.Build(nodes.Deps{Searcher: search, Writer: tokenWriter{}}, nodes.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Runner: rag})
	if err != nil {
		t.Fatal(err)
	}
	const question = `{"query": "Within how many days are Acme Corporation invoices payable?"}`

	t.Run("json", func(t *testing.T) {
		w := do(s.Handler(), "POST", "/v1/query", question)
		if w.Code != 200 {
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		var r QueryResponse
		if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Answer, "30 days") || len(r.Citations) == 0 || r.Citations[0].DocID != "/notes/acme-invoices.md" {
			t.Fatalf("answer %q citations %+v (route %q, stop %q, notes %q)", r.Answer, r.Citations, r.Route, r.Stop, r.Notes)
		}
		if len(r.Sources) == 0 || r.Sources[0].ID != "/notes/acme-invoices.md#0" || !r.Sources[0].Kept || r.Sources[0].Score <= 0 {
			t.Errorf("sources %+v", r.Sources)
		}
		if r.Route == "" || r.Plan.By == "" || r.Stop == "" || r.Usage.Calls == 0 {
			t.Errorf("route %q by %q stop %q usage %+v", r.Route, r.Plan.By, r.Stop, r.Usage)
		}
		var visited []string
		for _, n := range r.Trace.Nodes {
			visited = append(visited, n.Node)
		}
		for _, want := range []string{"route", "retrieve", "evaluate", "generate"} {
			if !slices.Contains(visited, want) {
				t.Errorf("trace has no %s: %v", want, visited)
			}
		}
		if len(r.Trace.Decisions) == 0 || r.Trace.Decisions[0].Reason == "" {
			t.Errorf("decisions %+v", r.Trace.Decisions)
		}
	})

	t.Run("ndjson", func(t *testing.T) {
		ts := httptest.NewServer(s.Handler())
		defer ts.Close()
		resp, err := postQuery(context.Background(), ts.URL, strings.Replace(question, "}", `, "stream": "ndjson"}`, 1))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		evs := readNDJSON(t, resp.Body)
		ts2 := types(evs)
		if ts2[0] != "run_start" || ts2[len(ts2)-2] != "run_end" || ts2[len(ts2)-1] != "result" {
			t.Fatalf("events %v", ts2)
		}
		var tokens strings.Builder
		for _, e := range evs {
			if e.Type == "token" {
				if e.Node != "generate" {
					t.Errorf("token from %q", e.Node)
				}
				tokens.WriteString(e.Text)
			}
			if e.Type == "decision" && (e.To == "" || e.Reason == "") {
				t.Errorf("decision without target or reason: %+v", e)
			}
		}
		if !strings.Contains(tokens.String(), "30 days") {
			t.Errorf("streamed tokens %q", tokens.String())
		}
	})

	t.Run("graph", func(t *testing.T) {
		w := do(s.Handler(), "GET", "/v1/graph", "")
		for _, n := range []string{"route", "retrieve", "evaluate", "generate", "validate"} {
			if !strings.Contains(w.Body.String(), n) {
				t.Errorf("diagram lacks %s:\n%s", n, w.Body)
			}
		}
	})

	t.Run("stdio", func(t *testing.T) {
		c := startStdio(t, context.Background(), nil, Config{Runner: rag})
		c.send(`{"id": 1, "method": "query", "params": ` + question + `}`)
		final, evs := c.until("1")
		if final.Error != nil || !strings.Contains(string(final.Result), "30 days") || len(evs) == 0 {
			t.Fatalf("final %s %+v after %d events", final.Result, final.Error, len(evs))
		}
		if err := c.close(); err != nil {
			t.Fatal(err)
		}
	})
}
