package nodes

import (
	"fmt"

	"github.com/graphrag/graphrag/graph"
)

// Node names.
const (
	NodeRoute    = "route"
	NodeRetrieve = "retrieve"
	NodeEvaluate = "evaluate"
	NodeGenerate = "generate"
	NodeValidate = "validate"
)

// Build wires the five nodes into a runnable graph. deps.Searcher is needed
// for the local routes; opts usually starts from DefaultOptions. compile
// adds engine options, e.g. graph.WithCheckpointer so that runs with a
// thread are durable and can pause (Options.ConfirmWeb); the state's
// schema version (StateVersion) is set already.
//
// The retrieve node is a subgraph (see RetrieveSelect): the keyword and
// vector legs of a hybrid search, the web search and the file tools are
// its branches, run concurrently and joined by a reducer.
func Build(deps Deps, opts Options, compile ...graph.CompileOption) (*graph.Runnable[State], error) {
	p, err := newPipeline(deps, opts)
	if err != nil {
		return nil, fmt.Errorf("build RAG graph: %w", err)
	}
	g := graph.NewStateGraph[State]()
	// Every node honours cancellation; the entry checks the question's size.
	g.AddNode(NodeRoute, cancellable(checked(p.route)))
	graph.AddSubgraph(g, NodeRetrieve, p.retriever, retrievalOf, withRetrieval)
	g.AddNode(NodeEvaluate, cancellable(p.evaluate))
	g.AddNode(NodeGenerate, cancellable(p.generate))
	g.AddNode(NodeValidate, cancellable(p.validate))
	g.SetEntryPoint(NodeRoute)
	g.AddEdge(NodeRoute, NodeRetrieve)
	g.AddEdge(NodeRetrieve, NodeEvaluate)
	g.AddConditionalEdges(NodeEvaluate, router(afterEvaluate), NodeRoute, NodeGenerate)
	g.AddEdge(NodeGenerate, NodeValidate)
	g.AddConditionalEdges(NodeValidate, router(afterValidate), graph.END, NodeGenerate, NodeRoute)
	b := opts.Budget
	g.SetEdgeLabel(NodeEvaluate, NodeRoute, fmt.Sprintf("poor: refine query · ≤%d retries", b.Retrieve))
	g.SetEdgeLabel(NodeEvaluate, NodeGenerate, "good · empty: abstain")
	g.SetEdgeLabel(NodeValidate, NodeGenerate, fmt.Sprintf("unsupported · ≤%d retries", b.Generate))
	g.SetEdgeLabel(NodeValidate, NodeRoute, fmt.Sprintf("off question · ≤%d retries", b.Route))
	g.SetEdgeLabel(NodeValidate, graph.END, "ok · budget spent: best answer")
	steps := opts.MaxSteps
	if steps <= 0 {
		steps = DefaultOptions().MaxSteps
	}
	return g.Compile(append([]graph.CompileOption{graph.WithMaxSteps(steps), graph.WithStateVersion(StateVersion, nil)}, compile...)...)
}
