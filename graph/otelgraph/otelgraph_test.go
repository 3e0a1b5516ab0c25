package otelgraph_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/graph/otelgraph"
)

type state struct {
	N    int
	Hits []string
}

func noop(_ context.Context, s state) (state, error) { return s, nil }

// testGraph: plan ⇢ (again | fan) ; fan fans out to two legs joined at
// write, a subgraph of one node.
func testGraph(t *testing.T, failWrite bool) *graph.Runnable[state] {
	t.Helper()
	inner := graph.NewStateGraph[state]()
	inner.AddNode("draft", func(_ context.Context, s state) (state, error) {
		if failWrite {
			return s, errors.New("model down")
		}
		return s, nil
	})
	inner.SetEntryPoint("draft")
	inner.AddEdge("draft", graph.END)
	writer, err := inner.Compile()
	if err != nil {
		t.Fatal(err)
	}
	g := graph.NewStateGraph[state]()
	g.AddNode("plan", func(_ context.Context, s state) (state, error) { s.N++; return s, nil })
	g.AddNode("fan", noop)
	g.AddNode("kw", func(_ context.Context, s state) (state, error) { s.Hits = []string{"k"}; return s, nil })
	g.AddNode("vec", func(_ context.Context, s state) (state, error) { s.Hits = []string{"v"}; return s, nil })
	graph.AddSubgraph(g, "write", writer, nil, nil)
	g.SetEntryPoint("plan")
	g.AddConditionalEdges("plan", func(_ context.Context, s state) (graph.Decision, error) {
		if s.N < 2 {
			return graph.Decision{To: "plan", Reason: "refine"}, nil
		}
		return graph.Decision{To: "fan", Reason: "ready"}, nil
	}, "plan", "fan")
	g.AddParallelEdges("fan", "kw", "vec")
	g.AddEdge("kw", "write")
	g.AddEdge("vec", "write")
	g.AddEdge("write", graph.END)
	graph.AddReducer(g, "Hits", func(a, b []string) []string { return append(a, b...) })
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	ctx, parent := tp.Tracer("test").Start(context.Background(), "request")
	tr := otelgraph.New(tp)
	if _, err := testGraph(t, false).Invoke(ctx, state{}, graph.WithObserver(tr.Observer(ctx, "rag"))); err != nil {
		t.Fatal(err)
	}
	parent.End()

	spans := rec.Ended()
	byID := map[string]sdktrace.ReadOnlySpan{}
	var lines []string
	for _, s := range spans {
		byID[s.SpanContext().SpanID().String()] = s
	}
	for _, s := range spans {
		p := byID[s.Parent().SpanID().String()]
		pname := "-"
		if p != nil {
			pname = p.Name()
		}
		line := s.Name() + " <- " + pname
		for _, kv := range s.Attributes() {
			if kv.Key == otelgraph.AttrDecision || kv.Key == otelgraph.AttrDecisionReason {
				line += fmt.Sprintf(" %s=%s", kv.Key, kv.Value.AsString())
			}
		}
		lines = append(lines, line)
	}
	slices.Sort(lines)
	want := []string{
		"graph.node draft <- graph.node write",
		"graph.node fan <- graph.run rag",
		"graph.node kw <- graph.run rag",
		"graph.node plan <- graph.run rag graph.decision=fan graph.decision.reason=ready",
		"graph.node plan <- graph.run rag graph.decision=plan graph.decision.reason=refine",
		"graph.node vec <- graph.run rag",
		"graph.node write <- graph.run rag",
		"graph.run rag <- request",
		"request <- -",
	}
	if got := strings.Join(lines, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("spans\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

func TestFailureIsRecorded(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	tr := otelgraph.New(tp)
	ctx := context.Background()
	if _, err := testGraph(t, true).Invoke(ctx, state{}, graph.WithObserver(tr.Observer(ctx, "rag"))); err == nil {
		t.Fatal("the run succeeded")
	}
	failed := map[string]bool{}
	for _, s := range rec.Ended() {
		if s.Status().Code == codes.Error {
			failed[s.Name()] = true
		}
		if s.Name() == "graph.node draft" && !slices.Contains(s.Attributes(), otelgraph.AttrSubgraph.String("write")) {
			t.Errorf("draft's attributes %v lack its subgraph", s.Attributes())
		}
	}
	for _, name := range []string{"graph.node draft", "graph.node write", "graph.run rag"} {
		if !failed[name] {
			t.Errorf("span %q not marked failed (failed: %v)", name, failed)
		}
	}
}
