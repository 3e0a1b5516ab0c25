// Package graph is a small, typed state-graph workflow engine: the engine
// graphrag's RAG pipeline runs on, and nothing RAG-specific. It imports only
// the standard library.
//
// A graph is built over a state type S (a plain struct). Each node is a
// function from state to state; edges say what runs next. Its vocabulary
// follows LangGraph and langgraphgo:
//
//	g := graph.NewStateGraph[State]()
//	g.AddNode("retrieve", retrieve)
//	g.AddNode("grade", grade)
//	g.AddEdge(graph.START, "retrieve") // or g.SetEntryPoint("retrieve")
//	g.AddEdge("retrieve", "grade")
//	g.AddConditionalEdges("grade", route, "retrieve", graph.END)
//	g.SetEdgeLabel("grade", "retrieve", "poor hits")
//	r, err := g.Compile()
//	final, err := r.Invoke(ctx, State{Query: q})
//
// # Building and compiling
//
// Builder methods never return errors: the first mistake is kept and
// Compile returns it. Compile then checks the whole graph and reports every
// structural problem, each wrapping a sentinel (ErrNoEntryPoint,
// ErrUnknownNode, ErrDuplicateNode, ErrReservedName, ErrEdgeConflict,
// ErrUndeclaredTarget, ErrUnreachable, ErrDeadEnd, ...) and naming the node.
// Each node has exactly one way out: one static edge, or one router with
// declared targets. Every node must be reachable from the entry point and
// must be able to reach END.
//
// The compiled *Runnable is immutable and safe for concurrent runs.
//
// # Running
//
// Invoke runs from the entry point until a node routes to END. Between
// steps it checks ctx; past the step limit (WithMaxSteps, default 25, or
// WithRunMaxSteps per run) it stops with ErrMaxSteps. A node's error or
// panic, a router's error, or a router answer outside its declared targets
// ends the run with a *NodeError naming the node and the step. In every
// failure the last good state is returned with the error.
//
// # Events
//
// A run can be observed: RunStart, then NodeStart/NodeEnd (with duration)
// for each step, Decision for each conditional edge taken (target and the
// router's reason), Custom events that nodes send with Emit (for example
// streamed tokens), Error if the run failed, and RunEnd with the final
// state. WithObserver takes a callback, called synchronously in order;
// Stream returns an iter.Seq2 that runs the graph inside the loop, so a
// slow consumer only slows the run and breaking out of the loop cancels it.
// Without an observer a run allocates nothing per step and Emit is a
// single ctx lookup.
//
// # Diagrams
//
// Mermaid and DOT render a compiled graph deterministically: static edges
// solid, conditional edges dashed with their labels, START and END drawn.
// A Trace, used as an observer, records visited nodes and edges; WithTrace
// overlays it on the diagram with counts.
package graph
