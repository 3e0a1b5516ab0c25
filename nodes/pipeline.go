package nodes

import (
	"time"

	"github.com/graphrag/graphrag/graph"
)

// Deps are the outside world the RAG graph uses. Searcher is required;
// every other field is optional, and a nil one means the deterministic
// implementation decides alone.
type Deps struct {
	Searcher Searcher
	Planner  Planner
	Grader   Grader
	Rewriter Rewriter
	Writer   Writer
	Judge    Judge
	Tools    FileTools
	Web      WebSearcher
	// Now is the clock for time filters; nil means Options.Now.
	Now func() time.Time
}

// pipeline holds what the nodes share: dependencies, options and the
// trained router.
type pipeline struct {
	deps Deps
	opts Options
	clf  *classifier
	// retriever is the retrieve node's subgraph.
	retriever *graph.Runnable[retrieval]
}

func (p *pipeline) now() time.Time {
	if p.deps.Now != nil {
		return p.deps.Now()
	}
	if p.opts.Now != nil {
		return p.opts.Now()
	}
	return time.Now()
}

func newPipeline(deps Deps, opts Options) (*pipeline, error) {
	clf, err := learnedRouter()
	if opts.RouterModel != nil {
		clf, err = opts.RouterModel.c, nil
	}
	if err != nil {
		return nil, err
	}
	def := DefaultOptions()
	if opts.K <= 0 {
		opts.K = def.K
	}
	if opts.MaxKept <= 0 {
		opts.MaxKept = def.MaxKept
	}
	if opts.MaxSentences <= 0 {
		opts.MaxSentences = def.MaxSentences
	}
	p := &pipeline{deps: deps, opts: opts, clf: clf}
	if p.retriever, err = p.retrieveGraph(); err != nil {
		return nil, err
	}
	return p, nil
}
