package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/cloudwego/eino/compose"

	"github.com/graphrag/graphrag/graph"
)

// The fan-out workflow: split → four trivial branches in parallel → join.
// Each branch contributes 1 to N and the join sees their sum, 4.
const fanBranches = 4

type fanState struct{ N int }

var branchNames = func() []string {
	var out []string
	for i := range fanBranches {
		out = append(out, fmt.Sprintf("b%d", i+1))
	}
	return out
}()

func fanNode(_ context.Context, s fanState) (fanState, error) { return s, nil }

func fanBranch(_ context.Context, s fanState) (fanState, error) {
	s.N++
	return s, nil
}

func graphragFanOut(tb testing.TB) *graph.Runnable[fanState] {
	tb.Helper()
	g := graph.NewStateGraph[fanState]()
	g.AddNode("split", fanNode)
	g.AddNode("join", fanNode)
	for _, b := range branchNames {
		g.AddNode(b, fanBranch)
		g.AddEdge(b, "join")
	}
	g.SetEntryPoint("split")
	g.AddParallelEdges("split", branchNames...)
	g.AddEdge("join", graph.END)
	graph.AddReducer(g, "N", func(acc, v int) int { return acc + v })
	r, err := g.Compile()
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func init() {
	// eino joins the branches' outputs with a merge function per type.
	compose.RegisterValuesMergeFunc(func(vs []fanState) (fanState, error) {
		var out fanState
		for _, v := range vs {
			out.N += v.N
		}
		return out, nil
	})
}

func einoFanOut(tb testing.TB) compose.Runnable[fanState, fanState] {
	tb.Helper()
	g := compose.NewGraph[fanState, fanState]()
	must := func(err error) {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(g.AddLambdaNode("split", compose.InvokableLambda(func(ctx context.Context, s fanState) (fanState, error) { return fanNode(ctx, s) })))
	must(g.AddLambdaNode("join", compose.InvokableLambda(func(ctx context.Context, s fanState) (fanState, error) { return fanNode(ctx, s) })))
	must(g.AddEdge(compose.START, "split"))
	for _, b := range branchNames {
		must(g.AddLambdaNode(b, compose.InvokableLambda(func(ctx context.Context, s fanState) (fanState, error) { return fanBranch(ctx, s) })))
		must(g.AddEdge("split", b))
		must(g.AddEdge(b, "join"))
	}
	must(g.AddEdge("join", compose.END))
	r, err := g.Compile(context.Background(), compose.WithNodeTriggerMode(compose.AllPredecessor))
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// TestSameFanOut checks that both engines compute the same join, so the
// benchmarks compare like with like.
func TestSameFanOut(t *testing.T) {
	ctx := context.Background()
	for name, run := range map[string]func() (fanState, error){
		"graphrag": func() (fanState, error) { return graphragFanOut(t).Invoke(ctx, fanState{}) },
		"eino":     func() (fanState, error) { return einoFanOut(t).Invoke(ctx, fanState{}) },
	} {
		s, err := run()
		if err != nil || s.N != fanBranches {
			t.Errorf("%s: %+v, %v; want N=%d", name, s, err, fanBranches)
		}
	}
}

func benchFanOut(b *testing.B, run func(context.Context) (fanState, error)) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s, err := run(ctx)
		if err != nil || s.N != fanBranches {
			b.Fatalf("%+v, %v", s, err)
		}
	}
}

func BenchmarkFanOutGraphrag(b *testing.B) {
	r := graphragFanOut(b)
	benchFanOut(b, func(ctx context.Context) (fanState, error) { return r.Invoke(ctx, fanState{}) })
}

func BenchmarkFanOutEino(b *testing.B) {
	r := einoFanOut(b)
	benchFanOut(b, func(ctx context.Context) (fanState, error) { return r.Invoke(ctx, fanState{}) })
}
