package sqlite_test

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/graphrag/graphrag/graph"
)

// The benchmark graph of graph/bench_test.go: five trivial nodes in a ring
// and a router that leaves after ten steps.
const benchSteps = 10

type benchState struct{ N int }

func benchGraph(b *testing.B, opts ...graph.CompileOption) *graph.Runnable[benchState] {
	b.Helper()
	inc := func(_ context.Context, s benchState) (benchState, error) { s.N++; return s, nil }
	g := graph.NewStateGraph[benchState]()
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		g.AddNode(n, inc)
	}
	g.SetEntryPoint("a")
	g.AddEdge("a", "b")
	g.AddEdge("b", "c")
	g.AddEdge("c", "d")
	g.AddEdge("d", "e")
	g.AddConditionalEdges("e", func(_ context.Context, s benchState) (graph.Decision, error) {
		if s.N < benchSteps {
			return graph.Decision{To: "a"}, nil
		}
		return graph.Decision{To: graph.END}, nil
	}, "a", graph.END)
	r, err := g.Compile(opts...)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkCheckpointer runs the same workflow with no checkpointer, the
// in-memory one and SQLite (a file in WAL mode, synchronous=NORMAL), side by
// side; each durable thread is pruned to its last 20 checkpoints per run.
func BenchmarkCheckpointer(b *testing.B) {
	keep := graph.WithRetention(graph.Retention{KeepLast: 20})
	cases := []struct {
		name string
		cp   func(b *testing.B) graph.Checkpointer
	}{
		{"none", nil},
		{"memory", func(*testing.B) graph.Checkpointer { return graph.NewMemorySaver() }},
		{"sqlite", func(b *testing.B) graph.Checkpointer { return open(b, filepath.Join(b.TempDir(), "bench.db")) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var r *graph.Runnable[benchState]
			var opts []graph.RunOption
			if c.cp == nil {
				r = benchGraph(b)
			} else {
				r = benchGraph(b, graph.WithCheckpointer(c.cp(b)), keep)
				opts = append(opts, graph.WithThread("bench"))
			}
			ctx := context.Background()
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for b.Loop() {
				s, err := r.Invoke(ctx, benchState{}, opts...)
				if err != nil || s.N != benchSteps {
					b.Fatalf("%+v, %v", s, err)
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			steps := float64(b.N * benchSteps)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/steps, "ns/step")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/steps, "allocs/step")
		})
	}
}
