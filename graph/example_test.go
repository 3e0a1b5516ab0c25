package graph_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/graphrag/graphrag/graph"
)

// Draft is the state of the examples: a text improved until it is long enough.
type Draft struct {
	Text   string
	Rounds int
}

func write(_ context.Context, d Draft) (Draft, error) {
	d.Text += "word "
	d.Rounds++
	return d, nil
}

func review(_ context.Context, d Draft) (graph.Decision, error) {
	if d.Rounds < 3 {
		return graph.Decision{To: "write", Reason: fmt.Sprintf("only %d words", d.Rounds)}, nil
	}
	return graph.Decision{To: graph.END, Reason: "long enough"}, nil
}

func draftGraph() *graph.Runnable[Draft] {
	g := graph.NewStateGraph[Draft]()
	g.AddNode("write", write)
	g.AddNode("check", func(_ context.Context, d Draft) (Draft, error) { return d, nil })
	g.SetEntryPoint("write")
	g.AddEdge("write", "check")
	g.AddConditionalEdges("check", review, "write", graph.END)
	g.SetEdgeLabel("check", "write", "too short")
	g.SetEdgeLabel("check", graph.END, "done")
	r, err := g.Compile()
	if err != nil {
		panic(err)
	}
	return r
}

// A loop: write, check, and go back to write until the draft is long enough.
func Example_loop() {
	r := draftGraph()
	d, err := r.Invoke(context.Background(), Draft{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q after %d rounds\n", strings.TrimSpace(d.Text), d.Rounds)
	// Output: "word word word" after 3 rounds
}

// Observe a run through its events: each conditional decision carries the
// router's reason.
func ExampleWithObserver() {
	r := draftGraph()
	_, err := r.Invoke(context.Background(), Draft{}, graph.WithObserver(func(e graph.Event) {
		if e.Kind == graph.EventDecision {
			fmt.Printf("step %d: %s -> %s (%s)\n", e.Step, e.Node, e.To, e.Reason)
		}
	}))
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// step 2: check -> write (only 1 words)
	// step 4: check -> write (only 2 words)
	// step 6: check -> __end__ (long enough)
}

// Stream a run and print the tokens a node emits as they are produced.
func ExampleRunnable_Stream() {
	g := graph.NewStateGraph[string]()
	g.AddNode("speak", func(ctx context.Context, s string) (string, error) {
		for _, tok := range []string{"Hello", ", ", "world"} {
			graph.Emit(ctx, "token", tok)
			s += tok
		}
		return s, nil
	})
	g.SetEntryPoint("speak")
	g.AddEdge("speak", graph.END)
	r, _ := g.Compile()

	for e, err := range r.Stream(context.Background(), "") {
		if err != nil {
			fmt.Println("failed:", err)
			break
		}
		if e.Kind == graph.EventCustom {
			fmt.Printf("[%v]", e.Payload)
		}
		if final, ok := graph.FinalState[string](e); ok {
			fmt.Printf("\nfinal: %q\n", final)
		}
	}
	// Output:
	// [Hello][, ][world]
	// final: "Hello, world"
}

// A step limit stops a run that loops too long; the last state comes back
// with the error.
func ExampleWithRunMaxSteps() {
	r := draftGraph()
	d, err := r.Invoke(context.Background(), Draft{}, graph.WithRunMaxSteps(3))
	fmt.Println(errors.Is(err, graph.ErrMaxSteps), d.Rounds)
	// Output: true 2
}

// Compile names what is wrong with a graph.
func ExampleStateGraph_Compile() {
	g := graph.NewStateGraph[Draft]()
	g.AddNode("write", write)
	g.AddNode("orphan", write)
	g.SetEntryPoint("write")
	g.AddEdge("write", graph.END)
	g.AddEdge("orphan", graph.END)
	_, err := g.Compile()
	fmt.Println(errors.Is(err, graph.ErrUnreachable))
	fmt.Println(err)
	// Output:
	// true
	// graph: node "orphan" cannot be reached from the entry point "write": unreachable node
}

// Draw the graph as a Mermaid flowchart; conditional edges are dashed.
func ExampleRunnable_Mermaid() {
	fmt.Print(draftGraph().Mermaid())
	// Output:
	// flowchart TD
	//     __start__(["START"])
	//     n_check["check"]
	//     n_write["write"]
	//     __end__(["END"])
	//     __start__ --> n_write
	//     n_check -.->|"too short"| n_write
	//     n_check -.->|"done"| __end__
	//     n_write --> n_check
}

// Overlay a recorded run on the diagram: visited nodes are highlighted and
// edges show how often they were taken.
func ExampleWithTrace() {
	r := draftGraph()
	trace := graph.NewTrace()
	if _, err := r.Invoke(context.Background(), Draft{}, graph.WithObserver(trace.Observe)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(trace.Path())
	fmt.Print(r.DOT(graph.WithTrace(trace)))
	// Output:
	// [write check write check write check]
	// digraph G {
	// 	rankdir=TB;
	// 	node [shape=box, style=rounded, fontname="Helvetica"];
	// 	edge [fontname="Helvetica", fontsize=10];
	// 	"__start__" [label="START", shape=oval, style="filled", fillcolor="#d7f0dd", color="#1e7b34", penwidth=2];
	// 	"check" [label="check", style="rounded,filled", fillcolor="#d7f0dd", color="#1e7b34", penwidth=2];
	// 	"write" [label="write", style="rounded,filled", fillcolor="#d7f0dd", color="#1e7b34", penwidth=2];
	// 	"__end__" [label="END", shape=oval, style="filled", fillcolor="#d7f0dd", color="#1e7b34", penwidth=2];
	// 	"__start__" -> "write" [label="1x", color="#1e7b34", penwidth=2];
	// 	"check" -> "write" [style=dashed, label="too short (2x)", color="#1e7b34", penwidth=2];
	// 	"check" -> "__end__" [style=dashed, label="done (1x)", color="#1e7b34", penwidth=2];
	// 	"write" -> "check" [label="3x", color="#1e7b34", penwidth=2];
	// }
}
