package nodes

import (
	"context"

	"github.com/graphrag/graphrag"
)

// Prober is what Deps.Searcher may also do: answer the route node's probe
// more cheaply than Search. The probe asks how much the files hold about a
// question (see measureEvidence) before the route is decided, for nearly
// every question, so it needs the best few chunks by keyword score, not
// the second pass a search runs to rank answers (re-scoring, following
// links). Stores without it are probed with Search in keyword mode.
type Prober interface {
	Probe(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error)
}

// probe runs the route node's keyword probe for query with the plan's
// filters.
func (p *pipeline) probe(ctx context.Context, query string, plan graphrag.Plan) (graphrag.SearchResult, error) {
	q := graphrag.Query{Text: query, Mode: graphrag.ModeKeyword, K: p.opts.ProbeK, Filters: p.filters(plan)}
	if pr, ok := p.deps.Searcher.(Prober); ok {
		return pr.Probe(ctx, q)
	}
	return p.deps.Searcher.Search(ctx, q)
}

// probeCannotChange reports whether no evidence could change the route
// (see combine), so the probe is skipped:
//   - a web question the classifier is at least webSure of;
//   - a confident direct one the direct route answers without a model
//     (arithmetic, the clock, small talk);
//   - a request to act, not asked as a question: graphrag answers that it
//     cannot act whatever the files hold;
//   - a question about files as objects, which the file tools answer;
//   - a local question that stays local (stay: it names the user's things
//     or an identifier), unless nothing but the files can be asked, when the
//     probe's evidence tells the user that a model or the web would help.
//
// The plan's confidence is then the classifier's alone.
func (p *pipeline) probeCannotChange(query string, pred prediction, stay, filesAsObjects bool) bool {
	conf := pred.Probs[pred.Best]
	switch pred.Best {
	case graphrag.RouteWeb:
		return conf >= webSure
	case graphrag.RouteDirect:
		if pred.Class == classAction {
			// Overruled only by strong evidence when asked as a question, or
			// by fair evidence when the classifier is unsure.
			return conf >= classifierUnsure && !asksSomething(query)
		}
		return pred.Class == classDirect && conf >= directSure && p.answersDirectly(query)
	case graphrag.RouteFilesystem:
		return filesAsObjects
	case graphrag.RouteVector, graphrag.RouteHybrid:
		return stay && (p.deps.Writer != nil || p.deps.Web != nil)
	}
	return false
}
