package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// fakeThreads keeps conversations in a map.
type fakeThreads struct {
	mu        sync.Mutex
	turns     map[string][]graphrag.Turn
	appendErr error
	readErr   error
}

func (f *fakeThreads) History(_ context.Context, thread string) ([]graphrag.Turn, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]graphrag.Turn(nil), f.turns[thread]...), f.readErr
}

func (f *fakeThreads) Append(_ context.Context, thread string, t graphrag.Turn) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.appendErr != nil {
		return f.appendErr
	}
	if f.turns == nil {
		f.turns = map[string][]graphrag.Turn{}
	}
	f.turns[thread] = append(f.turns[thread], t)
	return nil
}

// echoRunner answers each query with "answer to <query>" and records the
// history each run was given.
func echoRunner(t *testing.T, seen *[][]graphrag.Turn) *graph.Runnable[nodes.State] {
	t.Helper()
	var mu sync.Mutex
	g := graph.NewStateGraph[nodes.State]()
	g.AddNode("generate", func(_ context.Context, s nodes.State) (nodes.State, error) {
		mu.Lock()
		*seen = append(*seen, s.History)
		mu.Unlock()
		s.Answer = graphrag.Answer{Text: "answer to " + s.Query}
		return s, nil
	})
	g.AddEdge("generate", graph.END)
	g.SetEntryPoint("generate")
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestQueryThreadKeepsTheConversation(t *testing.T) {
	var seen [][]graphrag.Turn
	threads := &fakeThreads{}
	s := newTestServer(t, nil, Config{Runner: echoRunner(t, &seen), Threads: threads})
	for _, q := range []string{"first", "second"} {
		if w := do(s.Handler(), "POST", "/v1/query", `{"query": "`+q+`", "thread": "t1"}`); w.Code != 200 {
			t.Fatalf("%s: %d %s", q, w.Code, w.Body)
		}
	}
	if w := do(s.Handler(), "POST", "/v1/query", `{"query": "alone"}`); w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	want := []graphrag.Turn{{Query: "first", Answer: "answer to first"}}
	if len(seen) != 3 || len(seen[0]) != 0 || len(seen[1]) != 1 || seen[1][0] != want[0] || len(seen[2]) != 0 {
		t.Errorf("histories the runs saw = %+v; want none, then the first turn, then none", seen)
	}
	if got := threads.turns["t1"]; len(got) != 2 || got[1] != (graphrag.Turn{Query: "second", Answer: "answer to second"}) {
		t.Errorf("thread t1 = %+v, want both turns", got)
	}
}

func TestQueryThreadOverStdio(t *testing.T) {
	var seen [][]graphrag.Turn
	threads := &fakeThreads{turns: map[string][]graphrag.Turn{"t": {{Query: "before", Answer: "then"}}}}
	in := `{"id": 1, "method": "query", "params": {"query": "now", "thread": "t", "stream": "json"}}` + "\n"
	var out strings.Builder
	if err := ServeStdio(context.Background(), strings.NewReader(in), &out, Config{Runner: echoRunner(t, &seen), Threads: threads}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || len(seen[0]) != 1 || seen[0][0].Query != "before" || len(threads.turns["t"]) != 2 {
		t.Errorf("stdio query with a thread: saw %+v, thread %+v\n%s", seen, threads.turns["t"], out.String())
	}
}

func TestQueryThreadErrors(t *testing.T) {
	var seen [][]graphrag.Turn
	cases := []struct {
		name    string
		threads Threads
		body    string
		code    int
		errCode string
	}{
		{"no threads configured", nil, `{"query": "q", "thread": "t"}`, 501, "not_configured"},
		{"thread and history", &fakeThreads{}, `{"query": "q", "thread": "t", "history": [{"query": "a", "answer": "b"}]}`, 400, "bad_request"},
		{"blank name", &fakeThreads{}, `{"query": "q", "thread": "  "}`, 400, "bad_request"},
		{"control character", &fakeThreads{}, `{"query": "q", "thread": "a\nb"}`, 400, "bad_request"},
		{"long name", &fakeThreads{}, `{"query": "q", "thread": "` + strings.Repeat("x", maxThreadName+1) + `"}`, 400, "bad_request"},
		{"store down", &fakeThreads{readErr: graphrag.ErrUnavailable}, `{"query": "q", "thread": "t"}`, 503, "unavailable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestServer(t, nil, Config{Runner: echoRunner(t, &seen), Threads: tc.threads})
			w := do(s.Handler(), "POST", "/v1/query", tc.body)
			var body struct{ Error ErrorBody }
			_ = json.Unmarshal(w.Body.Bytes(), &body)
			if w.Code != tc.code || body.Error.Code != tc.errCode {
				t.Errorf("got %d %s, want %d %s", w.Code, w.Body, tc.code, tc.errCode)
			}
		})
	}
}

// A turn the thread cannot keep does not cost the client its answer.
func TestQueryThreadAppendFailureIsANote(t *testing.T) {
	var seen [][]graphrag.Turn
	s := newTestServer(t, nil, Config{Runner: echoRunner(t, &seen), Threads: &fakeThreads{appendErr: errors.New("disk full")}})
	w := do(s.Handler(), "POST", "/v1/query", `{"query": "q", "thread": "t"}`)
	var r QueryResponse
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil || w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if r.Answer != "answer to q" || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "disk full") {
		t.Errorf("answer %q, notes %q", r.Answer, r.Notes)
	}
}
