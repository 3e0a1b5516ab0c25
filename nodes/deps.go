package nodes

import (
	"context"

	"github.com/graphrag/graphrag"
)

// The interfaces below are what the RAG graph needs from the outside world.
// Each is small; concrete stores, tools and language-model backends satisfy
// them without importing this package, and cmd/graphrag plugs them in.
// Every one except Searcher is optional: a nil value means the
// deterministic implementation in this package decides alone.

// Searcher searches the local store (embedded SQLite or PostgreSQL).
type Searcher interface {
	Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error)
}

// Planner is a language-model router: it returns a full plan for the query,
// using the conversation history to resolve references.
type Planner interface {
	Plan(ctx context.Context, query string, history []graphrag.Turn) (graphrag.Plan, error)
}

// Grader grades retrieved hits and extracts facts from the relevant ones.
type Grader interface {
	Grade(ctx context.Context, query string, hits []graphrag.Hit) (graphrag.Grading, error)
}

// Rewriter rewrites a query after poor retrieval.
type Rewriter interface {
	Rewrite(ctx context.Context, query string, hits []graphrag.Hit) (string, error)
}

// Writer writes an answer with citations. It calls emit for each token as it
// streams (emit may be nil).
type Writer interface {
	Write(ctx context.Context, req graphrag.WriteRequest, emit func(token string)) (graphrag.Answer, error)
}

// Judge decides whether an answer is grounded in its hits and answers the query.
type Judge interface {
	Judge(ctx context.Context, query string, answer graphrag.Answer, hits []graphrag.Hit) (graphrag.Judgement, error)
}

// FileTools answers the filesystem route (count, list, find, metadata, tree...)
// from the plan's keywords and filters, and selects files for hybrid-with-tools
// questions.
type FileTools interface {
	// Answer runs the tool the query asks for and returns a formatted answer
	// and the files it is about, as hits.
	Answer(ctx context.Context, plan graphrag.Plan) (text string, hits []graphrag.Hit, err error)
}

// WebSearcher searches the web; results come back as hits with Source.URL set.
type WebSearcher interface {
	SearchWeb(ctx context.Context, query string, k int) ([]graphrag.Hit, error)
}
