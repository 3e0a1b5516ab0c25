package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// webFake is the web search, faked in process: it counts the questions
// that reached it.
type webFake struct{ sent atomic.Int64 }

func (w *webFake) SearchWeb(_ context.Context, query string, k int) ([]graphrag.Hit, error) {
	w.sent.Add(1)
	h := corpusDoc("https://rover.example/news", "Rover news", "The rover drove 120 metres across the crater floor today.")
	h.Source.URL = "https://rover.example/news"
	return []graphrag.Hit{h}, nil
}

func (w *webFake) BaseURL() string { return "http://searx.test" }

// liveSaver is a checkpointer that knows which threads hold checkpoints,
// so that a test can see that none is left behind.
type liveSaver struct {
	*graph.MemorySaver
	mu   sync.Mutex
	live map[string]bool
}

func newLiveSaver() *liveSaver {
	return &liveSaver{MemorySaver: graph.NewMemorySaver(), live: map[string]bool{}}
}

func (l *liveSaver) Put(ctx context.Context, c graph.Checkpoint) error {
	l.mu.Lock()
	l.live[c.Thread] = true
	l.mu.Unlock()
	return l.MemorySaver.Put(ctx, c)
}

func (l *liveSaver) Delete(ctx context.Context, thread string) error {
	l.mu.Lock()
	delete(l.live, thread)
	l.mu.Unlock()
	return l.MemorySaver.Delete(ctx, thread)
}

func (l *liveSaver) threads() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.live)
}

const webAsk = "what is the latest news about the mars rover today?"

// confirmServer serves the real RAG graph built with ConfirmWeb.
func confirmServer(t *testing.T, cfg Config) (*Server, *webFake, *liveSaver) {
	t.Helper()
	web := &webFake{}
	cp := newLiveSaver()
	search := corpusSearcher{docs: []graphrag.Hit{
		corpusDoc("/notes/acme-invoices.md", "acme-invoices.md", "Acme Corporation invoices are payable within 30 days of the invoice date."),
		corpusDoc("/notes/rover.md", "rover.md", "My notes on the mars rover mission: launched in 2020, landed in Jezero crater."),
	}}
	opts := nodes.DefaultOptions()
	opts.ConfirmWeb = true
	rag, err := nodes.Build(nodes.Deps{Searcher: search, Web: web}, opts, graph.WithCheckpointer(cp))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Runner, cfg.Checkpoints = rag, cp
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, web, cp
}

func decodeResponse(t *testing.T, body []byte) QueryResponse {
	t.Helper()
	var r QueryResponse
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return r
}

// pause asks the web question and checks that the run paused before
// anything was sent.
func pause(t *testing.T, s *Server, web *webFake, body string) *Interrupt {
	t.Helper()
	w := do(s.Handler(), "POST", "/v1/query", body)
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	r := decodeResponse(t, w.Body.Bytes())
	in := r.Interrupt
	if in == nil || in.Token == "" || in.Kind != "confirm_web" || in.Query == "" || in.Provider != "http://searx.test" || in.ExpiresAt == "" {
		t.Fatalf("want an interrupt saying what would be sent where, got %+v (answer %q, route %q)", in, r.Answer, r.Route)
	}
	if r.Answer != "" || r.Route != "web" {
		t.Errorf("a paused query has no answer yet and its route is web: answer %q, route %q", r.Answer, r.Route)
	}
	if n := web.sent.Load(); n != 0 {
		t.Fatalf("%d questions reached the web search before the answer", n)
	}
	return in
}

func resumeBody(token string, allow bool) string {
	return fmt.Sprintf(`{"resume": {"token": %q, "allow": %v}}`, token, allow)
}

func TestPausedQueryHTTP(t *testing.T) {
	ask := `{"query": "` + webAsk + `"}`
	t.Run("yes sends the question once", func(t *testing.T) {
		s, web, cp := confirmServer(t, Config{})
		in := pause(t, s, web, ask)
		if cp.threads() != 1 {
			t.Errorf("%d threads kept for one paused query", cp.threads())
		}
		w := do(s.Handler(), "POST", "/v1/query", resumeBody(in.Token, true))
		r := decodeResponse(t, w.Body.Bytes())
		if w.Code != 200 || r.Interrupt != nil || !strings.Contains(r.Answer, "120 metres") || web.sent.Load() != 1 {
			t.Fatalf("status %d, %d sent, answer %q", w.Code, web.sent.Load(), r.Answer)
		}
		if cp.threads() != 0 {
			t.Errorf("%d threads left after the run ended", cp.threads())
		}
		w = do(s.Handler(), "POST", "/v1/query", resumeBody(in.Token, true))
		if e := errorOf(t, w.Body.Bytes()); w.Code != 404 || e.Code != "unknown_interrupt" {
			t.Errorf("second answer: %d %+v, want 404 unknown_interrupt", w.Code, e)
		}
		if web.sent.Load() != 1 {
			t.Errorf("a reused token sent the question again")
		}
	})
	t.Run("no answers from the files and says so", func(t *testing.T) {
		s, web, _ := confirmServer(t, Config{})
		in := pause(t, s, web, ask)
		w := do(s.Handler(), "POST", "/v1/query", resumeBody(in.Token, false))
		r := decodeResponse(t, w.Body.Bytes())
		if w.Code != 200 || web.sent.Load() != 0 || r.Route == "web" || !strings.Contains(strings.Join(r.Notes, "\n"), "web search declined: nothing was sent") {
			t.Errorf("status %d, %d sent, route %q, notes %q", w.Code, web.sent.Load(), r.Route, r.Notes)
		}
		if !strings.Contains(r.Answer, "Jezero") {
			t.Errorf("answer %q, want the local notes", r.Answer)
		}
	})
	t.Run("unknown and expired tokens", func(t *testing.T) {
		s, web, cp := confirmServer(t, Config{PauseTTL: time.Minute})
		w := do(s.Handler(), "POST", "/v1/query", resumeBody("no-such-token", true))
		if e := errorOf(t, w.Body.Bytes()); w.Code != 404 || e.Code != "unknown_interrupt" {
			t.Errorf("unknown token: %d %+v", w.Code, e)
		}
		in := pause(t, s, web, ask)
		later := time.Now().Add(2 * time.Minute)
		s.pauses.now = func() time.Time { return later }
		w = do(s.Handler(), "POST", "/v1/query", resumeBody(in.Token, true))
		if e := errorOf(t, w.Body.Bytes()); w.Code != 404 || e.Code != "unknown_interrupt" || !strings.Contains(e.Message, "expired") {
			t.Errorf("expired token: %d %+v", w.Code, e)
		}
		if web.sent.Load() != 0 || cp.threads() != 0 {
			t.Errorf("after expiry: %d sent, %d threads kept", web.sent.Load(), cp.threads())
		}
	})
	t.Run("paused queries are bounded", func(t *testing.T) {
		s, web, cp := confirmServer(t, Config{MaxPaused: 2})
		var ins []*Interrupt
		for range 3 {
			ins = append(ins, pause(t, s, web, ask))
		}
		if cp.threads() != 2 || metric(t, s, "graphrag_queries_paused") != 2 {
			t.Errorf("%d threads and %v paused queries kept, want the bound, 2", cp.threads(), metric(t, s, "graphrag_queries_paused"))
		}
		if w := do(s.Handler(), "POST", "/v1/query", resumeBody(ins[0].Token, true)); w.Code != 404 {
			t.Errorf("the oldest paused query, dropped for newer ones: %d %s", w.Code, w.Body)
		}
		if w := do(s.Handler(), "POST", "/v1/query", resumeBody(ins[2].Token, false)); w.Code != 200 {
			t.Errorf("the newest paused query: %d %s", w.Code, w.Body)
		}
		if metric(t, s, `graphrag_queries_total{outcome="interrupted"}`) != 3 {
			t.Errorf("interrupted outcomes: %v", metric(t, s, `graphrag_queries_total{outcome="interrupted"}`))
		}
	})
	t.Run("local questions leave nothing behind", func(t *testing.T) {
		s, web, cp := confirmServer(t, Config{})
		w := do(s.Handler(), "POST", "/v1/query", `{"query": "Within how many days are Acme Corporation invoices payable?"}`)
		r := decodeResponse(t, w.Body.Bytes())
		if w.Code != 200 || r.Interrupt != nil || !strings.Contains(r.Answer, "30 days") || web.sent.Load() != 0 || cp.threads() != 0 {
			t.Errorf("status %d, interrupt %+v, answer %q, %d sent, %d threads", w.Code, r.Interrupt, r.Answer, web.sent.Load(), cp.threads())
		}
	})
	t.Run("a conversation gets the turn once answered", func(t *testing.T) {
		threads := &fakeThreads{}
		s, web, _ := confirmServer(t, Config{Threads: threads})
		in := pause(t, s, web, `{"query": "`+webAsk+`", "thread": "mars"}`)
		if h, _ := threads.History(context.Background(), "mars"); len(h) != 0 {
			t.Errorf("a paused turn was saved: %v", h)
		}
		if w := do(s.Handler(), "POST", "/v1/query", resumeBody(in.Token, true)); w.Code != 200 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
		if h, _ := threads.History(context.Background(), "mars"); len(h) != 1 || h[0].Query != webAsk || !strings.Contains(h[0].Answer, "120 metres") {
			t.Errorf("thread holds %+v", h)
		}
	})
	t.Run("bad resumes", func(t *testing.T) {
		s, _, _ := confirmServer(t, Config{})
		plain := newTestServer(t, newFake(), Config{})
		for _, tc := range []struct {
			name   string
			s      *Server
			body   string
			status int
			code   string
		}{
			{"no answer", s, `{"resume": {"token": "x"}}`, 400, "bad_request"},
			{"no token", s, `{"resume": {"allow": true}}`, 400, "bad_request"},
			{"and a query", s, `{"query": "q", "resume": {"token": "x", "allow": true}}`, 400, "bad_request"},
			{"server that does not pause", plain, `{"resume": {"token": "x", "allow": true}}`, 501, "not_configured"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				w := do(tc.s.Handler(), "POST", "/v1/query", tc.body)
				if e := errorOf(t, w.Body.Bytes()); w.Code != tc.status || e.Code != tc.code {
					t.Errorf("%d %+v, want %d %s", w.Code, e, tc.status, tc.code)
				}
			})
		}
	})
}

func TestPausedQueryStreams(t *testing.T) {
	t.Run("ndjson", func(t *testing.T) {
		s, web, _ := confirmServer(t, Config{})
		w := do(s.Handler(), "POST", "/v1/query", `{"query": "`+webAsk+`", "stream": "ndjson"}`)
		evs := readNDJSON(t, w.Body)
		last := evs[len(evs)-1]
		if last.Type != "interrupt" || last.Interrupt == nil || last.Interrupt.Token == "" || web.sent.Load() != 0 {
			t.Fatalf("stream %v ends with %+v, %d sent", types(evs), last, web.sent.Load())
		}
		for _, e := range evs {
			if e.Type == "unknown" || e.Type == "error" || e.Error != nil {
				t.Errorf("event %+v in a paused stream", e)
			}
		}
		w = do(s.Handler(), "POST", "/v1/query", `{"resume": {"token": "`+last.Interrupt.Token+`", "allow": true}, "stream": "ndjson"}`)
		evs = readNDJSON(t, w.Body)
		last = evs[len(evs)-1]
		if last.Type != "result" || !strings.Contains(last.Result.Answer, "120 metres") || web.sent.Load() != 1 {
			t.Fatalf("resumed stream %v ends with %+v", types(evs), last)
		}
		var branches []string
		for _, e := range evs {
			if e.Type == "node_start" && e.Subgraph == "retrieve" {
				branches = append(branches, fmt.Sprintf("%s#%d", e.Node, e.Branch))
			}
		}
		if !strings.Contains(fmt.Sprint(branches), "web#1") {
			t.Errorf("the resumed stream should show retrieve's web branch: %v", branches)
		}
	})
	t.Run("sse", func(t *testing.T) {
		s, web, _ := confirmServer(t, Config{})
		w := do(s.Handler(), "POST", "/v1/query", `{"query": "`+webAsk+`"}`, "Accept", "text/event-stream")
		evs := readSSE(t, w.Body)
		last := evs[len(evs)-1]
		var e Event
		if err := json.Unmarshal([]byte(last.Data), &e); err != nil || last.Event != "interrupt" || e.Interrupt == nil {
			t.Fatalf("SSE stream ends with %+v (%v)", last, err)
		}
		w = do(s.Handler(), "POST", "/v1/query", resumeBody(e.Interrupt.Token, false), "Accept", "text/event-stream")
		evs = readSSE(t, w.Body)
		if last := evs[len(evs)-1]; last.Event != "result" || web.sent.Load() != 0 {
			t.Errorf("resumed SSE stream ends with %s, %d sent", last.Event, web.sent.Load())
		}
	})
}

func TestPausedQueryStdio(t *testing.T) {
	s, web, cp := confirmServer(t, Config{})
	c := startStdio(t, context.Background(), nil, s.cfg)
	c.send(`{"id": 1, "method": "query", "params": {"query": "` + webAsk + `"}}`)
	final, events := c.until("1")
	if final.Interrupt == nil || final.Interrupt.Token == "" || final.Interrupt.Kind != "confirm_web" || final.Result != nil || web.sent.Load() != 0 {
		t.Fatalf("query 1 ended with %+v after %d events, %d sent", final, len(events), web.sent.Load())
	}
	c.send(`{"id": 2, "method": "resume", "params": {"token": "` + final.Interrupt.Token + `", "allow": false}}`)
	final2, _ := c.until("2")
	var r QueryResponse
	if err := json.Unmarshal(final2.Result, &r); err != nil || r.Route == "web" || web.sent.Load() != 0 {
		t.Fatalf("resume no: %+v (%v), %d sent", final2, err, web.sent.Load())
	}
	c.send(`{"id": 3, "method": "resume", "params": {"token": "` + final.Interrupt.Token + `", "allow": true}}`)
	if final3, _ := c.until("3"); final3.Error == nil || final3.Error.Code != "unknown_interrupt" {
		t.Errorf("a used token: %+v", final3)
	}
	c.send(`{"id": 4, "method": "query", "params": {"query": "` + webAsk + `", "stream": "json"}}`)
	final4, events := c.until("4")
	if final4.Interrupt == nil || len(events) != 0 {
		t.Fatalf("query 4: %+v, %d events", final4, len(events))
	}
	c.send(`{"id": 5, "method": "resume", "params": {"token": "` + final4.Interrupt.Token + `", "allow": true}}`)
	final5, events := c.until("5")
	if err := json.Unmarshal(final5.Result, &r); err != nil || !strings.Contains(r.Answer, "120 metres") || web.sent.Load() != 1 || len(events) == 0 {
		t.Errorf("resume yes: answer %q (%v), %d sent, %d events", r.Answer, err, web.sent.Load(), len(events))
	}
	c.send(`{"id": 6, "method": "resume", "params": {"token": "nope"}}`)
	if final6, _ := c.until("6"); final6.Error == nil || final6.Error.Code != "bad_request" {
		t.Errorf("resume without an answer: %+v", final6)
	}
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
	if cp.threads() != 0 {
		t.Errorf("%d threads left", cp.threads())
	}
}
