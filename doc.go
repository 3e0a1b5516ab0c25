// Package graphrag holds the domain types shared by every part of graphrag:
// documents and chunks as they are ingested, hits as retrieval returns them,
// the plan a router makes for a query, and the answer a run produces.
//
// It imports only the standard library. The workflow engine lives in
// package graph, the RAG graph in package nodes, and each store, tool and
// language-model backend in a package of its own that depends on this one.
package graphrag
