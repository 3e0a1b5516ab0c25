package graph

import (
	"context"
	"testing"
)

// hybridShaped has a fan-out (two retrieval legs joined by a reducer) and a
// subgraph (a writer that drafts and checks its answer).
func hybridShaped(t *testing.T) *Runnable[legs] {
	t.Helper()
	w := NewStateGraph[legs]()
	w.AddNode("draft", visitLegs)
	w.AddNode("check", visitLegs)
	w.SetEntryPoint("draft")
	w.AddEdge("draft", "check")
	w.AddConditionalEdges("check", func(_ context.Context, s legs) (Decision, error) {
		return Decision{To: END, Reason: "grounded"}, nil
	}, "draft", END)
	w.SetEdgeLabel("check", "draft", "unsupported")
	writer, err := w.Compile()
	if err != nil {
		t.Fatal(err)
	}

	g := NewStateGraph[legs]()
	g.AddNode("plan", visitLegs)
	g.AddNode("keyword", func(_ context.Context, s legs) (legs, error) { s.Hits = []string{"k"}; return s, nil })
	g.AddNode("vector", func(_ context.Context, s legs) (legs, error) { s.Hits = []string{"v"}; return s, nil })
	g.AddNode("fuse", visitLegs)
	AddSubgraph(g, "answer", writer, nil, nil)
	g.SetEntryPoint("plan")
	g.AddParallelEdges("plan", "keyword", "vector")
	g.AddEdge("keyword", "fuse")
	g.AddEdge("vector", "fuse")
	g.AddEdge("fuse", "answer")
	g.AddEdge("answer", END)
	AddReducer(g, "Hits", func(acc, v []string) []string { return append(acc, v...) })
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRenderParallelAndSubgraph(t *testing.T) {
	r := hybridShaped(t)
	golden(t, "hybrid.mmd", r.Mermaid())
	golden(t, "hybrid.dot", r.DOT())

	tr := NewTrace()
	s, err := r.Invoke(context.Background(), legs{}, WithObserver(tr.Observe))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Hits) != 2 {
		t.Fatalf("hits %v", s.Hits)
	}
	for _, e := range [][2]string{{"plan", "keyword"}, {"plan", "vector"}, {"keyword", "fuse"}, {"vector", "fuse"}, {"fuse", "answer"}, {"answer", END}} {
		if n := tr.EdgeCount(e[0], e[1]); n != 1 {
			t.Errorf("trace counts %s -> %s %d times, want 1", e[0], e[1], n)
		}
	}
	if n := tr.NodeCount("draft"); n != 0 {
		t.Errorf("the trace counted the subgraph's node draft %d times; it draws the invoked graph only", n)
	}
	golden(t, "hybrid_trace.mmd", r.Mermaid(WithTrace(tr)))
	golden(t, "hybrid_trace.dot", r.DOT(WithTrace(tr)))
}
