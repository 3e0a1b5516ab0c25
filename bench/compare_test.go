package bench

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"testing"

	"github.com/cloudwego/eino/compose"

	"github.com/graphrag/graphrag/graph"
)

const steps = 10 // node runs per run of the benchmark workflow

var nodes = []string{"a", "b", "c", "d", "e"}

type state struct{ N int }

func inc(_ context.Context, s state) (state, error) {
	s.N++
	return s, nil
}

func graphragGraph(tb testing.TB) *graph.Runnable[state] {
	tb.Helper()
	g := graph.NewStateGraph[state]()
	for _, n := range nodes {
		g.AddNode(n, inc)
	}
	g.SetEntryPoint("a")
	for i := 0; i+1 < len(nodes); i++ {
		g.AddEdge(nodes[i], nodes[i+1])
	}
	g.AddConditionalEdges("e", func(_ context.Context, s state) (graph.Decision, error) {
		if s.N < steps {
			return graph.Decision{To: "a", Reason: "again"}, nil
		}
		return graph.Decision{To: graph.END, Reason: "done"}, nil
	}, "a", graph.END)
	r, err := g.Compile()
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func einoGraph(tb testing.TB) compose.Runnable[state, state] {
	tb.Helper()
	g := compose.NewGraph[state, state]()
	for _, n := range nodes {
		if err := g.AddLambdaNode(n, compose.InvokableLambda(func(ctx context.Context, s state) (state, error) { return inc(ctx, s) })); err != nil {
			tb.Fatal(err)
		}
	}
	must := func(err error) {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(g.AddEdge(compose.START, "a"))
	for i := 0; i+1 < len(nodes); i++ {
		must(g.AddEdge(nodes[i], nodes[i+1]))
	}
	must(g.AddBranch("e", compose.NewGraphBranch(func(_ context.Context, s state) (string, error) {
		if s.N < steps {
			return "a", nil
		}
		return compose.END, nil
	}, map[string]bool{"a": true, compose.END: true})))
	// eino's default step limit for a graph with cycles is nodes+10, too
	// few for this loop; give it graphrag's default of 25.
	r, err := g.Compile(context.Background(), compose.WithMaxRunSteps(graph.DefaultMaxSteps))
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// TestSameWorkflow checks that both engines run the workflow to the same
// result, so the benchmarks compare like with like.
func TestSameWorkflow(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		run  func() (state, error)
	}{
		{"graphrag", func() (state, error) { return graphragGraph(t).Invoke(ctx, state{}) }},
		{"eino", func() (state, error) { return einoGraph(t).Invoke(ctx, state{}) }},
		{"switch", func() (state, error) { return switchLoop(ctx, state{}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.run()
			if err != nil || s.N != steps {
				t.Fatalf("got %+v, %v; want N=%d", s, err, steps)
			}
		})
	}
}

// switchLoop is the floor: the workflow written by hand.
func switchLoop(ctx context.Context, s state) (state, error) {
	cur := "a"
	for cur != graph.END {
		var err error
		if s, err = inc(ctx, s); err != nil {
			return s, err
		}
		switch cur {
		case "a":
			cur = "b"
		case "b":
			cur = "c"
		case "c":
			cur = "d"
		case "d":
			cur = "e"
		case "e":
			if s.N < steps {
				cur = "a"
			} else {
				cur = graph.END
			}
		}
	}
	return s, nil
}

// perStep runs fn b.N times and reports per-step figures besides the usual
// per-run ones.
func perStep(b *testing.B, fn func(context.Context) (state, error)) {
	b.Helper()
	ctx := context.Background()
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		s, err := fn(ctx)
		if err != nil || s.N != steps {
			b.Fatalf("got %+v, %v", s, err)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	n := float64(b.N * steps)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/step")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/step")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/step")
}

func BenchmarkGraphrag(b *testing.B) {
	r := graphragGraph(b)
	perStep(b, func(ctx context.Context) (state, error) { return r.Invoke(ctx, state{}) })
}

func BenchmarkGraphragObserver(b *testing.B) {
	r := graphragGraph(b)
	var events int
	opt := graph.WithObserver(func(graph.Event) { events++ })
	perStep(b, func(ctx context.Context) (state, error) { return r.Invoke(ctx, state{}, opt) })
}

func BenchmarkEino(b *testing.B) {
	r := einoGraph(b)
	perStep(b, func(ctx context.Context) (state, error) { return r.Invoke(ctx, state{}) })
}

func BenchmarkSwitchLoop(b *testing.B) {
	perStep(b, func(ctx context.Context) (state, error) { return switchLoop(ctx, state{}) })
}

var ratio = flag.Bool("ratio", false, "TestRatio: run the benchmarks and print how graphrag compares with eino")

// TestRatio prints the engines' costs side by side (with -ratio). It
// asserts nothing about time: timing belongs to benchmarks, not tests.
func TestRatio(t *testing.T) {
	if !*ratio {
		t.Skip("pass -ratio to measure")
	}
	results := []struct {
		name string
		fn   func(*testing.B)
		res  testing.BenchmarkResult
	}{
		{name: "graphrag", fn: BenchmarkGraphrag},
		{name: "graphrag+observer", fn: BenchmarkGraphragObserver},
		{name: "eino", fn: BenchmarkEino},
		{name: "switch loop", fn: BenchmarkSwitchLoop},
	}
	for i := range results {
		results[i].res = testing.Benchmark(results[i].fn)
	}
	perStep := func(r testing.BenchmarkResult) (ns, allocs, bytes float64) {
		return float64(r.NsPerOp()) / steps, float64(r.AllocsPerOp()) / steps, float64(r.AllocedBytesPerOp()) / steps
	}
	einoNs, _, _ := perStep(results[2].res)
	for _, r := range results {
		ns, allocs, bytes := perStep(r.res)
		t.Logf("%-18s %9.1f ns/step %6.1f allocs/step %8.1f B/step   eino/this = %s",
			r.name, ns, allocs, bytes, fmt.Sprintf("%.1fx", einoNs/ns))
	}
	// The fan-out workflow (fanout_test.go), per run: split, four parallel
	// branches, join.
	g, e := testing.Benchmark(BenchmarkFanOutGraphrag), testing.Benchmark(BenchmarkFanOutEino)
	for _, r := range []struct {
		name string
		res  testing.BenchmarkResult
	}{{"fan-out graphrag", g}, {"fan-out eino", e}} {
		t.Logf("%-18s %9d ns/run  %6d allocs/run  %8d B/run    eino/this = %.1fx",
			r.name, r.res.NsPerOp(), r.res.AllocsPerOp(), r.res.AllocedBytesPerOp(), float64(e.NsPerOp())/float64(r.res.NsPerOp()))
	}
}
