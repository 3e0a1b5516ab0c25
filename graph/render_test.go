package graph

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// golden compares got with testdata/golden/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./graph -run %s -update to create it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (rerun with -update if the change is intended)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

type ragState struct{ Routed int }

func ragNode(_ context.Context, s ragState) (ragState, error) { return s, nil }

func ragRoute(_ context.Context, s ragState) (ragState, error) {
	s.Routed++
	return s, nil
}

// ragShaped is a graph shaped like graphrag's RAG graph: five nodes and
// three labelled back-edges.
func ragShaped(t *testing.T) *Runnable[ragState] {
	t.Helper()
	g := NewStateGraph[ragState]()
	for _, n := range []string{"route", "retrieve", "evaluate", "generate", "validate"} {
		if n == "route" {
			g.AddNode(n, ragRoute)
		} else {
			g.AddNode(n, ragNode)
		}
	}
	g.SetEntryPoint("route")
	g.AddEdge("route", "retrieve")
	g.AddEdge("retrieve", "evaluate")
	g.AddConditionalEdges("evaluate", func(_ context.Context, s ragState) (Decision, error) {
		if s.Routed < 2 {
			return Decision{To: "route", Reason: "poor hits"}, nil
		}
		return Decision{To: "generate", Reason: "good hits"}, nil
	}, "generate", "route")
	g.AddEdge("generate", "validate")
	g.AddConditionalEdges("validate", func(context.Context, ragState) (Decision, error) {
		return Decision{To: END, Reason: "grounded"}, nil
	}, END, "generate", "route")
	g.SetEdgeLabel("evaluate", "route", "poor: refine query")
	g.SetEdgeLabel("evaluate", "generate", "good or budget spent")
	g.SetEdgeLabel("validate", "generate", "unsupported")
	g.SetEdgeLabel("validate", "route", "off the question")
	g.SetEdgeLabel("validate", END, "ok")
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// awkward has names that are Mermaid keywords or need escaping.
func awkward(t *testing.T) *Runnable[counter] {
	t.Helper()
	g := NewStateGraph[counter]()
	for _, n := range []string{"end", "graph", "a b", "a-b", `say "hi"`, "x<y>#1", "o", "style", "R&D `x`"} {
		g.AddNode(n, noop)
	}
	g.SetEntryPoint("end")
	g.AddEdge("end", "graph")
	g.AddConditionalEdges("graph", toEnd, "a b", "a-b", "o")
	g.SetEdgeLabel("graph", "a-b", `label with "quotes" | pipe`)
	g.AddEdge("a b", `say "hi"`)
	g.AddEdge("a-b", "x<y>#1")
	g.SetEdgeLabel("a-b", "x<y>#1", "multi\nline")
	g.AddEdge(`say "hi"`, END)
	g.AddEdge("x<y>#1", "style")
	g.AddEdge("o", "R&D `x`")
	g.AddEdge("R&D `x`", "style")
	g.AddConditionalEdges("style", toEnd, END, "end", "style")
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRenderGolden(t *testing.T) {
	rag := ragShaped(t)
	trace := NewTrace()
	if _, err := rag.Invoke(context.Background(), ragState{}, WithObserver(trace.Observe)); err != nil {
		t.Fatal(err)
	}
	odd := awkward(t)
	tests := []struct {
		name string
		got  string
	}{
		{"rag.mmd", rag.Mermaid()},
		{"rag.dot", rag.DOT()},
		{"rag_trace.mmd", rag.Mermaid(WithTrace(trace))},
		{"rag_trace.dot", rag.DOT(WithTrace(trace))},
		{"rag_lr.mmd", rag.Mermaid(WithDirection("LR"))},
		{"awkward.mmd", odd.Mermaid()},
		{"awkward.dot", odd.DOT()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { golden(t, tt.name, tt.got) })
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	first := ragShaped(t).Mermaid() + ragShaped(t).DOT()
	for range 20 {
		if got := ragShaped(t).Mermaid() + ragShaped(t).DOT(); got != first {
			t.Fatal("rendering differs between identical graphs")
		}
	}
}

func TestMermaidShape(t *testing.T) {
	m := ragShaped(t).Mermaid()
	for _, want := range []string{
		"flowchart TD\n",
		`__start__(["START"])`,
		`__end__(["END"])`,
		"__start__ --> n_route\n",                       // static: solid, unlabelled
		`n_evaluate -.->|"poor: refine query"| n_route`, // loop: dashed with label
		`n_validate -.->|"ok"| __end__`,                 // conditional to END
		`n_evaluate -.->|"good or budget spent"| n_generate`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("Mermaid output lacks %q:\n%s", want, m)
		}
	}
	for _, line := range strings.Split(m, "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.EqualFold(f[0], "end") {
			t.Errorf("line uses the Mermaid keyword end as an id: %q", line)
		}
	}
}

func TestDefaultConditionalLabelIsTarget(t *testing.T) {
	r := loopGraph(t, 3)
	for _, e := range r.Edges() {
		if e.From == "c" && e.Conditional {
			want := e.To
			if e.To == END {
				want = "END"
			}
			if e.Label != want {
				t.Errorf("edge c->%s label %q, want %q", e.To, e.Label, want)
			}
		}
		if !e.Conditional && e.Label != "" {
			t.Errorf("static edge %s->%s has label %q", e.From, e.To, e.Label)
		}
	}
}

func TestMermaidIDsAreUnique(t *testing.T) {
	ids := mermaidIDs([]string{"a b", "a-b", "a_b", "a.b"})
	seen := map[string]string{}
	for name, id := range ids {
		if other, dup := seen[id]; dup {
			t.Errorf("%q and %q share id %q", name, other, id)
		}
		seen[id] = name
	}
}
