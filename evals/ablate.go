package evals

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
)

// Variant is one configuration of an ablation: Mutate changes a copy of the
// run's options and dependencies (Deps.Searcher is already the store).
type Variant struct {
	Name   string
	Mutate func(*nodes.Options, *nodes.Deps)
	// SearchOnly, when set, scores the store alone in this mode: each
	// answerable question is one search for Options.K hits, without the
	// graph. Only retrieval is scored (RunRAG; RunRouting ignores it).
	SearchOnly graphrag.SearchMode
}

// Names of the standard variants (see StandardVariant).
const (
	VariantDefault      = "default"
	VariantBM25         = "bm25"
	VariantVector       = "vector"
	VariantHybrid       = "hybrid"
	VariantNoCorrective = "no-corrective"
	VariantNoProbe      = "no-probe"
	VariantNoPlanner    = "no-llm-router"
	VariantStoreBM25    = "store-bm25"
	VariantLLMRouter    = "llm-router"
	VariantRules        = "rules"
	VariantLearned      = "learned"
)

// StandardVariant returns a named variant:
//
//   - default: the options and dependencies as given.
//   - bm25, vector, hybrid: every search the graph makes runs in that mode
//     (bm25: keyword only). The router's keyword probe stays keyword in the
//     vector and hybrid variants. Without an embedder the store answers
//     vector and hybrid with keyword search; Report.SearchModes shows it.
//   - no-corrective: no evaluate → route retries (Budget.Retrieve = 0).
//   - no-probe: the router decides without its corpus probe (ProbeK = 0):
//     rules and the learned classifier alone.
//   - no-llm-router: the router without its language-model Planner.
//   - llm-router: the Planner (when configured) asked on every query the
//     rules leave open, not only when the classifier is unsure
//     (PlannerBelow above any confidence).
//   - store-bm25: the store's plain keyword search on the question, no
//     graph: the baseline retrieval has to beat.
//   - rules: the router's rules, then the corpus probe alone (local when
//     the files have evidence, direct otherwise), no learned classifier
//     (nodes.RouterRules): the plain regex router baseline.
//   - learned: the learned classifier joined by the probe, no rules
//     (nodes.RouterLearned).
func StandardVariant(name string) (Variant, error) {
	switch name {
	case VariantDefault:
		return Variant{Name: name}, nil
	case VariantBM25:
		return searchMode(name, graphrag.ModeKeyword), nil
	case VariantVector:
		return searchMode(name, graphrag.ModeVector), nil
	case VariantHybrid:
		return searchMode(name, graphrag.ModeHybrid), nil
	case VariantNoCorrective:
		return Variant{Name: name, Mutate: func(o *nodes.Options, _ *nodes.Deps) { o.Budget.Retrieve = 0 }}, nil
	case VariantNoProbe:
		return Variant{Name: name, Mutate: func(o *nodes.Options, _ *nodes.Deps) { o.ProbeK = 0 }}, nil
	case VariantStoreBM25:
		return Variant{Name: name, SearchOnly: graphrag.ModeKeyword}, nil
	case VariantLLMRouter:
		return Variant{Name: name, Mutate: func(o *nodes.Options, _ *nodes.Deps) { o.PlannerBelow = 2 }}, nil
	case VariantRules:
		return Variant{Name: name, Mutate: func(o *nodes.Options, _ *nodes.Deps) { o.Router = nodes.RouterRules }}, nil
	case VariantLearned:
		return Variant{Name: name, Mutate: func(o *nodes.Options, _ *nodes.Deps) { o.Router = nodes.RouterLearned }}, nil
	case VariantNoPlanner:
		return Variant{Name: name, Mutate: func(_ *nodes.Options, d *nodes.Deps) { d.Planner = nil }}, nil
	}
	return Variant{}, fmt.Errorf("unknown variant %q (known: %s)", name, strings.Join(variantNames, ", "))
}

var variantNames = []string{VariantDefault, VariantBM25, VariantVector, VariantHybrid, VariantNoCorrective, VariantNoProbe, VariantNoPlanner, VariantLLMRouter, VariantStoreBM25, VariantRules, VariantLearned}

// StandardVariants returns the named variants, in order.
func StandardVariants(names ...string) ([]Variant, error) {
	vs := make([]Variant, 0, len(names))
	for _, n := range names {
		v, err := StandardVariant(strings.TrimSpace(n))
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, nil
}

// RAGAblation is the standard --ablate set of `graphrag eval rag`: the
// default graph, each search mode, no corrective loop, and the store's
// plain BM25 search as the baseline.
func RAGAblation() []Variant {
	vs, _ := StandardVariants(VariantDefault, VariantBM25, VariantVector, VariantHybrid, VariantNoCorrective, VariantStoreBM25)
	return vs
}

// RoutingAblation is the standard --ablate set of `graphrag eval routing`:
// the full router, its rules alone (with the probe), its learned
// classifier alone (with the probe), without the corpus probe, and (when a
// Planner is configured) without the language model and with it on every
// query.
func RoutingAblation(withPlanner bool) []Variant {
	names := []string{VariantDefault, VariantRules, VariantLearned, VariantNoProbe}
	if withPlanner {
		names = append(names, VariantNoPlanner, VariantLLMRouter)
	}
	vs, _ := StandardVariants(names...)
	return vs
}

func searchMode(name string, mode graphrag.SearchMode) Variant {
	return Variant{Name: name, Mutate: func(_ *nodes.Options, d *nodes.Deps) {
		d.Searcher = modeSearcher{s: d.Searcher, mode: mode}
	}}
}

// modeSearcher runs searches in one mode. Keyword queries (the router's
// probe) stay keyword unless the mode is keyword itself.
type modeSearcher struct {
	s    nodes.Searcher
	mode graphrag.SearchMode
}

func (m modeSearcher) Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	if q.Mode != graphrag.ModeKeyword || m.mode == graphrag.ModeKeyword {
		q.Mode = m.mode
	}
	return m.s.Search(ctx, q)
}

// apply returns the options and deps of variant v.
func (v Variant) apply(o nodes.Options, d nodes.Deps) (nodes.Options, nodes.Deps) {
	if v.Mutate != nil {
		v.Mutate(&o, &d)
	}
	return o, d
}
