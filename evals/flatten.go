package evals

import (
	"maps"
	"slices"
	"strconv"
)

// Metrics flattens the report's top-level figures into dotted names, e.g.
// "routing.hard.coarse_accuracy", "retrieval.recall@10", "answers.em",
// "rejection.abstain_rate", "latency_ms.retrieve.p95". Gates and Compare
// use these names; MetricNames lists the ones r has.
func (r *Report) Metrics() map[string]float64 {
	m := map[string]float64{}
	if rt := r.Routing; rt != nil {
		m["routing.n"] = float64(rt.N)
		m["routing.accuracy"] = float64(rt.Accuracy)
		m["routing.macro_f1"] = float64(rt.MacroF1)
		m["routing.coarse_accuracy"] = float64(rt.CoarseAccuracy)
		m["routing.coarse_macro_f1"] = float64(rt.CoarseMacroF1)
		m["routing.hard.accuracy"] = float64(rt.Hard.Accuracy)
		m["routing.hard.macro_f1"] = float64(rt.Hard.MacroF1)
		m["routing.hard.coarse_accuracy"] = float64(rt.Hard.CoarseAccuracy)
		m["routing.fallbacks"] = float64(rt.Fallbacks)
		for c, s := range rt.PerClass {
			m["routing.per_class."+c+".precision"] = float64(s.Precision)
			m["routing.per_class."+c+".recall"] = float64(s.Recall)
		}
	}
	if rt := r.Retrieval; rt != nil {
		k := strconv.Itoa(rt.K)
		m["retrieval.recall@"+k] = float64(rt.Recall)
		m["retrieval.both_gold@"+k] = float64(rt.BothGold)
		m["retrieval.mrr"] = float64(rt.MRR)
		m["retrieval.ndcg@10"] = float64(rt.NDCG10)
	}
	if a := r.Answers; a != nil {
		m["answers.em"] = float64(a.EM)
		m["answers.f1"] = float64(a.F1)
		m["answers.short_em"] = float64(a.ShortEM)
		m["answers.short_f1"] = float64(a.ShortF1)
		m["answers.contains"] = float64(a.Contains)
		m["answers.span_f1"] = float64(a.SpanF1)
		for t, s := range a.ByType {
			m["answers."+t+".em"] = float64(s.EM)
			m["answers."+t+".f1"] = float64(s.F1)
			m["answers."+t+".short_em"] = float64(s.ShortEM)
			m["answers."+t+".short_f1"] = float64(s.ShortF1)
		}
	}
	if rj := r.Rejection; rj != nil {
		m["rejection.abstain_rate"] = float64(rj.AbstainRate)
		m["rejection.false_abstain_rate"] = float64(rj.FalseAbstainRate)
	}
	if r.Grounding != nil {
		m["grounding"] = float64(*r.Grounding)
	}
	for node, l := range r.LatencyMS {
		m["latency_ms."+node+".p50"] = float64(l.P50)
		m["latency_ms."+node+".p95"] = float64(l.P95)
	}
	if r.LLMCallsPerQuery != nil {
		m["llm_calls_per_query"] = float64(*r.LLMCallsPerQuery)
	}
	if r.TokensPerQuery != nil {
		m["tokens_per_query"] = float64(*r.TokensPerQuery)
	}
	if md := r.Model; md != nil {
		m["model.extracted_em"] = float64(md.ExtractedEM)
		m["model.extracted_f1"] = float64(md.ExtractedF1)
		m["model.calls_p95"] = float64(md.CallsP95)
		m["model.validate_loops"] = float64(md.ValidateLoops)
		m["model.no_validate_loop"] = float64(md.NoValidateLoop)
		m["model.files_fallbacks"] = float64(md.FilesFallbacks)
		m["model.low_confidence"] = float64(md.LowConfidence)
	}
	m["errors"] = float64(r.Errors)
	return m
}

// MetricNames lists the names Metrics has for r, sorted.
func (r *Report) MetricNames() []string {
	return slices.Sorted(maps.Keys(r.Metrics()))
}

// lowerIsBetter reports whether a smaller value of the metric is an
// improvement.
func lowerIsBetter(metric string) bool {
	switch {
	case metric == "rejection.false_abstain_rate", metric == "errors", metric == "routing.fallbacks",
		metric == "llm_calls_per_query", metric == "tokens_per_query",
		metric == "model.calls_p95", metric == "model.validate_loops", metric == "model.low_confidence":
		return true
	case len(metric) > len("latency_ms.") && metric[:len("latency_ms.")] == "latency_ms.":
		return true
	}
	return false
}
