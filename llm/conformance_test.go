package llm_test

import (
	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/nodes"
)

// The types of this package satisfy the RAG graph's interfaces.
var (
	_ nodes.Planner     = (*llm.Planner)(nil)
	_ nodes.Grader      = (*llm.Grader)(nil)
	_ nodes.Rewriter    = (*llm.Rewriter)(nil)
	_ nodes.Writer      = (*llm.Writer)(nil)
	_ nodes.Judge       = (*llm.Judge)(nil)
	_ graphrag.Embedder = (*llm.Embedder)(nil)
)
