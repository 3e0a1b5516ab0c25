package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// gatedGraph answers each query once gate is closed (or its run is
// cancelled), telling entered which query started running.
func gatedGraph(t *testing.T, entered chan<- string, gate <-chan struct{}) *graph.Runnable[nodes.State] {
	t.Helper()
	g := graph.NewStateGraph[nodes.State]()
	g.AddNode("answer", func(ctx context.Context, s nodes.State) (nodes.State, error) {
		entered <- s.Query
		select {
		case <-gate:
		case <-ctx.Done():
			return s, ctx.Err()
		}
		s.Answer.Text = "answer to " + s.Query
		return s, nil
	})
	g.SetEntryPoint("answer")
	g.AddEdge("answer", graph.END)
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// queued sends a query in the background and returns its response when
// it has one.
func queued(h http.Handler, ctx context.Context, query string) <-chan *httptest.ResponseRecorder {
	out := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		req := httptest.NewRequestWithContext(ctx, "POST", "/v1/query", strings.NewReader(`{"query": "`+query+`"}`))
		req.Host = "127.0.0.1:8080"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		out <- w
	}()
	return out
}

func metric(t *testing.T, s *Server, name string) float64 {
	t.Helper()
	return parseExposition(t, string(s.metrics.render()))[name]
}

// With every worker busy a query waits in the queue and runs when a worker
// is free; only a query that finds the queue full is refused, at once,
// with Retry-After.
func TestQueueWaitsThenShedsWhenFull(t *testing.T) {
	entered, gate := make(chan string, 3), make(chan struct{})
	s, err := New(Config{Runner: gatedGraph(t, entered, gate), MaxConcurrent: 1, QueueLength: 1, QueueWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	first := queued(h, context.Background(), "first")
	if q := <-entered; q != "first" {
		t.Fatalf("%q ran first", q)
	}
	second := queued(h, context.Background(), "second")
	waitFor(t, func() bool { return metric(t, s, "graphrag_query_queue_depth") == 1 })

	w := do(h, "POST", "/v1/query", `{"query": "third"}`)
	if e := errorOf(t, w.Body.Bytes()); w.Code != 429 || e.Code != "too_many_requests" || !strings.Contains(e.Message, "queue is full") {
		t.Fatalf("third: %d %+v", w.Code, e)
	}
	if w.Header().Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}

	close(gate)
	for name, c := range map[string]<-chan *httptest.ResponseRecorder{"first": first, "second": second} {
		if w := <-c; w.Code != 200 || !strings.Contains(w.Body.String(), "answer to "+name) {
			t.Errorf("%s: %d %s", name, w.Code, w.Body)
		}
	}
	m := parseExposition(t, string(s.metrics.render()))
	for k, want := range map[string]float64{
		`graphrag_query_rejected_total{reason="full"}`: 1,
		`graphrag_query_rejected_total{reason="wait"}`: 0,
		`graphrag_query_queue_wait_seconds_count`:      2,
		`graphrag_query_queue_depth`:                   0,
		`graphrag_query_queue_capacity`:                1,
		`graphrag_query_workers`:                       1,
	} {
		if got, ok := m[k]; !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", k, got, ok, want)
		}
	}
	if m[`graphrag_query_queue_wait_seconds_sum`] <= 0 {
		t.Error("the queued query's wait is not counted")
	}
	if m[`go_goroutines`] < 1 {
		t.Error("no go_goroutines gauge")
	}
}

// A query that waits past QueueWait is refused with 429; one whose client
// leaves the queue never runs.
func TestQueueWaitIsBounded(t *testing.T) {
	entered, gate := make(chan string, 3), make(chan struct{})
	defer close(gate)
	s, err := New(Config{Runner: gatedGraph(t, entered, gate), MaxConcurrent: 1, QueueLength: 8, QueueWait: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	queued(h, context.Background(), "first")
	<-entered

	w := do(h, "POST", "/v1/query", `{"query": "second"}`)
	if e := errorOf(t, w.Body.Bytes()); w.Code != 429 || !strings.Contains(e.Message, "waited 20ms") || w.Header().Get("Retry-After") == "" {
		t.Fatalf("second: %d %+v Retry-After %q", w.Code, e, w.Header().Get("Retry-After"))
	}
	if got := metric(t, s, `graphrag_query_rejected_total{reason="wait"}`); got != 1 {
		t.Errorf("rejected for waiting: %v", got)
	}

	ctx, cancel := context.WithCancel(context.Background())
	s.queries.maxWait = time.Hour // same server, now waiting as long as it takes
	left := queued(h, ctx, "leaves")
	waitFor(t, func() bool { return metric(t, s, "graphrag_query_queue_depth") == 1 })
	cancel()
	<-left
	waitFor(t, func() bool { return metric(t, s, "graphrag_query_queue_depth") == 0 })
	select {
	case q := <-entered:
		t.Errorf("%q ran after its client left the queue", q)
	default:
	}
}

// Over stdio a query past the busy workers waits too, and is answered.
func TestStdioQueriesQueue(t *testing.T) {
	entered, gate := make(chan string, 3), make(chan struct{})
	c := startStdio(t, context.Background(), nil, Config{Runner: gatedGraph(t, entered, gate), MaxConcurrent: 1})
	c.send(`{"id": 1, "method": "query", "params": {"query": "one", "stream": "json"}}`)
	<-entered
	c.send(`{"id": 2, "method": "query", "params": {"query": "two", "stream": "json"}}`)
	close(gate)
	got := map[string]string{}
	for len(got) < 2 {
		m := c.next()
		if string(m.ID) == "null" {
			continue
		}
		if m.Error != nil {
			t.Fatalf("request %s: %+v", m.ID, m.Error)
		}
		got[string(m.ID)] = string(m.Result)
	}
	if !strings.Contains(got["2"], "answer to two") {
		t.Errorf("queued request answered %s", got["2"])
	}
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
}
