package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

func TestQueryJSON(t *testing.T) {
	f := newFake()
	f.fallback = true
	s := newTestServer(t, f, Config{})
	w := do(s.Handler(), "POST", "/v1/query",
		`{"query": "when are invoices due?", "history": [{"query": "hi", "answer": "hello"}], "options": {"max_steps": 10}}`)
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	var r QueryResponse
	dec := json.NewDecoder(w.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatal(err)
	}
	if r.Answer != "tok0 tok1 tok2 [1]" || r.AnsweredBy != "llm" || r.Verdict != "ok" {
		t.Errorf("answer %q by %q verdict %q", r.Answer, r.AnsweredBy, r.Verdict)
	}
	if len(r.Citations) != 1 || !reflect.DeepEqual(r.Citations[0], Citation{N: 1, ID: "/docs/a.md#0", DocID: "/docs/a.md", Title: "a.md", Path: "/docs/a.md", Score: 3.5, Quote: "due in 30 days"}) {
		t.Errorf("citations %+v", r.Citations)
	}
	wantSources := []Source{
		{ID: "/docs/a.md#0", DocID: "/docs/a.md", Title: "a.md", Path: "/docs/a.md", Type: "md", ModTime: "2026-01-02T03:04:05Z", Score: 3.5, Kept: true, KeywordRank: 1},
		{ID: "/docs/b.md#2", DocID: "/docs/b.md", Title: "b.md", Path: "/docs/b.md", Type: "md", Score: 1.25, KeywordRank: 2, VectorRank: 1},
	}
	if !slices.Equal(r.Sources, wantSources) {
		t.Errorf("sources\n got %+v\nwant %+v", r.Sources, wantSources)
	}
	if r.Route != "hybrid" || r.Plan.Route != "hybrid" || r.Plan.By != "rules" || r.Plan.Reason == "" || r.Plan.Query != "when are invoices due?" {
		t.Errorf("route %q plan %+v", r.Route, r.Plan)
	}
	if r.Stop != "answered" || len(r.Notes) != 1 || r.Retrieval != "good" || r.SearchMode != "keyword" || r.SearchNote == "" {
		t.Errorf("stop %q notes %q retrieval %q mode %q note %q", r.Stop, r.Notes, r.Retrieval, r.SearchMode, r.SearchNote)
	}
	if r.Grounding != 0.8 || r.Coverage != 1 || r.LowConfidence || r.Abstained {
		t.Errorf("confidence %+v", r)
	}
	if r.Usage.Calls != 2 || r.Usage.PromptTokens != 120 || r.Usage.CompletionTokens != 8 || r.Usage.ByNode["generate"].Calls != 1 {
		t.Errorf("usage %+v", r.Usage)
	}
	var visited []string
	for _, n := range r.Trace.Nodes {
		visited = append(visited, n.Node)
	}
	if !slices.Equal(visited, []string{"route", "retrieve", "generate"}) || r.Trace.Steps != 3 || r.Trace.DurationMS <= 0 {
		t.Errorf("trace %+v", r.Trace)
	}
	if len(r.Trace.Decisions) != 1 || r.Trace.Decisions[0] != (Decision{Step: 3, From: "generate", To: graph.END, Reason: "answer is grounded"}) {
		t.Errorf("decisions %+v", r.Trace.Decisions)
	}

	t.Run("text option includes chunk text", func(t *testing.T) {
		w := do(s.Handler(), "POST", "/v1/query", `{"query": "q", "options": {"text": true}}`)
		var r QueryResponse
		if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil || len(r.Sources) == 0 || r.Sources[0].Text != fakeHit.Chunk.Text {
			t.Fatalf("%v %s", err, w.Body)
		}
	})
}

func TestQueryErrors(t *testing.T) {
	tests := []struct {
		name   string
		fail   error
		status int
		code   string
	}{
		{"node failure", errBoom, 500, "node_failed"},
		{"invalid query", fmt.Errorf("bad filter: %w", graphrag.ErrInvalidQuery), 400, "invalid_query"},
		{"not configured", fmt.Errorf("web search: %w", graphrag.ErrNotConfigured), 501, "not_configured"},
		{"embedder mismatch", graphrag.ErrEmbedderMismatch, 409, "embedder_mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake()
			f.fail = tt.fail
			s := newTestServer(t, f, Config{})
			w := do(s.Handler(), "POST", "/v1/query", `{"query": "q"}`)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if e := errorOf(t, w.Body.Bytes()); e.Code != tt.code || !strings.Contains(e.Message, tt.fail.Error()) {
				t.Errorf("error %+v", e)
			}
		})
	}

	t.Run("max steps too low for the question", func(t *testing.T) {
		s := newTestServer(t, newFake(), Config{})
		w := do(s.Handler(), "POST", "/v1/query", `{"query": "q", "options": {"max_steps": 1}}`)
		if e := errorOf(t, w.Body.Bytes()); w.Code != 400 || e.Code != "max_steps" || !strings.Contains(e.Message, "raise it") {
			t.Fatalf("%d %+v: want 400, the client's own cap stopped the run", w.Code, e)
		}
	})
}

func TestRequestValidation(t *testing.T) {
	s := newTestServer(t, newFake(), Config{MaxBodyBytes: 256})
	big := `{"query": "` + strings.Repeat("x", 300) + `"}`
	tests := []struct {
		name, method, path, body string
		header                   []string
		status                   int
		code                     string
	}{
		{"empty query", "POST", "/v1/query", `{"query": "  "}`, nil, 400, "missing_query"},
		{"no body", "POST", "/v1/query", "", []string{"Content-Type", "application/json"}, 400, "bad_json"},
		{"not json", "POST", "/v1/query", `{"query": `, nil, 400, "bad_json"},
		{"unknown field", "POST", "/v1/query", `{"qurey": "x"}`, nil, 400, "bad_json"},
		{"trailing data", "POST", "/v1/query", `{"query": "x"} {}`, nil, 400, "bad_json"},
		{"cross-site browser post", "POST", "/v1/query", `{"query": "x"}`, []string{"Sec-Fetch-Site", "cross-site"}, 403, "cross_origin"},
		{"foreign origin", "POST", "/v1/ingest", `{}`, []string{"Origin", "https://evil.example"}, 403, "cross_origin"},
		{"too large", "POST", "/v1/query", big, nil, 413, "body_too_large"},
		{"bad stream", "POST", "/v1/query", `{"query": "x", "stream": "xml"}`, nil, 400, "bad_request"},
		{"max steps too high", "POST", "/v1/query", `{"query": "x", "options": {"max_steps": 1000}}`, nil, 400, "bad_request"},
		{"GET query", "GET", "/v1/query", "", nil, 405, "method_not_allowed"},
		{"POST graph", "POST", "/v1/graph", `{}`, nil, 405, "method_not_allowed"},
		{"unknown path", "GET", "/v2/nothing", "", nil, 404, "not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(s.Handler(), tt.method, tt.path, tt.body, tt.header...)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if e := errorOf(t, w.Body.Bytes()); e.Code != tt.code {
				t.Errorf("code %q, want %q (%s)", e.Code, tt.code, e.Message)
			}
			if tt.status == 405 && w.Header().Get("Allow") == "" {
				t.Error("405 without Allow")
			}
		})
	}

	t.Run("too large without Content-Length", func(t *testing.T) {
		req := httptest.NewRequest("POST", "/v1/query", strings.NewReader(big))
		req.ContentLength = -1 // chunked: only reading finds out
		req.Header.Set("Content-Type", "application/json")
		req.Host = "localhost"
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		if e := errorOf(t, w.Body.Bytes()); w.Code != 413 || e.Code != "body_too_large" {
			t.Fatalf("%d %+v", w.Code, e)
		}
	})
}

func TestAuth(t *testing.T) {
	s := newTestServer(t, newFake(), Config{Token: "s3cret"})
	tests := []struct {
		name, method, path, body, auth string
		status                         int
		challenge                      string
	}{
		{"no header", "POST", "/v1/query", `{"query": "q"}`, "", 401, `Bearer realm="graphrag"`},
		{"wrong token", "POST", "/v1/query", `{"query": "q"}`, "Bearer nope", 401, `Bearer realm="graphrag", error="invalid_token"`},
		{"token prefix", "POST", "/v1/query", `{"query": "q"}`, "Bearer s3cre", 401, `Bearer realm="graphrag", error="invalid_token"`},
		{"basic scheme", "POST", "/v1/query", `{"query": "q"}`, "Basic czNjcmV0", 401, `Bearer realm="graphrag"`},
		{"right token", "POST", "/v1/query", `{"query": "q"}`, "Bearer s3cret", 200, ""},
		{"metrics need it", "GET", "/metrics", "", "", 401, `Bearer realm="graphrag"`},
		{"graph needs it", "GET", "/v1/graph", "", "", 401, `Bearer realm="graphrag"`},
		{"healthz is open", "GET", "/healthz", "", "", 200, ""},
		{"readyz is open", "GET", "/readyz", "", "", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(s.Handler(), tt.method, tt.path, tt.body, "Authorization", tt.auth)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if got := w.Header().Get("WWW-Authenticate"); got != tt.challenge {
				t.Errorf("WWW-Authenticate %q, want %q", got, tt.challenge)
			}
			if tt.status == 401 {
				if e := errorOf(t, w.Body.Bytes()); e.Code != "unauthorized" {
					t.Errorf("code %q", e.Code)
				}
			}
			if tt.name == "no header" && !strings.Contains(w.Body.String(), "Bearer <token>") {
				t.Errorf("message escaped or missing the header to send: %s", w.Body)
			}
		})
	}
}

func TestHostCheck(t *testing.T) {
	tests := []struct {
		name, addr, host string
		status           int
	}{
		{"loopback ip", "", "127.0.0.1:8080", 200},
		{"localhost", "", "localhost:8080", 200},
		{"localhost upper case", "", "LOCALHOST", 200},
		{"ipv6 loopback", "", "[::1]:8080", 200},
		{"rebinding name", "", "evil.example:8080", 403},
		{"lan ip", "", "192.168.1.5:8080", 403},
		{"non-loopback bind accepts any host", "0.0.0.0:8080", "nas.local:8080", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, newFake(), Config{Addr: tt.addr})
			req := httptest.NewRequest("GET", "/healthz", nil)
			req.Host = tt.host
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if tt.status == 403 {
				if e := errorOf(t, w.Body.Bytes()); e.Code != "forbidden_host" {
					t.Errorf("code %q", e.Code)
				}
			}
		})
	}
}

func TestStreamMode(t *testing.T) {
	tests := []struct {
		field, accept, want string
	}{
		{"", "", modeJSON},
		{"", "application/json", modeJSON},
		{"", "application/x-ndjson", modeNDJSON},
		{"", "application/x-ndjson, application/json;q=0.5", modeNDJSON},
		{"", "text/event-stream", modeSSE},
		{"ndjson", "", modeNDJSON},
		{"sse", "application/json", modeSSE},
		{"json", "text/event-stream", modeJSON},
		{"SSE", "", modeSSE},
	}
	for _, tt := range tests {
		t.Run(tt.field+"|"+tt.accept, func(t *testing.T) {
			got, err := streamMode(tt.field, tt.accept)
			if err != nil || got != tt.want {
				t.Fatalf("streamMode(%q, %q) = %q, %v; want %q", tt.field, tt.accept, got, err, tt.want)
			}
		})
	}
}

// checkEventSequence checks the events of a successful fake run.
func checkEventSequence(t *testing.T, evs []Event) {
	t.Helper()
	want := []string{"run_start", "node_start", "node_end", "node_start", "node_end", "node_start", "token", "token", "token", "node_end", "decision", "run_end", "result"}
	if got := types(evs); !slices.Equal(got, want) {
		t.Fatalf("event types\n got %v\nwant %v", got, want)
	}
	if e := evs[2]; e.Node != "route" || e.Step != 1 || e.DurationMS <= 0 {
		t.Errorf("node_end %+v", e)
	}
	if e := evs[6]; e.Node != "generate" || e.Text != "tok0 " || e.Step != 3 {
		t.Errorf("token %+v", e)
	}
	if e := evs[10]; e.Node != "generate" || e.To != graph.END || e.Reason != "answer is grounded" {
		t.Errorf("decision %+v", e)
	}
	last := evs[len(evs)-1]
	if last.Result == nil || last.Result.Answer != "tok0 tok1 tok2 [1]" || len(last.Result.Trace.Nodes) != 3 {
		t.Errorf("result %+v", last.Result)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].ElapsedMS < evs[i-1].ElapsedMS {
			t.Errorf("elapsed_ms goes back at event %d: %v < %v", i, evs[i].ElapsedMS, evs[i-1].ElapsedMS)
		}
	}
}

func TestQueryNDJSON(t *testing.T) {
	f := newFake()
	ts := httptest.NewServer(newTestServer(t, f, Config{}).Handler())
	defer ts.Close()
	for _, how := range []struct{ name, body, accept string }{
		{"accept header", `{"query": "q"}`, "application/x-ndjson"},
		{"stream field", `{"query": "q", "stream": "ndjson"}`, ""},
	} {
		t.Run(how.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", ts.URL+"/v1/query", strings.NewReader(how.body))
			req.Header.Set("Content-Type", "application/json")
			if how.accept != "" {
				req.Header.Set("Accept", how.accept)
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
				t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			checkEventSequence(t, readNDJSON(t, resp.Body))
		})
	}

	t.Run("failure ends with an error message", func(t *testing.T) {
		f := newFake()
		f.fail = errBoom
		s := newTestServer(t, f, Config{})
		w := do(s.Handler(), "POST", "/v1/query", `{"query": "q", "stream": "ndjson"}`)
		evs := readNDJSON(t, w.Body)
		last := evs[len(evs)-1]
		if last.Type != "error" || last.Error == nil || last.Error.Code != "node_failed" || !strings.Contains(last.Error.Message, "boom") {
			t.Fatalf("last event %+v", last)
		}
		if n := strings.Count(strings.Join(types(evs), " "), "error"); n != 1 {
			t.Errorf("%d error events, want 1: %v", n, types(evs))
		}
	})
}

func TestQuerySSE(t *testing.T) {
	f := newFake()
	ts := httptest.NewServer(newTestServer(t, f, Config{}).Handler())
	defer ts.Close()
	req, _ := http.NewRequest("POST", ts.URL+"/v1/query", strings.NewReader(`{"query": "q"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream; charset=utf-8" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("Content-Type %q, Cache-Control %q", ct, resp.Header.Get("Cache-Control"))
	}
	raw := readSSE(t, resp.Body)
	evs := make([]Event, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal([]byte(r.Data), &evs[i]); err != nil {
			t.Fatalf("event %d data: %v: %q", i, err, r.Data)
		}
		if r.Event != evs[i].Type {
			t.Errorf("event %d: SSE event %q, JSON type %q", i, r.Event, evs[i].Type)
		}
		if r.ID != strconv.Itoa(i+1) {
			t.Errorf("event %d: id %q", i, r.ID)
		}
	}
	checkEventSequence(t, evs)
}

func TestConcurrencyLimit(t *testing.T) {
	f := newFake()
	f.block = true
	s := newTestServer(t, f, Config{MaxConcurrent: 1, QueueLength: -1})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/query", strings.NewReader(`{"query": "q"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := ts.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-f.started

	w := do(s.Handler(), "POST", "/v1/query", `{"query": "q2"}`)
	if w.Code != 429 || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("status %d Retry-After %q: %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if e := errorOf(t, w.Body.Bytes()); e.Code != "too_many_requests" {
		t.Errorf("code %q", e.Code)
	}
	if h := do(s.Handler(), "GET", "/healthz", ""); h.Code != 200 {
		t.Errorf("healthz limited too: %d", h.Code)
	}

	cancel()
	<-done
	<-f.cancelled
	// The slot is released when the handler returns, just after the run.
	deadline := time.Now().Add(5 * time.Second)
	f.block = false
	for {
		w = do(s.Handler(), "POST", "/v1/query", `{"query": "q3"}`)
		if w.Code == 200 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if w.Code != 200 {
		t.Fatalf("after the first query ended: %d %s", w.Code, w.Body)
	}
}

func TestTimeout(t *testing.T) {
	for _, tt := range []struct{ name, body string }{
		{"server timeout", `{"query": "q"}`},
		{"request timeout", `{"query": "q", "options": {"timeout_ms": 30}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake()
			f.block = true
			timeout := 30 * time.Millisecond
			if strings.Contains(tt.body, "timeout_ms") {
				timeout = time.Hour
			}
			s := newTestServer(t, f, Config{Timeout: timeout})
			w := do(s.Handler(), "POST", "/v1/query", tt.body)
			if w.Code != 504 {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			if e := errorOf(t, w.Body.Bytes()); e.Code != "timeout" || !strings.Contains(e.Message, "did not finish within 30ms") {
				t.Errorf("error %+v", e)
			}
			<-f.cancelled
		})
	}

	t.Run("stream ends with a timeout error", func(t *testing.T) {
		f := newFake()
		f.block = true
		s := newTestServer(t, f, Config{Timeout: 30 * time.Millisecond})
		w := do(s.Handler(), "POST", "/v1/query", `{"query": "q", "stream": "ndjson"}`)
		evs := readNDJSON(t, w.Body)
		last := evs[len(evs)-1]
		if w.Code != 200 || last.Type != "error" || last.Error.Code != "timeout" || !slices.Contains(types(evs), "token") {
			t.Fatalf("status %d events %v last %+v", w.Code, types(evs), last)
		}
	})
}

// TestDisconnectCancelsRun checks that a client that goes away mid-stream
// stops its run: the node sees its context end.
func TestDisconnectCancelsRun(t *testing.T) {
	for _, mode := range []string{"ndjson", "sse", "json"} {
		t.Run(mode, func(t *testing.T) {
			f := newFake()
			f.block = true
			s := newTestServer(t, f, Config{})
			ts := httptest.NewServer(s.Handler())
			defer ts.Close()

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/query",
				strings.NewReader(`{"query": "q", "stream": "`+mode+`"}`))
			req.Header.Set("Content-Type", "application/json")
			errc := make(chan error, 1)
			go func() {
				resp, err := ts.Client().Do(req)
				if err == nil {
					// Read until the client is cancelled mid-stream.
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				errc <- err
			}()
			select {
			case <-f.started:
			case err := <-errc:
				t.Fatalf("the request ended before the run started: %v", err)
			}
			cancel()
			select {
			case <-f.cancelled:
			case <-time.After(10 * time.Second):
				t.Fatal("the run was not cancelled after the client went away")
			}
			<-errc
			waitFor(t, func() bool {
				m := string(s.metrics.render())
				return strings.Contains(m, `graphrag_queries_total{outcome="canceled"} 1`) &&
					strings.Contains(m, "graphrag_queries_in_flight 0")
			})
		})
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 10s")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

type notDiagram struct{ Runner }

func TestGraphEndpoint(t *testing.T) {
	f := newFake()
	s := newTestServer(t, f, Config{})
	tests := []struct {
		name, target string
		status       int
		ctype, has   string
	}{
		{"mermaid by default", "/v1/graph", 200, "text/plain; charset=utf-8", "flowchart"},
		{"mermaid asked", "/v1/graph?format=mermaid", 200, "text/plain; charset=utf-8", "generate"},
		{"dot", "/v1/graph?format=dot", 200, "text/vnd.graphviz; charset=utf-8", "digraph"},
		{"unknown format", "/v1/graph?format=png", 400, "application/json", "bad_request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(s.Handler(), "GET", tt.target, "")
			if w.Code != tt.status || w.Header().Get("Content-Type") != tt.ctype || !strings.Contains(w.Body.String(), tt.has) {
				t.Fatalf("status %d type %q body:\n%s", w.Code, w.Header().Get("Content-Type"), w.Body)
			}
		})
	}
	t.Run("runner without diagrams", func(t *testing.T) {
		s := newTestServer(t, f, Config{Runner: notDiagram{f.graph(t)}})
		w := do(s.Handler(), "GET", "/v1/graph", "")
		if e := errorOf(t, w.Body.Bytes()); w.Code != 501 || e.Code != "not_configured" {
			t.Fatalf("%d %+v", w.Code, e)
		}
	})
}

func TestHealthAndReady(t *testing.T) {
	storeDown := fmt.Errorf("dial tcp 127.0.0.1:5432: connection refused")
	tests := []struct {
		name     string
		ready    ReadyFunc
		draining bool
		status   int
		code     string
	}{
		{"no check", nil, false, 200, ""},
		{"store up", func(context.Context) error { return nil }, false, 200, ""},
		{"store down", func(context.Context) error { return storeDown }, false, 503, "not_ready"},
		{"shutting down", nil, true, 503, "shutting_down"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, newFake(), Config{Ready: tt.ready})
			s.draining.Store(tt.draining)
			if w := do(s.Handler(), "GET", "/healthz", ""); w.Code != 200 || !strings.Contains(w.Body.String(), `"ok"`) {
				t.Fatalf("healthz %d %s", w.Code, w.Body)
			}
			w := do(s.Handler(), "GET", "/readyz", "")
			if w.Code != tt.status {
				t.Fatalf("readyz %d: %s", w.Code, w.Body)
			}
			if tt.code != "" {
				if e := errorOf(t, w.Body.Bytes()); e.Code != tt.code {
					t.Errorf("code %q", e.Code)
				}
			}
		})
	}
}

func TestCrossOrigin(t *testing.T) {
	s := newTestServer(t, newFake(), Config{TrustedOrigins: []string{"tauri://localhost"}})
	tests := []struct {
		name   string
		header []string
		status int
	}{
		{"curl -d (form content type, no browser headers)", []string{"Content-Type", "application/x-www-form-urlencoded"}, 200},
		{"no content type", []string{"Content-Type", ""}, 200},
		{"same-origin page", []string{"Sec-Fetch-Site", "same-origin", "Origin", "http://127.0.0.1:8080"}, 200},
		{"origin equal to host", []string{"Origin", "http://127.0.0.1:8080"}, 200},
		{"trusted desktop origin", []string{"Sec-Fetch-Site", "cross-site", "Origin", "tauri://localhost"}, 200},
		{"cross-site page", []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}, 403},
		{"same-site other port", []string{"Sec-Fetch-Site", "same-site", "Origin", "http://127.0.0.1:3000"}, 403},
		{"foreign origin, old browser", []string{"Origin", "https://evil.example"}, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(s.Handler(), "POST", "/v1/query", `{"query": "q"}`, tt.header...)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if tt.status == 403 {
				if e := errorOf(t, w.Body.Bytes()); e.Code != "cross_origin" {
					t.Errorf("code %q", e.Code)
				}
			}
		})
	}
	if _, err := New(Config{Runner: newFake().graph(t), TrustedOrigins: []string{"not a url"}}); err == nil {
		t.Error("New accepted a malformed trusted origin")
	}
}

func TestRecorderMatchesServer(t *testing.T) {
	f := newFake()
	rag := f.graph(t)
	rec := NewRecorder()
	final, err := rag.Invoke(context.Background(), nodesState("when are invoices due?"), graph.WithObserver(rec.Observe))
	if err != nil {
		t.Fatal(err)
	}
	got := rec.Response(final, false)
	s := newTestServer(t, f, Config{Runner: rag})
	w := do(s.Handler(), "POST", "/v1/query", `{"query": "when are invoices due?"}`)
	var want QueryResponse
	if err := json.Unmarshal(w.Body.Bytes(), &want); err != nil {
		t.Fatal(err)
	}
	// Timings differ between runs; everything else must not.
	got.Trace.DurationMS, want.Trace.DurationMS = 0, 0
	for i := range got.Trace.Nodes {
		got.Trace.Nodes[i].DurationMS, want.Trace.Nodes[i].DurationMS = 0, 0
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Fatalf("Recorder.Response differs from the server's answer\n got %s\nwant %s", gb, wb)
	}
}

func TestHeartbeat(t *testing.T) {
	f := newFake()
	f.routeDelay = 200 * time.Millisecond // a model thinking, in silence
	s := newTestServer(t, f, Config{Heartbeat: 10 * time.Millisecond})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	t.Run("ndjson", func(t *testing.T) {
		resp, err := postQuery(context.Background(), ts.URL, `{"query": "q", "stream": "ndjson"}`)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		evs := readNDJSON(t, resp.Body)
		var beats int
		var rest []Event
		for _, e := range evs {
			if e.Type == "heartbeat" {
				beats++
				continue
			}
			rest = append(rest, e)
		}
		if beats == 0 {
			t.Fatalf("no heartbeat in a 200 ms silence: %v", types(evs))
		}
		checkEventSequence(t, rest)
	})

	t.Run("sse", func(t *testing.T) {
		resp, err := postQuery(context.Background(), ts.URL, `{"query": "q", "stream": "sse"}`)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(body), "\n: keep-alive\n\n") && !strings.HasPrefix(string(body), ": keep-alive\n\n") {
			t.Fatalf("no keep-alive comment in:\n%s", body)
		}
		raw := readSSE(t, strings.NewReader(string(body)))
		if raw[len(raw)-1].Event != "result" {
			t.Fatalf("last event %q", raw[len(raw)-1].Event)
		}
	})

	t.Run("off", func(t *testing.T) {
		s := newTestServer(t, f, Config{Heartbeat: -1})
		w := do(s.Handler(), "POST", "/v1/query", `{"query": "q", "stream": "ndjson"}`)
		if strings.Contains(w.Body.String(), "heartbeat") {
			t.Fatal("heartbeat sent with heartbeats off")
		}
	})
}

func TestConfigState(t *testing.T) {
	var got nodes.State
	g := graph.NewStateGraph[nodes.State]()
	g.AddNode("generate", func(ctx context.Context, s nodes.State) (nodes.State, error) {
		got = s
		s.Answer = graphrag.Answer{Text: "ok"}
		return s, nil
	})
	g.AddEdge("generate", graph.END)
	g.SetEntryPoint("generate")
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, nil, Config{Runner: r, State: func(q string, h []graphrag.Turn) nodes.State {
		return nodes.State{Query: strings.ToUpper(q), History: h, Budget: nodes.Budget{Retrieve: 7}}
	}})
	w := do(s.Handler(), "POST", "/v1/query", `{"query": "q", "history": [{"query": "a", "answer": "b"}]}`)
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if got.Query != "Q" || got.Budget.Retrieve != 7 || len(got.History) != 1 || got.History[0] != (graphrag.Turn{Query: "a", Answer: "b"}) {
		t.Fatalf("initial state %+v", got)
	}
}

// TestResponseCarriesTheCaveats: the JSON answer carries the caveats a
// terminal prints under it, for the web page to show.
func TestResponseCarriesTheCaveats(t *testing.T) {
	low := nodes.State{Answer: graphrag.Answer{Text: "perhaps [1]", LowConfidence: true}}
	if r := response(low, Trace{}, false); len(r.Caveats) != 1 || !strings.HasPrefix(r.Caveats[0], "Low confidence") {
		t.Errorf("caveats %q", r.Caveats)
	}
	if r := response(nodes.State{Answer: graphrag.Answer{Text: "sure [1]"}}, Trace{}, false); r.Caveats != nil {
		t.Errorf("a confident answer's caveats %q", r.Caveats)
	}
}
