package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// fakeRAG shapes the fake graph the tests run: the real engine with
// nodes that pretend to be the RAG pipeline and a fake LLM.
type fakeRAG struct {
	tokens     int           // tokens generate streams
	tokenDelay time.Duration // pause before each token, like a model
	routeDelay time.Duration // planning time
	// block, when set, makes generate wait after its first token until
	// its ctx ends; started is closed when it starts waiting and
	// cancelled when it sees the ctx end.
	block     bool
	started   chan struct{}
	cancelled chan struct{}
	fail      error // returned by retrieve
	fallback  bool  // route emits a "fallback" event
	runs      atomic.Int64
}

func newFake() *fakeRAG {
	return &fakeRAG{tokens: 3, started: make(chan struct{}), cancelled: make(chan struct{})}
}

var fakeHit = graphrag.Hit{
	Chunk:  graphrag.Chunk{ID: "/docs/a.md#0", DocID: "/docs/a.md", Text: "Invoices are due in 30 days."},
	Source: graphrag.Source{DocID: "/docs/a.md", Path: "/docs/a.md", Title: "a.md", Type: "md", ModTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
	Score:  3.5,
	Ranks:  graphrag.Ranks{Keyword: 1},
}

var fakeHit2 = graphrag.Hit{
	Chunk:  graphrag.Chunk{ID: "/docs/b.md#2", DocID: "/docs/b.md", Text: "Unrelated."},
	Source: graphrag.Source{DocID: "/docs/b.md", Path: "/docs/b.md", Title: "b.md", Type: "md"},
	Score:  1.25,
	Ranks:  graphrag.Ranks{Keyword: 2, Vector: 1},
}

// graph compiles the fake: route → retrieve → generate → (validate) END.
func (f *fakeRAG) graph(t testing.TB) *graph.Runnable[nodes.State] {
	t.Helper()
	g := graph.NewStateGraph[nodes.State]()
	g.AddNode("route", func(ctx context.Context, s nodes.State) (nodes.State, error) {
		f.runs.Add(1)
		if err := sleep(ctx, f.routeDelay); err != nil {
			return s, err
		}
		s.Plan = graphrag.Plan{Route: graphrag.RouteHybrid, Query: s.Query, Keywords: []string{"invoices"}, Confidence: 0.9, By: "rules", Reason: "names a document type"}
		if f.fallback {
			graph.Emit(ctx, "fallback", map[string]string{"from": "llm", "to": "rules"})
			s.Notes = append(s.Notes, "planner unavailable: rules decided")
		}
		return s, nil
	})
	g.AddNode("retrieve", func(ctx context.Context, s nodes.State) (nodes.State, error) {
		if f.fail != nil {
			return s, f.fail
		}
		s.Hits = []graphrag.Hit{fakeHit, fakeHit2}
		s.Kept = []graphrag.Hit{fakeHit}
		s.SearchMode = graphrag.ModeKeyword
		s.SearchNote = "no embedder configured: keyword search only"
		s.Retrieval = nodes.RetrievalGood
		return s, nil
	})
	g.AddNode("generate", func(ctx context.Context, s nodes.State) (nodes.State, error) {
		var text strings.Builder
		for i := range f.tokens {
			if err := sleep(ctx, f.tokenDelay); err != nil {
				return s, err
			}
			tok := fmt.Sprintf("tok%d ", i)
			text.WriteString(tok)
			graph.Emit(ctx, "token", tok)
			if f.block && i == 0 {
				close(f.started)
				<-ctx.Done()
				close(f.cancelled)
				return s, ctx.Err()
			}
		}
		s.Answer = graphrag.Answer{
			Text:      text.String() + "[1]",
			Citations: []graphrag.Citation{{N: 1, Hit: fakeHit, Quote: "due in 30 days"}},
			Grounding: 0.8, Coverage: 1, By: "llm",
		}
		s.Verdict = graphrag.VerdictOK
		s.Stop = "answered"
		s.Usage = map[string]graphrag.Usage{"generate": {Calls: 1, PromptTokens: 100, CompletionTokens: f.tokens}, "route": {Calls: 1, PromptTokens: 20, CompletionTokens: 5}}
		return s, nil
	})
	g.AddEdge("route", "retrieve")
	g.AddEdge("retrieve", "generate")
	g.AddConditionalEdges("generate", func(ctx context.Context, s nodes.State) (graph.Decision, error) {
		return graph.Decision{To: graph.END, Reason: "answer is grounded"}, nil
	}, graph.END)
	g.SetEntryPoint("route")
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// newTestServer returns a Server over f's graph, with cfg's fields kept
// where set.
func newTestServer(t testing.TB, f *fakeRAG, cfg Config) *Server {
	t.Helper()
	if cfg.Runner == nil {
		cfg.Runner = f.graph(t)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// do sends one request to h and returns the recorded response.
func do(h http.Handler, method, target, body string, header ...string) *httptest.ResponseRecorder {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	req.Host = "127.0.0.1:8080"
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] == "" {
			req.Header.Del(header[i])
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// errorOf decodes an error body, failing the test if it is not one.
func errorOf(t *testing.T, body []byte) ErrorBody {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Fatalf("not a JSON error body (%v): %s", err, body)
	}
	return e.Error
}

// readNDJSON parses an NDJSON stream line by line.
func readNDJSON(t *testing.T, r io.Reader) []Event {
	t.Helper()
	var out []Event
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var e Event
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			t.Fatalf("line %d is not an event: %v: %s", len(out)+1, err, sc.Bytes())
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// sseEvent is one dispatched server-sent event.
type sseEvent struct {
	ID, Event, Data string
}

// readSSE parses a text/event-stream as the WHATWG specification says a
// browser does: fields by line, "data" lines joined by newlines, dispatch
// on a blank line, comments ignored.
func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var (
		out  []sseEvent
		cur  sseEvent
		data []string
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		ln := sc.Text()
		switch {
		case ln == "":
			if data != nil {
				cur.Data = strings.Join(data, "\n")
				if cur.Event == "" {
					cur.Event = "message"
				}
				out = append(out, cur)
			}
			cur, data = sseEvent{ID: cur.ID}, nil
		case strings.HasPrefix(ln, ":"):
		default:
			field, value, _ := strings.Cut(ln, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "event":
				cur.Event = value
			case "data":
				data = append(data, value)
			case "id":
				cur.ID = value
			case "retry":
			default:
				t.Fatalf("unknown SSE field %q in line %q", field, ln)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if data != nil {
		t.Fatalf("stream ended inside an event (no blank line after data %q)", data)
	}
	return out
}

func types(evs []Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

// errBoom is a node failure.
var errBoom = errors.New("boom")

func nodesState(q string) nodes.State { return nodes.State{Query: q} }
