package graph

import (
	"context"
	"runtime"
	"testing"
)

// The benchmark graph: five trivial nodes in a ring, a → b → c → d → e, and
// one conditional back-edge e ⇢ a | END. A run starts at N=0, each node adds
// one, and the router leaves when N reaches benchSteps: 10 steps per run,
// two turns of the loop, two decisions.
const benchSteps = 10

type benchState struct{ N int }

func benchInc(_ context.Context, s benchState) (benchState, error) {
	s.N++
	return s, nil
}

func benchRoute(_ context.Context, s benchState) (Decision, error) {
	if s.N < benchSteps {
		return Decision{To: "a", Reason: "again"}, nil
	}
	return Decision{To: END, Reason: "done"}, nil
}

func benchGraph(b *testing.B) *Runnable[benchState] {
	b.Helper()
	g := NewStateGraph[benchState]()
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		g.AddNode(n, benchInc)
	}
	g.SetEntryPoint("a")
	g.AddEdge("a", "b")
	g.AddEdge("b", "c")
	g.AddEdge("c", "d")
	g.AddEdge("d", "e")
	g.AddConditionalEdges("e", benchRoute, "a", END)
	r, err := g.Compile()
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// perStep runs fn b.N times and reports ns/step and allocs/step besides the
// usual per-run figures.
func perStep(b *testing.B, fn func() int) {
	b.Helper()
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		if n := fn(); n != benchSteps {
			b.Fatalf("run took %d steps, want %d", n, benchSteps)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	steps := float64(b.N * benchSteps)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/steps, "ns/step")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/steps, "allocs/step")
}

func BenchmarkInvoke(b *testing.B) {
	r := benchGraph(b)
	ctx := context.Background()
	perStep(b, func() int {
		s, err := r.Invoke(ctx, benchState{})
		if err != nil {
			b.Fatal(err)
		}
		return s.N
	})
}

func BenchmarkInvokeCancelableContext(b *testing.B) {
	r := benchGraph(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	perStep(b, func() int {
		s, err := r.Invoke(ctx, benchState{})
		if err != nil {
			b.Fatal(err)
		}
		return s.N
	})
}

func BenchmarkInvokeObserver(b *testing.B) {
	r := benchGraph(b)
	ctx := context.Background()
	var events int
	opt := WithObserver(func(Event) { events++ })
	perStep(b, func() int {
		s, err := r.Invoke(ctx, benchState{}, opt)
		if err != nil {
			b.Fatal(err)
		}
		return s.N
	})
}

func BenchmarkInvokeTrace(b *testing.B) {
	r := benchGraph(b)
	ctx := context.Background()
	tr := NewTrace()
	opt := WithObserver(tr.Observe)
	perStep(b, func() int {
		s, err := r.Invoke(ctx, benchState{}, opt)
		if err != nil {
			b.Fatal(err)
		}
		return s.N
	})
}

func BenchmarkStream(b *testing.B) {
	r := benchGraph(b)
	ctx := context.Background()
	perStep(b, func() int {
		var n int
		for e, err := range r.Stream(ctx, benchState{}) {
			if err != nil {
				b.Fatal(err)
			}
			if e.Kind == EventRunEnd {
				n = e.Payload.(benchState).N
			}
		}
		return n
	})
}

// BenchmarkSwitchLoop is the floor: the same ten steps as a hand-written
// switch, with the same node and router functions.
func BenchmarkSwitchLoop(b *testing.B) {
	ctx := context.Background()
	perStep(b, func() int {
		s := benchState{}
		cur := "a"
		for cur != END {
			var err error
			s, err = benchInc(ctx, s)
			if err != nil {
				b.Fatal(err)
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
				d, err := benchRoute(ctx, s)
				if err != nil {
					b.Fatal(err)
				}
				cur = d.To
			}
		}
		return s.N
	})
}

func BenchmarkEmitNoObserver(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.ReportAllocs()
	for b.Loop() {
		Emit(ctx, "token", "x")
	}
}

// BenchmarkInvokeMemoryCheckpointer is the same run made durable with the
// in-memory checkpointer: a JSON checkpoint per step, the thread pruned to
// its last 20 checkpoints at the end of each run.
func BenchmarkInvokeMemoryCheckpointer(b *testing.B) {
	g := NewStateGraph[benchState]()
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		g.AddNode(n, benchInc)
	}
	g.SetEntryPoint("a")
	g.AddEdge("a", "b")
	g.AddEdge("b", "c")
	g.AddEdge("c", "d")
	g.AddEdge("d", "e")
	g.AddConditionalEdges("e", benchRoute, "a", END)
	r, err := g.Compile(WithCheckpointer(NewMemorySaver()), WithRetention(Retention{KeepLast: 20}))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	opt := WithThread("bench")
	perStep(b, func() int {
		s, err := r.Invoke(ctx, benchState{}, opt)
		if err != nil {
			b.Fatal(err)
		}
		return s.N
	})
}
