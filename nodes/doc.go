// Package nodes is graphrag's RAG graph: the State that flows through it, the
// five nodes (route, retrieve, evaluate, generate, validate), the routers on
// its conditional edges, and the retry budgets that bound every loop.
//
// Every node has a deterministic implementation that needs no language
// model: a rules-plus-learned router with a corpus-aware retrieval probe,
// corrective retrieval with pseudo-relevance feedback, an extractive answer
// with citations, and a token-overlap self-check. When a Planner, Grader,
// Rewriter, Writer or Judge is configured in Deps, the node asks it first and
// falls back to the deterministic implementation when it fails; every
// fallback is recorded in State.Notes.
//
// Build wires the nodes into a graph.Runnable[State]:
//
//	route → retrieve → evaluate ─good/empty→ generate → validate ─ok→ END
//	  ↑                   │poor (≤ Budget.Retrieve)     ↑   │unsupported (≤ Budget.Generate)
//	  └───────────────────┘                            └───┘
//	  ↑                                                     │off question (≤ Budget.Route)
//	  └─────────────────────────────────────────────────────┘
package nodes
