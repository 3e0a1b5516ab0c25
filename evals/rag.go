package evals

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/graphrag/graphrag"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// RAGConfig configures RunRAG.
type RAGConfig struct {
	// Questions are the answerable question files; Negatives the
	// unanswerable ones (optional).
	Questions []string
	Negatives []string
	// MaxQuestions and MaxNegatives, when > 0, score an evenly spaced
	// subset of that size (the same subset every time).
	MaxQuestions, MaxNegatives int

	// The store: Searcher when given (an existing store, `--store`);
	// otherwise a fresh store from Open with the Corpus files ingested
	// (Ingest, default IngestCorpus). Ingest runs once for all variants.
	Searcher nodes.Searcher
	Open     OpenStore
	Corpus   []string
	Ingest   IngestFunc

	// K is the cutoff of recall@k and both-gold@k (default 10). It does not
	// change how many hits the graph asks for (Options.K).
	K int
	// Deps and Options configure the graph (zero Options means
	// nodes.DefaultOptions()); Deps.Searcher is replaced by the store.
	Deps    nodes.Deps
	Options *nodes.Options
	// Variants to compare side by side; none means one run as configured.
	Variants []Variant

	// Concurrency bounds questions in flight (default GOMAXPROCS).
	Concurrency int
	Progress    ProgressFunc
	// OnRun, when set, sees every question's run as it ends (from several
	// goroutines at once): variant, question, and the run.
	OnRun func(variant, query string, r Run)
}

// spanWords bounds the oracle span of AnswerScores.SpanF1.
const spanWords = 8

// RunRAG runs every question through the whole graph (nodes.Build) and
// scores retrieval (recall@k, both-gold@k, MRR, nDCG@10 on the document
// ids of State.Hits), answers (SQuAD EM and F1 per type, plus contains and
// an oracle span F1, since extractive answers are long), rejection
// (abstention on negatives next to false abstention on answerable
// questions), grounding, per-node latency, language-model use and the
// loops taken. A question whose run fails counts as a miss and is listed in
// Failures; setup errors and cancellation return an error.
func RunRAG(ctx context.Context, cfg RAGConfig) (*Report, error) {
	qs, skipped, err := LoadQuestions(cfg.Questions...)
	if err != nil {
		return nil, fmt.Errorf("eval rag: %w", err)
	}
	negs, bad, err := LoadNegatives(cfg.Negatives...)
	skipped = append(skipped, bad...)
	if err != nil {
		return nil, fmt.Errorf("eval rag: %w", err)
	}
	qs, negs = Sample(qs, cfg.MaxQuestions), Sample(negs, cfg.MaxNegatives)
	if len(qs)+len(negs) == 0 {
		return nil, fmt.Errorf("eval rag: no questions to run: give a questions file (qid, question, answers, gold_passages per line)")
	}
	if cfg.Searcher == nil && len(cfg.Corpus) == 0 {
		return nil, fmt.Errorf("eval rag: no store: give a corpus to ingest or an existing store")
	}
	searcher, closeStore, ingestSkipped, err := prepareStore(ctx, cfg.Searcher, cfg.Open, cfg.Corpus, cfg.Ingest, cfg.Progress)
	if err != nil {
		return nil, fmt.Errorf("eval rag: %w", err)
	}
	defer closeStore()
	skipped = append(skipped, ingestSkipped...)

	k := cfg.K
	if k <= 0 {
		k = 10
	}
	opts := nodes.DefaultOptions()
	if cfg.Options != nil {
		opts = *cfg.Options
	}
	deps := cfg.Deps
	deps.Searcher = searcher
	variants := cfg.Variants
	if len(variants) == 0 {
		variants = []Variant{{}}
	}
	queries := make([]string, 0, len(qs)+len(negs))
	for _, q := range qs {
		queries = append(queries, q.Question)
	}
	for _, n := range negs {
		queries = append(queries, n.Question)
	}
	var reports []Report
	for _, v := range variants {
		o, d := v.apply(opts, deps)
		if v.SearchOnly != "" {
			rep, err := searchOnly(ctx, cfg, v, d.Searcher, o.K, qs, k)
			if err != nil {
				return nil, err
			}
			reports = append(reports, *rep)
			continue
		}
		g, err := nodes.Build(d, o)
		if err != nil {
			return nil, fmt.Errorf("eval rag: variant %s: build graph: %w", title(v.Name), err)
		}
		runs := make([]Run, len(queries))
		err = forEach(ctx, len(queries), cfg.Concurrency, title(v.Name), cfg.Progress, func(ctx context.Context, i int) error {
			runs[i] = RunOne(ctx, g, queries[i])
			if cfg.OnRun != nil {
				cfg.OnRun(v.Name, queries[i], runs[i])
			}
			if runs[i].Err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("eval rag: %w", err)
		}
		rep := ScoreRAG(qs, negs, runs, k)
		rep.Variant = v.Name
		reports = append(reports, *rep)
	}
	out := combine(reports)
	out.Skipped = skipped
	return out, nil
}

// searchOnly scores the store's own search for the answerable questions.
func searchOnly(ctx context.Context, cfg RAGConfig, v Variant, s nodes.Searcher, hits int, qs []Question, k int) (*Report, error) {
	if hits <= 0 {
		hits = k
	}
	runs := make([]Run, len(qs))
	err := forEach(ctx, len(qs), cfg.Concurrency, title(v.Name), cfg.Progress, func(ctx context.Context, i int) error {
		start := time.Now()
		res, err := s.Search(ctx, graphrag.Query{Text: qs[i].Question, Mode: v.SearchOnly, K: hits})
		took := ms(time.Since(start).Microseconds())
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		runs[i] = Run{State: nodes.State{Hits: res.Hits, SearchMode: res.Mode, SearchNote: res.Note}, Err: err,
			NodeMS: map[string][]float64{"search": {took}}, TotalMS: took}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("eval rag: %w", err)
	}
	rep := ScoreRAG(qs, nil, runs, k)
	rep.Variant = v.Name
	rep.Answers, rep.Rejection, rep.Grounding, rep.Loops, rep.Routes = nil, nil, nil, nil, nil
	for i := range rep.Misses {
		rep.Misses[i].Abstained = false
	}
	rep.LLMCallsPerQuery, rep.TokensPerQuery = nil, nil
	rep.Notes = append([]string{fmt.Sprintf("store search only (%s, %d hits per question), no graph: retrieval figures only", v.SearchOnly, hits)}, rep.Notes...)
	return rep, nil
}

// Run is what one question's run through the graph produced.
type Run struct {
	State nodes.State
	Err   error
	// NodeMS holds every node execution's duration in milliseconds, by
	// node; a subgraph's nodes as "retrieve/keyword".
	NodeMS  map[string][]float64
	TotalMS float64
	// BackEdges are the decisions that went back to a node already visited
	// ("evaluate->route"). FilesFallbacks counts those of them that
	// searched the files because the model had no answer to a question it
	// was to answer alone (nodes.ReasonSearchTheFiles): a fallback, not a
	// rejected answer.
	BackEdges      []string
	FilesFallbacks int
}

// RunOne runs query through g, observing its events.
func RunOne(ctx context.Context, g *graph.Runnable[nodes.State], query string) Run {
	r := Run{NodeMS: map[string][]float64{}}
	visited := map[string]bool{}
	obs := func(e graph.Event) {
		node := e.Node
		if e.Subgraph != "" {
			node = e.Subgraph + "/" + e.Node
		}
		switch e.Kind {
		case graph.EventNodeStart:
			visited[node] = true
		case graph.EventNodeEnd:
			r.NodeMS[node] = append(r.NodeMS[node], ms(e.Duration.Microseconds()))
		case graph.EventDecision:
			if visited[e.To] {
				r.BackEdges = append(r.BackEdges, e.Node+"->"+e.To)
				if strings.HasPrefix(e.Reason, nodes.ReasonSearchTheFiles) {
					r.FilesFallbacks++
				}
			}
		case graph.EventRunEnd:
			r.TotalMS = ms(e.Duration.Microseconds())
		}
	}
	r.State, r.Err = g.Invoke(ctx, nodes.State{Query: query}, graph.WithObserver(obs))
	return r
}

func ms(us int64) float64 { return float64(us) / 1000 }

// Sample returns n evenly spaced items of xs (all of them when n <= 0 or
// n >= len(xs)), in their order.
func Sample[T any](xs []T, n int) []T {
	if n <= 0 || n >= len(xs) {
		return xs
	}
	out := make([]T, n)
	for i := range n {
		out[i] = xs[i*len(xs)/n]
	}
	return out
}

// ScoreRAG scores runs: the first len(qs) are the answerable questions in
// order, the rest the negatives.
func ScoreRAG(qs []Question, negs []Negative, runs []Run, k int) *Report {
	rep := &Report{}
	type acc struct {
		n                                int
		recall, both, mrr, ndcg          float64
		em, f1, contains, span, abstains float64
		shortEM, shortF1                 float64
		shorts                           int
	}
	all := &acc{}
	byType := map[string]*acc{}
	var grounding []float64
	nodeMS := map[string][]float64{}
	var total []float64
	loops := &Loops{Edges: map[string]int{}, PerQuery: map[string]int{}, Stops: map[string]int{}}
	modes := map[string]int{}
	searchNotes := map[string]int{}
	routes := map[string]int{}
	var calls, tokens float64
	var perRun []float64
	var extractedEM, extractedF1, lowConf, answered float64
	validateLoops, noValidateLoop, filesFallbacks := 0, 0, 0
	by := map[string]int{}

	for i, run := range runs {
		if run.Err != nil {
			rep.Errors++
			if len(rep.Failures) < 10 {
				rep.Failures = append(rep.Failures, fmt.Sprintf("%q: %v", queryOf(qs, negs, i), run.Err))
			}
		}
		for n, d := range run.NodeMS {
			nodeMS[n] = append(nodeMS[n], d...)
		}
		if run.Err == nil {
			total = append(total, run.TotalMS)
		}
		for _, e := range run.BackEdges {
			loops.Edges[e]++
		}
		loops.PerQuery[strconv.Itoa(len(run.BackEdges))]++
		stop := run.State.Stop
		if run.Err != nil {
			stop = "error"
		} else if stop == "" {
			stop = "done"
		}
		loops.Stops[stop]++
		if m := run.State.SearchMode; m != "" {
			modes[string(m)]++
		}
		if n := run.State.SearchNote; n != "" {
			searchNotes[n]++
		}
		runCalls := 0
		for _, u := range run.State.Usage {
			runCalls += u.Calls
			tokens += float64(u.PromptTokens + u.CompletionTokens)
		}
		calls += float64(runCalls)
		perRun = append(perRun, float64(runCalls))
		vl := 0
		for _, e := range run.BackEdges {
			if strings.HasPrefix(e, nodes.NodeValidate+"->") {
				vl++
			}
		}
		validateLoops += vl
		filesFallbacks += run.FilesFallbacks
		if vl-run.FilesFallbacks == 0 {
			noValidateLoop++
		}
		if run.Err == nil {
			by[cmp.Or(run.State.Answer.By, "unknown")]++
		}
		if i >= len(qs) {
			continue
		}
		q := qs[i]
		st := run.State
		if run.Err == nil {
			routes[string(st.Plan.Route)]++
		}
		ranked := RankedDocs(st.Hits)
		text := st.Answer.Text
		abstained := st.Answer.Abstained || run.Err != nil
		if abstained {
			text = ""
		} else {
			grounding = append(grounding, st.Answer.Grounding)
		}
		if missing := missingGold(ranked, q.GoldPassages, k); (len(missing) > 0 || abstained) && len(rep.Misses) < maxMisses {
			first := 0
			if rr := ReciprocalRank(ranked, q.GoldPassages); rr > 0 {
				first = int(1/rr + 0.5)
			}
			rep.Misses = append(rep.Misses, Miss{QID: q.QID, Question: q.Question, Type: q.Type, Route: string(st.Plan.Route),
				Missing: missing, FirstGold: first, Abstained: abstained})
		}
		short := st.Short
		if abstained {
			short = ""
		}
		_, span := BestSpan(text, q.Answers, spanWords)
		if !abstained {
			answered++
			if st.Answer.LowConfidence {
				lowConf++
			}
			x := ExtractShort(text)
			extractedEM += ExactMatch(x, q.Answers)
			extractedF1 += TokenF1(x, q.Answers)
		}
		for _, a := range []*acc{all, typeAcc(byType, q.Type)} {
			a.n++
			a.recall += RecallAt(ranked, q.GoldPassages, k)
			if AllGoldAt(ranked, q.GoldPassages, k) {
				a.both++
			}
			a.mrr += ReciprocalRank(ranked, q.GoldPassages)
			a.ndcg += NDCGAt(ranked, q.GoldPassages, 10)
			a.em += ExactMatch(text, q.Answers)
			a.f1 += TokenF1(text, q.Answers)
			if short != "" {
				a.shorts++
				a.shortEM += ExactMatch(short, q.Answers)
				a.shortF1 += TokenF1(short, q.Answers)
			}
			a.contains += ContainsAnswer(text, q.Answers)
			a.span += span
			if abstained {
				a.abstains++
			}
		}
	}
	avg := func(x float64, n int) Score { return Score(ratio1(x, n)) }
	if len(qs) > 0 {
		rs := func(a *acc) *RetrievalScores {
			return &RetrievalScores{K: k, N: a.n, Recall: avg(a.recall, a.n), BothGold: avg(a.both, a.n), MRR: avg(a.mrr, a.n), NDCG10: avg(a.ndcg, a.n)}
		}
		as := func(a *acc) AnswerScores {
			return AnswerScores{N: a.n, EM: avg(a.em, a.n), F1: avg(a.f1, a.n), ShortEM: avg(a.shortEM, a.n), ShortF1: avg(a.shortF1, a.n), Shorts: a.shorts,
				Contains: avg(a.contains, a.n), SpanF1: avg(a.span, a.n)}
		}
		rep.Retrieval = rs(all)
		rep.Retrieval.ByType = map[string]*RetrievalScores{}
		ans := as(all)
		ans.ByType = map[string]AnswerScores{}
		for t, a := range byType {
			rep.Retrieval.ByType[t] = rs(a)
			ans.ByType[t] = as(a)
		}
		rep.Answers = &ans
		rep.Grounding = ptr(Score(Mean(grounding)))
	}
	rej := &RejectionScores{Negatives: len(negs), Answerable: len(qs), FalseAbstainRate: avg(all.abstains, all.n)}
	abst := 0
	for i := range negs {
		run := runs[len(qs)+i]
		if run.Err == nil && run.State.Answer.Abstained {
			abst++
		}
	}
	rej.AbstainRate = Score(ratio(abst, len(negs)))
	rep.Rejection = rej
	rep.LatencyMS = map[string]Latency{"total": LatencyOf(total)}
	for _, n := range slices.Sorted(maps.Keys(nodeMS)) {
		rep.LatencyMS[n] = LatencyOf(nodeMS[n])
	}
	rep.LLMCallsPerQuery = ptr(avg(calls, len(runs)))
	rep.TokensPerQuery = ptr(avg(tokens, len(runs)))
	rep.Loops = loops
	if calls > 0 {
		rep.Model = &ModelScores{ExtractedEM: avg(extractedEM, len(qs)), ExtractedF1: avg(extractedF1, len(qs)),
			CallsMean: avg(calls, len(runs)), CallsP95: Score(Percentile(perRun, 95)), CallsMax: int(slices.Max(perRun)),
			ValidateLoops: Score(ratio(validateLoops, len(runs))), NoValidateLoop: Score(ratio(noValidateLoop, len(runs))),
			FilesFallbacks: Score(ratio(filesFallbacks, len(runs))),
			LowConfidence:  avg(lowConf, int(answered)), By: by}
	}
	rep.SearchModes = modes
	if len(routes) > 0 {
		rep.Routes = routes
	}
	for _, n := range slices.Sorted(maps.Keys(searchNotes)) {
		rep.Notes = append(rep.Notes, fmt.Sprintf("store said %q on %d of %d runs", n, searchNotes[n], len(runs)))
	}
	return rep
}

// maxMisses caps Report.Misses.
const maxMisses = 50

// missingGold lists the gold ids not among the first k of ranked.
func missingGold(ranked, gold []string, k int) []string {
	top := set(ranked[:min(k, len(ranked))])
	var out []string
	for _, g := range gold {
		if !top[g] {
			out = append(out, g)
		}
	}
	return out
}

func typeAcc[T any](m map[string]*T, key string) *T {
	a, ok := m[key]
	if !ok {
		a = new(T)
		m[key] = a
	}
	return a
}

func queryOf(qs []Question, negs []Negative, i int) string {
	if i < len(qs) {
		return qs[i].Question
	}
	return negs[i-len(qs)].Question
}

func ratio1(x float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return x / float64(n)
}
