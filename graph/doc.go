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
// # Durable runs
//
// Compiled WithCheckpointer, a run given a thread (WithThread) saves a
// Checkpoint after every step: the state as JSON with a schema version
// (WithStateVersion migrates older ones), the node that completed and the
// node to run next. A run of a thread whose latest checkpoint is unfinished
// (the process crashed or was killed, a node failed, the run paused)
// resumes at the step after the last completed one; a thread whose run
// finished starts a new run, appending to its history. State reads a
// thread's latest state, List its history; WithCheckpoint resumes from an
// earlier checkpoint and UpdateState writes an edited one (time travel).
// WithRetention prunes each thread at the end of its runs. MemorySaver
// keeps checkpoints in memory; graph/checkpoint/sqlite and
// graph/checkpoint/postgres store them in a database.
//
// # Interrupts
//
// WithInterruptBefore and WithInterruptAfter pause a durable run at named
// nodes; a node pauses it itself with Interrupt(ctx, payload). The run
// returns an *Interrupted (matching ErrInterrupted) with the payload and a
// resume token; Resume(token, value) continues it, and the node's Interrupt
// call then returns value.
//
// # Parallel branches
//
// AddParallelEdges fans out to several nodes, AddSendEdges to a list of
// (node, state) pairs chosen at run time. Branches run concurrently
// (WithParallelism bounds them) and join at the one node they all lead to;
// their states merge field by field, in declaration (or Send) order.
// AddReducer folds a field several branches write; two branches writing a
// field without one fail the run with ErrMergeConflict naming both.
//
// # Subgraphs and node policies
//
// AddSubgraph runs a compiled graph as a node; its events reach the
// parent's observers with Event.Subgraph set. AddNode takes WithTimeout
// and WithRetry (for errors marked Retryable). A run stopped at its step
// limit returns a *MaxStepsError naming the loop that ran away.
//
// # Diagrams
//
// Mermaid and DOT render a compiled graph deterministically: static edges
// solid, conditional edges dashed with their labels, fan-out branches
// thick, subgraphs drawn inside their node, START and END drawn.
// A Trace, used as an observer, records visited nodes and edges; WithTrace
// overlays it on the diagram with counts.
//
// # Observability
//
// graph/otelgraph turns a run's events into OpenTelemetry spans; this
// package itself stays free of dependencies.
package graph
