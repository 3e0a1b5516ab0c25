package graph_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/graphrag/graphrag/graph"
)

// Order is the state of the durable examples.
type Order struct {
	Items    []string
	Approved bool
	Shipped  bool
}

// A run with a thread is checkpointed after every step; after a failure the
// next run of the thread resumes at the step that failed, not from the start.
func ExampleWithCheckpointer() {
	courierDown := true
	g := graph.NewStateGraph[Order]()
	g.AddNode("pack", func(_ context.Context, o Order) (Order, error) {
		fmt.Println("packing", strings.Join(o.Items, ", "))
		return o, nil
	})
	g.AddNode("ship", func(_ context.Context, o Order) (Order, error) {
		if courierDown {
			return o, errors.New("courier unreachable")
		}
		o.Shipped = true
		return o, nil
	})
	g.SetEntryPoint("pack")
	g.AddEdge("pack", "ship")
	g.AddEdge("ship", graph.END)
	r, _ := g.Compile(graph.WithCheckpointer(graph.NewMemorySaver()))

	ctx := context.Background()
	_, err := r.Invoke(ctx, Order{Items: []string{"tea", "cups"}}, graph.WithThread("order-7"))
	fmt.Println("first run:", err != nil)
	courierDown = false
	o, err := r.Invoke(ctx, Order{}, graph.WithThread("order-7")) // resumes at ship
	fmt.Println("second run:", o.Shipped, err)
	// Output:
	// packing tea, cups
	// first run: true
	// second run: true <nil>
}

// A node asks the caller a question with Interrupt; the run pauses, and
// resuming with the answer runs the node again with Interrupt returning it.
func ExampleInterrupt() {
	g := graph.NewStateGraph[Order]()
	g.AddNode("approve", func(ctx context.Context, o Order) (Order, error) {
		ok, err := graph.Interrupt[bool](ctx, "approve "+strings.Join(o.Items, ", ")+"?")
		if err != nil {
			return o, err
		}
		o.Approved = ok
		return o, nil
	})
	g.SetEntryPoint("approve")
	g.AddEdge("approve", graph.END)
	r, _ := g.Compile(graph.WithCheckpointer(graph.NewMemorySaver()))

	ctx := context.Background()
	_, err := r.Invoke(ctx, Order{Items: []string{"tea"}}, graph.WithThread("order-8"))
	var in *graph.Interrupted
	if errors.As(err, &in) {
		fmt.Println("asked:", in.Payload)
	}
	o, err := r.Invoke(ctx, Order{}, graph.Resume(in.Token, true))
	fmt.Println("approved:", o.Approved, err)
	// Output:
	// asked: approve tea?
	// approved: true <nil>
}

// WithInterruptBefore pauses before a node, for example to confirm an
// action; time travel resumes from an earlier checkpoint with an edited
// state.
func ExampleRunnable_UpdateState() {
	g := graph.NewStateGraph[Order]()
	g.AddNode("pack", func(_ context.Context, o Order) (Order, error) { return o, nil })
	g.AddNode("ship", func(_ context.Context, o Order) (Order, error) {
		fmt.Println("shipping", strings.Join(o.Items, ", "))
		o.Shipped = true
		return o, nil
	})
	g.SetEntryPoint("pack")
	g.AddEdge("pack", "ship")
	g.AddEdge("ship", graph.END)
	r, _ := g.Compile(graph.WithCheckpointer(graph.NewMemorySaver()), graph.WithInterruptBefore("ship"))

	ctx := context.Background()
	_, err := r.Invoke(ctx, Order{Items: []string{"tea"}}, graph.WithThread("order-9"))
	var in *graph.Interrupted
	errors.As(err, &in)
	fmt.Println("paused", in.When, in.Node)

	// The customer adds an item before it ships: edit the paused state.
	o, _, _ := r.State(ctx, "order-9", 0)
	o.Items = append(o.Items, "honey")
	if _, err := r.UpdateState(ctx, "order-9", in.Checkpoint, o); err != nil {
		fmt.Println(err)
	}
	o, err = r.Invoke(ctx, Order{}, graph.WithThread("order-9"))
	fmt.Println(o.Shipped, err)
	// Output:
	// paused before ship
	// shipping tea, honey
	// true <nil>
}

// Search is the state of the fan-out examples.
type Search struct {
	Query string
	Hits  []string
}

// Two retrieval legs run in parallel and join; a reducer merges the field
// both write, in declaration order whatever order they finish in.
func ExampleStateGraph_AddParallelEdges() {
	leg := func(name string) graph.NodeFunc[Search] {
		return func(_ context.Context, s Search) (Search, error) {
			s.Hits = []string{name + ":" + s.Query}
			return s, nil
		}
	}
	g := graph.NewStateGraph[Search]()
	g.AddNode("plan", func(_ context.Context, s Search) (Search, error) { return s, nil })
	g.AddNode("keyword", leg("keyword"))
	g.AddNode("vector", leg("vector"))
	g.AddNode("fuse", func(_ context.Context, s Search) (Search, error) { return s, nil })
	g.SetEntryPoint("plan")
	g.AddParallelEdges("plan", "keyword", "vector")
	g.AddEdge("keyword", "fuse")
	g.AddEdge("vector", "fuse")
	g.AddEdge("fuse", graph.END)
	graph.AddReducer(g, "Hits", func(acc, hits []string) []string { return append(acc, hits...) })
	r, err := g.Compile()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _ := r.Invoke(context.Background(), Search{Query: "backup"})
	fmt.Println(s.Hits)
	// Output: [keyword:backup vector:backup]
}

// Send fans out over a list decided at run time (map-reduce): one branch per
// sub-question.
func ExampleStateGraph_AddSendEdges() {
	g := graph.NewStateGraph[Search]()
	g.AddNode("split", func(_ context.Context, s Search) (Search, error) { return s, nil })
	g.AddNode("search", func(_ context.Context, s Search) (Search, error) {
		s.Hits = []string{"hit for " + s.Query}
		return s, nil
	})
	g.SetEntryPoint("split")
	g.AddSendEdges("split", func(_ context.Context, s Search) ([]graph.Send[Search], error) {
		var out []graph.Send[Search]
		for _, q := range strings.Split(s.Query, " and ") {
			out = append(out, graph.Send[Search]{To: "search", State: Search{Query: q}})
		}
		return out, nil
	}, "search")
	g.AddEdge("search", graph.END)
	graph.AddReducer(g, "Hits", func(acc, hits []string) []string { return append(acc, hits...) })
	r, _ := g.Compile()
	s, _ := r.Invoke(context.Background(), Search{Query: "backups and restores"})
	fmt.Println(strings.Join(s.Hits, "; "))
	// Output: hit for backups; hit for restores
}

// Two branches writing one field without a reducer is an error naming both.
func ExampleErrMergeConflict() {
	g := graph.NewStateGraph[Search]()
	write := func(_ context.Context, s Search) (Search, error) { s.Hits = []string{"x"}; return s, nil }
	g.AddNode("plan", func(_ context.Context, s Search) (Search, error) { return s, nil })
	g.AddNode("a", write)
	g.AddNode("b", write)
	g.SetEntryPoint("plan")
	g.AddParallelEdges("plan", "a", "b")
	g.AddEdge("a", graph.END)
	g.AddEdge("b", graph.END)
	r, _ := g.Compile()
	_, err := r.Invoke(context.Background(), Search{})
	fmt.Println(errors.Is(err, graph.ErrMergeConflict))
	fmt.Println(err)
	// Output:
	// true
	// graph: fan-out from "plan": branches "a" and "b" both wrote field Hits; give it a reducer (graph.AddReducer) or let each branch write its own field: parallel branches wrote the same field
}

// A compiled graph runs as a node of another; its streamed tokens reach the
// parent's stream, tagged with the subgraph's name.
func ExampleAddSubgraph() {
	w := graph.NewStateGraph[string]()
	w.AddNode("write", func(ctx context.Context, s string) (string, error) {
		for _, tok := range []string{"Back", "ups run nightly"} {
			graph.Emit(ctx, "token", tok)
			s += tok
		}
		return s, nil
	})
	w.SetEntryPoint("write")
	w.AddEdge("write", graph.END)
	writer, _ := w.Compile()

	g := graph.NewStateGraph[Search]()
	graph.AddSubgraph(g, "answer", writer,
		func(s Search) string { return "" },
		func(s Search, answer string) Search { s.Hits = append(s.Hits, answer); return s })
	g.SetEntryPoint("answer")
	g.AddEdge("answer", graph.END)
	r, _ := g.Compile()
	for e := range r.Stream(context.Background(), Search{}) {
		if e.Kind == graph.EventCustom {
			fmt.Printf("%s/%s: %v\n", e.Subgraph, e.Node, e.Payload)
		}
	}
	// Output:
	// answer/write: Back
	// answer/write: ups run nightly
}

// A node that fails with an error marked Retryable runs again with backoff.
func ExampleWithRetry() {
	calls := 0
	g := graph.NewStateGraph[Search]()
	g.AddNode("search", func(_ context.Context, s Search) (Search, error) {
		calls++
		if calls < 3 {
			return s, graph.Retryable(errors.New("server busy"))
		}
		s.Hits = []string{"found"}
		return s, nil
	}, graph.WithRetry(graph.RetryPolicy{MaxAttempts: 5, Backoff: time.Millisecond}), graph.WithTimeout(time.Minute))
	g.SetEntryPoint("search")
	g.AddEdge("search", graph.END)
	r, _ := g.Compile()
	s, err := r.Invoke(context.Background(), Search{})
	fmt.Println(s.Hits, calls, err)
	// Output: [found] 3 <nil>
}

// A run that loops past the step limit names the loop that ran away.
func ExampleMaxStepsError() {
	r := draftGraph() // write → check ⇢ write | END
	_, err := r.Invoke(context.Background(), Draft{}, graph.WithRunMaxSteps(5))
	var me *graph.MaxStepsError
	if errors.As(err, &me) {
		fmt.Printf("%s -> %s, %d times\n", me.Loop.From, me.Loop.To, me.Count)
	}
	// Output: check -> write, 2 times
}

// Time travel: a finished thread is run again from an earlier checkpoint.
// The new steps append to the thread's history, each naming the checkpoint
// it follows, and the history it branched from stays in place.
func ExampleWithCheckpoint() {
	g := graph.NewStateGraph[Order]()
	g.AddNode("pack", func(_ context.Context, o Order) (Order, error) { return o, nil })
	g.AddNode("ship", func(_ context.Context, o Order) (Order, error) {
		fmt.Println("shipping", strings.Join(o.Items, ", "))
		o.Shipped = true
		return o, nil
	})
	g.SetEntryPoint("pack")
	g.AddEdge("pack", "ship")
	g.AddEdge("ship", graph.END)
	cp := graph.NewMemorySaver()
	r, _ := g.Compile(graph.WithCheckpointer(cp))

	ctx := context.Background()
	if _, err := r.Invoke(ctx, Order{Items: []string{"tea"}}, graph.WithThread("order-10")); err != nil {
		fmt.Println(err)
	}
	// Go back to the checkpoint after "pack" and ship again from there.
	if _, err := r.Invoke(ctx, Order{}, graph.WithThread("order-10"), graph.WithCheckpoint(1)); err != nil {
		fmt.Println(err)
	}
	history, _ := cp.List(ctx, "order-10")
	for _, c := range history {
		fmt.Printf("#%d after %s (follows #%d), next %s\n", c.Seq, c.Node, c.Parent, c.Next)
	}
	// Output:
	// shipping tea
	// shipping tea
	// #1 after pack (follows #0), next ship
	// #2 after ship (follows #1), next __end__
	// #3 after ship (follows #1), next __end__
}

// WithRetention prunes a thread at the end of each run, so that a
// long-lived thread (a conversation) keeps a bounded history; its latest
// checkpoint is always kept.
func ExampleWithRetention() {
	g := graph.NewStateGraph[Order]()
	g.AddNode("pack", func(_ context.Context, o Order) (Order, error) { return o, nil })
	g.AddNode("ship", func(_ context.Context, o Order) (Order, error) { o.Shipped = true; return o, nil })
	g.SetEntryPoint("pack")
	g.AddEdge("pack", "ship")
	g.AddEdge("ship", graph.END)
	cp := graph.NewMemorySaver()
	r, _ := g.Compile(graph.WithCheckpointer(cp), graph.WithRetention(graph.Retention{KeepLast: 3}))

	ctx := context.Background()
	for range 5 { // five orders on one thread: ten checkpoints written
		if _, err := r.Invoke(ctx, Order{Items: []string{"tea"}}, graph.WithThread("regular")); err != nil {
			fmt.Println(err)
		}
	}
	history, _ := cp.List(ctx, "regular")
	for _, c := range history {
		fmt.Print("#", c.Seq, " ")
	}
	fmt.Println()
	// Output: #8 #9 #10
}

// AddReducer folds a field that several branches of a Send fan-out write:
// here a count and a list, merged in Send order.
func ExampleAddReducer() {
	type Tally struct {
		Words []string
		Found []string
		Count int
	}
	g := graph.NewStateGraph[Tally]()
	g.AddNode("split", func(_ context.Context, t Tally) (Tally, error) { return t, nil })
	g.AddNode("check", func(_ context.Context, t Tally) (Tally, error) {
		if strings.HasPrefix(t.Words[0], "b") {
			t.Found, t.Count = t.Words, 1
		}
		return t, nil
	})
	g.AddNode("report", func(_ context.Context, t Tally) (Tally, error) { return t, nil })
	g.SetEntryPoint("split")
	g.AddSendEdges("split", func(_ context.Context, t Tally) ([]graph.Send[Tally], error) {
		var out []graph.Send[Tally]
		for _, w := range t.Words {
			out = append(out, graph.Send[Tally]{To: "check", State: Tally{Words: []string{w}}})
		}
		return out, nil
	}, "check")
	g.AddEdge("check", "report")
	g.AddEdge("report", graph.END)
	graph.AddReducer(g, "Found", func(acc, v []string) []string { return append(acc, v...) })
	graph.AddReducer(g, "Count", func(acc, v int) int { return acc + v })
	r, err := g.Compile()
	if err != nil {
		fmt.Println(err)
		return
	}
	t, err := r.Invoke(context.Background(), Tally{Words: []string{"backup", "restore", "bucket", "disk"}})
	fmt.Println(t.Found, t.Count, err)
	// Output: [backup bucket] 2 <nil>
}
