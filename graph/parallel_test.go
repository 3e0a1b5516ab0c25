package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// legs is the state of the fan-out tests.
type legs struct {
	Query   string
	Keyword []string
	Vector  []string
	Hits    []string
	Count   int
	Sub     string
}

func fanGraph(t *testing.T, reducers bool, branches map[string]NodeFunc[legs]) (*Runnable[legs], error) {
	t.Helper()
	g := NewStateGraph[legs]()
	g.AddNode("plan", func(_ context.Context, s legs) (legs, error) { s.Query += "?"; return s, nil })
	names := make([]string, 0, len(branches))
	for name, fn := range branches {
		g.AddNode(name, fn)
		g.AddEdge(name, "fuse")
		names = append(names, name)
	}
	slices.Sort(names)
	g.AddNode("fuse", func(_ context.Context, s legs) (legs, error) { return s, nil })
	g.SetEntryPoint("plan")
	g.AddParallelEdges("plan", names...)
	g.AddEdge("fuse", END)
	if reducers {
		AddReducer(g, "Hits", func(acc, v []string) []string { return append(acc, v...) })
		AddReducer(g, "Count", func(acc, v int) int { return acc + v })
	}
	return g.Compile()
}

func TestParallelBranchesMerge(t *testing.T) {
	// Each branch waits for the one after it, so they finish in reverse
	// order; the merge must still follow declaration order.
	release := map[string]chan struct{}{"k": make(chan struct{}), "v": make(chan struct{}), "w": make(chan struct{})}
	close(release["w"])
	r, err := fanGraph(t, true, map[string]NodeFunc[legs]{
		"k": func(_ context.Context, s legs) (legs, error) {
			<-release["k"]
			s.Keyword = []string{"kw:" + s.Query}
			s.Hits = []string{"k1", "k2"}
			s.Count = 1
			return s, nil
		},
		"v": func(_ context.Context, s legs) (legs, error) {
			<-release["v"]
			defer close(release["k"])
			s.Vector = []string{"vec:" + s.Query}
			s.Hits = []string{"v1"}
			s.Count = 2
			return s, nil
		},
		"w": func(_ context.Context, s legs) (legs, error) {
			defer close(release["v"])
			if len(s.Hits) != 0 || s.Count != 0 {
				t.Errorf("branch w sees reduced fields %v %d, want them zeroed", s.Hits, s.Count)
			}
			s.Count = 4
			return s, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), legs{Query: "q", Hits: []string{"old"}, Count: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := legs{Query: "q?", Keyword: []string{"kw:q?"}, Vector: []string{"vec:q?"}, Hits: []string{"old", "k1", "k2", "v1"}, Count: 17}
	if fmt.Sprint(s) != fmt.Sprint(want) {
		t.Errorf("merged %+v\nwant   %+v", s, want)
	}
}

func TestParallelConflictNamesBothBranches(t *testing.T) {
	r, err := fanGraph(t, false, map[string]NodeFunc[legs]{
		"keyword": func(_ context.Context, s legs) (legs, error) { s.Hits = []string{"k"}; return s, nil },
		"vector":  func(_ context.Context, s legs) (legs, error) { s.Hits = []string{"v"}; return s, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Invoke(context.Background(), legs{})
	if !errors.Is(err, ErrMergeConflict) || !strings.Contains(err.Error(), `"keyword" and "vector"`) || !strings.Contains(err.Error(), "Hits") {
		t.Fatalf("err = %v, want ErrMergeConflict naming keyword, vector and Hits", err)
	}
}

func TestParallelBranchFailure(t *testing.T) {
	r, err := fanGraph(t, true, map[string]NodeFunc[legs]{
		"ok": func(ctx context.Context, s legs) (legs, error) {
			<-ctx.Done() // cancelled when its sibling fails
			return s, ctx.Err()
		},
		"bad": func(_ context.Context, s legs) (legs, error) { return s, errors.New("index missing") },
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Invoke(context.Background(), legs{})
	var nerr *NodeError
	if !errors.As(err, &nerr) || nerr.Node != "bad" {
		t.Fatalf("err = %v, want the failing branch's NodeError", err)
	}
}

func TestSendFanOut(t *testing.T) {
	g := NewStateGraph[legs]()
	g.AddNode("split", func(_ context.Context, s legs) (legs, error) { return s, nil })
	g.AddNode("search", func(_ context.Context, s legs) (legs, error) {
		s.Hits = []string{"hit:" + s.Sub}
		return s, nil
	})
	g.AddNode("answer", func(_ context.Context, s legs) (legs, error) { return s, nil })
	g.SetEntryPoint("split")
	g.AddSendEdges("split", func(_ context.Context, s legs) ([]Send[legs], error) {
		var out []Send[legs]
		for _, q := range strings.Fields(s.Query) {
			b := s
			b.Sub = q
			out = append(out, Send[legs]{To: "search", State: b})
		}
		return out, nil
	}, "search")
	g.AddEdge("search", "answer")
	g.AddEdge("answer", END)
	AddReducer(g, "Hits", func(acc, v []string) []string { return append(acc, v...) })
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	var starts int
	s, err := r.Invoke(context.Background(), legs{Query: "a b c d"}, WithObserver(func(e Event) {
		if e.Kind == EventNodeStart && e.Node == "search" {
			starts++
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.Hits, " ") != "hit:a hit:b hit:c hit:d" || s.Sub != "" || starts != 4 {
		t.Errorf("state %+v after %d branch starts", s, starts)
	}
}

func TestFanOutCompileErrors(t *testing.T) {
	t.Run("branches join at different nodes", func(t *testing.T) {
		g := NewStateGraph[legs]()
		for _, n := range []string{"a", "b", "c", "j"} {
			g.AddNode(n, visitLegs)
		}
		g.SetEntryPoint("a")
		g.AddParallelEdges("a", "b", "c")
		g.AddEdge("b", "j")
		g.AddEdge("c", END)
		g.AddEdge("j", END)
		if _, err := g.Compile(); !errors.Is(err, ErrFanOut) {
			t.Fatalf("err = %v, want ErrFanOut", err)
		}
	})
	t.Run("reducer of a missing field", func(t *testing.T) {
		g := NewStateGraph[legs]()
		g.AddNode("a", visitLegs)
		g.AddNode("b", visitLegs)
		g.SetEntryPoint("a")
		g.AddParallelEdges("a", "b")
		g.AddEdge("b", END)
		AddReducer(g, "Nope", func(a, b int) int { return a + b })
		AddReducer(g, "Count", func(a, b string) string { return a + b })
		_, err := g.Compile()
		if !errors.Is(err, ErrFanOut) || !strings.Contains(err.Error(), "Nope") || !strings.Contains(err.Error(), "Count") {
			t.Fatalf("err = %v, want ErrFanOut naming Nope and Count", err)
		}
	})
	t.Run("state with unexported fields", func(t *testing.T) {
		type hidden struct{ n int }
		g := NewStateGraph[hidden]()
		g.AddNode("a", func(_ context.Context, s hidden) (hidden, error) { return s, nil })
		g.AddNode("b", func(_ context.Context, s hidden) (hidden, error) { s.n++; return s, nil })
		g.SetEntryPoint("a")
		g.AddParallelEdges("a", "b")
		g.AddEdge("b", END)
		if _, err := g.Compile(); !errors.Is(err, ErrFanOut) {
			t.Fatalf("err = %v, want ErrFanOut", err)
		}
	})
}

func visitLegs(_ context.Context, s legs) (legs, error) { return s, nil }

func TestInterruptInParallelBranch(t *testing.T) {
	ctx := context.Background()
	g := NewStateGraph[legs]()
	g.AddNode("plan", visitLegs)
	g.AddNode("web", func(ctx context.Context, s legs) (legs, error) {
		ok, err := Interrupt[bool](ctx, "search the web?")
		if err != nil {
			return s, err
		}
		if ok {
			s.Vector = []string{"web"}
		}
		return s, nil
	})
	g.AddNode("local", func(_ context.Context, s legs) (legs, error) { s.Keyword = []string{"local"}; return s, nil })
	g.AddNode("join", visitLegs)
	g.SetEntryPoint("plan")
	g.AddParallelEdges("plan", "local", "web")
	g.AddEdge("local", "join")
	g.AddEdge("web", "join")
	g.AddEdge("join", END)
	r, err := g.Compile(WithCheckpointer(NewMemorySaver()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Invoke(ctx, legs{}, WithThread("t"))
	var in *Interrupted
	if !errors.As(err, &in) || in.Node != "web" {
		t.Fatalf("err = %v, want a pause in web", err)
	}
	s, err := r.Invoke(ctx, legs{}, Resume(in.Token, true))
	if err != nil || fmt.Sprint(s.Keyword, s.Vector) != "[local] [web]" {
		t.Fatalf("resumed: %+v, %v", s, err)
	}
}

func TestParallelEventsInBranchOrder(t *testing.T) {
	// v finishes first (k waits for it), yet events follow branch order and
	// come from the run's goroutine; custom events carry their branch.
	vDone := make(chan struct{})
	r, err := fanGraph(t, true, map[string]NodeFunc[legs]{
		"k": func(ctx context.Context, s legs) (legs, error) {
			<-vDone
			Emit(ctx, "tok", "k")
			return s, nil
		},
		"v": func(ctx context.Context, s legs) (legs, error) {
			defer close(vDone)
			Emit(ctx, "tok", "v")
			return s, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	_, err = r.Invoke(context.Background(), legs{}, WithObserver(func(e Event) {
		switch e.Kind {
		case EventNodeStart, EventNodeEnd:
			got = append(got, fmt.Sprintf("%s:%s#%d@%d", e.Kind, e.Node, e.Branch, e.Step))
		case EventCustom:
			got = append(got, fmt.Sprintf("tok:%v#%d", e.Payload, e.Branch))
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := "node_start:plan#0@1 node_end:plan#0@1 node_start:k#1@2 node_start:v#2@3 tok:v#2 tok:k#1 node_end:k#1@2 node_end:v#2@3 node_start:fuse#0@4 node_end:fuse#0@4"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("events\n %s\nwant\n %s", s, want)
	}
}

func TestJoinNodeTimedFromTheJoin(t *testing.T) {
	r, err := fanGraph(t, true, map[string]NodeFunc[legs]{
		"k": func(_ context.Context, s legs) (legs, error) { s.Hits = []string{"k"}; return s, nil },
		"v": func(_ context.Context, s legs) (legs, error) { s.Hits = []string{"v"}; return s, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	var branchEnd, fuseStart Event
	obs := func(e Event) {
		switch {
		case e.Kind == EventNodeEnd && e.Branch > 0 && e.Time.After(branchEnd.Time):
			branchEnd = e
		case e.Kind == EventNodeStart && e.Node == "fuse":
			fuseStart = e
		}
	}
	if _, err := r.Invoke(context.Background(), legs{}, WithObserver(obs)); err != nil {
		t.Fatal(err)
	}
	// The join's duration is its own, not the branches' too.
	if fuseStart.Time.Before(branchEnd.Time) {
		t.Errorf("fuse started at %v, before branch %s ended at %v", fuseStart.Time, branchEnd.Node, branchEnd.Time)
	}
}
