package evals

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// Router decides the plan for one query. Notes are what the router said
// about fallbacks (a note that mentions "fail" or "fallback" counts as a
// fallback in the report).
type Router interface {
	Route(ctx context.Context, query string) (plan graphrag.Plan, notes []string, err error)
}

// NewRouterFunc builds the router a variant is scored with.
type NewRouterFunc func(deps nodes.Deps, opts nodes.Options) (Router, error)

// GraphRouter is the default NewRouterFunc: it builds the whole RAG graph
// with nodes.Build and runs only its first step, the "route" node, so the
// router is scored exactly as `graphrag run` uses it.
func GraphRouter(deps nodes.Deps, opts nodes.Options) (Router, error) {
	g, err := nodes.Build(deps, opts)
	if err != nil {
		return nil, fmt.Errorf("eval routing: build graph: %w", err)
	}
	return graphRouter{g}, nil
}

type graphRouter struct{ g *graph.Runnable[nodes.State] }

func (r graphRouter) Route(ctx context.Context, query string) (graphrag.Plan, []string, error) {
	s, err := r.g.Invoke(ctx, nodes.State{Query: query}, graph.WithRunMaxSteps(1))
	if err != nil && !errors.Is(err, graph.ErrMaxSteps) {
		return graphrag.Plan{}, s.Notes, err
	}
	if ctx.Err() != nil {
		return graphrag.Plan{}, s.Notes, ctx.Err()
	}
	if s.Plan.Route == "" {
		return graphrag.Plan{}, s.Notes, errors.New("the graph's first step set no route: is \"route\" still its entry node?")
	}
	return s.Plan, s.Notes, nil
}

// RoutingConfig configures RunRouting.
type RoutingConfig struct {
	// Rows are scored first, then the rows of Datasets (routing files) and
	// Questions (RAG question files, whose rows count as Local).
	Rows      []RoutingRow
	Datasets  []string
	Questions []string

	// The store the router probes. Searcher, when set, is used as it is
	// (an existing store, `--store`). Otherwise Open makes a fresh store and
	// the Corpus files are ingested into it (Ingest, default IngestCorpus).
	// With neither, the router runs without a corpus probe.
	Searcher nodes.Searcher
	Open     OpenStore
	Corpus   []string
	Ingest   IngestFunc

	// Deps and Options are the graph's configuration (zero Options means
	// nodes.DefaultOptions()); Deps.Searcher is replaced by the store.
	Deps    nodes.Deps
	Options *nodes.Options
	// NewRouter builds the router (default GraphRouter).
	NewRouter NewRouterFunc
	// Variants to compare; none means one run as configured.
	Variants []Variant

	// Concurrency bounds queries in flight (default GOMAXPROCS).
	Concurrency int
	Progress    ProgressFunc
	// MaxMistakes caps Mistakes listed per report (default 50; <0: none).
	MaxMistakes int
	// CV, when "source", adds a leave-one-source-out run to the report:
	// for each source of the router's training data (nodes.TrainingSources)
	// a router is trained without it and scored on its rows.
	CV string
}

// CVSource is the RoutingConfig.CV value for leave-one-source-out.
const CVSource = "source"

// RunRouting scores the router on every row: each variant decides every
// query, and the report gives accuracy, macro-F1, per-class scores and the
// confusion matrix on all and on hard rows, the coarse (local / web /
// filesystem / direct) scores, which decider decided, fallbacks and
// decision latency. Errors on single rows count as misses and are listed;
// setup errors and cancellation return an error.
func RunRouting(ctx context.Context, cfg RoutingConfig) (*Report, error) {
	rows := append([]RoutingRow(nil), cfg.Rows...)
	var skipped []RowError
	r, bad, err := LoadRouting(cfg.Datasets...)
	skipped = append(skipped, bad...)
	if err != nil {
		return nil, fmt.Errorf("eval routing: %w", err)
	}
	rows = append(rows, r...)
	qs, bad, err := LoadQuestions(cfg.Questions...)
	skipped = append(skipped, bad...)
	if err != nil {
		return nil, fmt.Errorf("eval routing: %w", err)
	}
	rows = append(rows, QuestionsAsRouting(qs)...)
	if len(rows) == 0 {
		return nil, fmt.Errorf("eval routing: no rows to score: give a routing dataset (query, route per line)")
	}

	searcher, closeStore, ingestSkipped, err := prepareStore(ctx, cfg.Searcher, cfg.Open, cfg.Corpus, cfg.Ingest, cfg.Progress)
	if err != nil {
		return nil, fmt.Errorf("eval routing: %w", err)
	}
	defer closeStore()
	skipped = append(skipped, ingestSkipped...)

	opts := nodes.DefaultOptions()
	if cfg.Options != nil {
		opts = *cfg.Options
	}
	deps := cfg.Deps
	deps.Searcher = searcher
	if deps.Web == nil {
		// The rows' labels assume web search is configured; the router
		// never routes to a disabled one, so it is scored with a web
		// searcher that only the route step sees.
		deps.Web = routeOnlyWeb{}
	}
	if deps.Tools == nil {
		// Likewise the filesystem tools: with them off, the router sends
		// a question that asks no count, size or date of the files to a
		// search of what they say.
		deps.Tools = routeOnlyTools{}
	}
	newRouter := cfg.NewRouter
	if newRouter == nil {
		newRouter = GraphRouter
	}
	variants := cfg.Variants
	if len(variants) == 0 {
		variants = []Variant{{}}
	}
	var reports []Report
	for _, v := range variants {
		o, d := v.apply(opts, deps)
		if d.Searcher == nil {
			o.ProbeK = 0
		}
		router, err := newRouter(d, o)
		if err != nil {
			return nil, fmt.Errorf("eval routing: variant %s: %w", title(v.Name), err)
		}
		outs := make([]routed, len(rows))
		err = forEach(ctx, len(rows), cfg.Concurrency, title(v.Name), cfg.Progress, func(ctx context.Context, i int) error {
			start := time.Now()
			plan, notes, err := router.Route(ctx, rows[i].Query)
			outs[i] = routed{plan: plan, notes: notes, err: err, ms: float64(time.Since(start).Microseconds()) / 1000}
			if err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("eval routing: %w", err)
		}
		rep := scoreRouting(rows, outs, cfg.MaxMistakes)
		rep.Variant = v.Name
		if searcher == nil {
			rep.Notes = append(rep.Notes, "no store: the router ran without its corpus probe (give --corpus or --store to score it as it runs)")
		}
		reports = append(reports, *rep)
	}
	out := combine(reports)
	out.Skipped = skipped
	switch cfg.CV {
	case "":
	case CVSource:
		o, d := variants[0].apply(opts, deps)
		if d.Searcher == nil {
			o.ProbeK = 0
		}
		cv, err := crossValidate(ctx, o, d, newRouter, rows, cfg.Concurrency, cfg.Progress)
		if err != nil {
			return nil, fmt.Errorf("eval routing: --cv source: %w", err)
		}
		out.Routing.CV = cv
	default:
		return nil, fmt.Errorf("eval routing: unknown cross-validation %q (want %q)", cfg.CV, CVSource)
	}
	return out, nil
}

// crossValidate trains a router without each training source in turn and
// scores every row of that source three ways (see CVFold): the whole
// router against the route of each row's class and against the route the
// policy prescribes in this configuration, and the classifier alone.
//
// It also scores the evaluation rows (devRows) source by source, each
// with the router that never saw its source (see RoutingCV.Dev).
func crossValidate(ctx context.Context, opts nodes.Options, deps nodes.Deps, newRouter NewRouterFunc, devRows []RoutingRow, concurrency int, progress ProgressFunc) (*RoutingCV, error) {
	cv := &RoutingCV{By: CVSource}
	bySource := map[string][]RoutingRow{}
	for _, r := range devRows {
		bySource[r.Source] = append(bySource[r.Source], r)
	}
	withModel := deps
	withModel.Writer = routeOnlyWriter{}
	// scoreDev scores the evaluation rows of the sources that share their
	// wording with the training source left out ("" for none), with the
	// router trained without it, once as configured and once with a
	// language model.
	scoreDev := func(o nodes.Options, without string) error {
		routers := [2]Router{}
		for i, d := range []nodes.Deps{deps, withModel} {
			r, err := newRouter(d, o)
			if err != nil {
				return err
			}
			routers[i] = r
		}
		for _, src := range slices.Sorted(maps.Keys(bySource)) {
			if trainingSourceOf(src) != without {
				continue
			}
			rows := bySource[src]
			var acc [2]Score
			for k, router := range routers {
				ok := make([]bool, len(rows))
				err := forEach(ctx, len(rows), concurrency, "eval rows of "+src, progress, func(ctx context.Context, i int) error {
					plan, _, err := router.Route(ctx, rows[i].Query)
					if err != nil {
						return ctx.Err()
					}
					ok[i] = Coarse(string(plan.Route)) == Coarse(rows[i].Route)
					return nil
				})
				if err != nil {
					return err
				}
				acc[k] = Score(ratio1(float64(countTrue(ok)), len(rows)))
			}
			cv.Dev = append(cv.Dev, CVDevSource{Source: src, Without: without, Rows: len(rows), CoarseAccuracy: acc[0], WithModel: acc[1]})
		}
		return nil
	}
	if err := scoreDev(opts, ""); err != nil {
		return nil, err
	}
	for _, src := range nodes.TrainingSources {
		model, err := nodes.TrainRouter(src)
		if err != nil {
			return nil, err
		}
		rows, err := nodes.TrainingRows(src)
		if err != nil {
			return nil, err
		}
		o := opts
		o.RouterModel = model
		router, err := newRouter(deps, o)
		if err != nil {
			return nil, err
		}
		if err := scoreDev(o, src); err != nil {
			return nil, err
		}
		type decision struct{ routed, policy, classified, class string }
		got := make([]decision, len(rows))
		err = forEach(ctx, len(rows), concurrency, "without "+src, progress, func(ctx context.Context, i int) error {
			r := rows[i]
			route, class, _ := model.Classify(r.Query)
			got[i].classified, got[i].class = Coarse(string(route)), class
			want, err := nodes.PolicyRoute(ctx, deps, o, r.Query, r.Class)
			if err != nil {
				return fmt.Errorf("without %s, row %q: %w", src, r.Query, err)
			}
			got[i].policy = Coarse(string(want))
			plan, _, err := router.Route(ctx, r.Query)
			if err != nil {
				got[i].routed = "error"
				return ctx.Err()
			}
			got[i].routed = Coarse(string(plan.Route))
			return nil
		})
		if err != nil {
			return nil, err
		}
		f := CVFold{Source: src, Rows: len(rows)}
		byClass := map[string]*cvTally{}
		var all cvTally
		for i, r := range rows {
			t := byClass[r.Class]
			if t == nil {
				t = &cvTally{routed: map[string]int{}, classified: map[string]int{}}
				byClass[r.Class] = t
			}
			d, want := got[i], Coarse(string(r.Route))
			for _, t := range []*cvTally{t, &all} {
				t.add(d.routed == want, d.routed == d.policy, d.classified == want, d.class == r.Class)
			}
			t.routed[d.routed]++
			t.classified[d.class]++
		}
		f.CVScores = all.scores()
		for _, cl := range slices.Sorted(maps.Keys(byClass)) {
			t := byClass[cl]
			f.Classes = append(f.Classes, CVClass{Class: cl, Rows: t.rows, CVScores: t.scores(), Routed: t.routed, Classified: t.classified})
		}
		if f.SeenAccuracy, err = seenAccuracy(src); err != nil {
			return nil, err
		}
		cv.Folds = append(cv.Folds, f)
	}
	cv.Router = summariseCV(cv.Folds, func(s CVScores) Score { return s.CoarseAccuracy })
	cv.Policy = summariseCV(cv.Folds, func(s CVScores) Score { return s.PolicyAccuracy })
	cv.Classifier = summariseCV(cv.Folds, func(s CVScores) Score { return s.ClassifierAccuracy })
	var seen Score
	for _, f := range cv.Folds {
		seen += f.SeenAccuracy / Score(len(cv.Folds))
	}
	cv.SeenMean = seen
	for _, d := range cv.Dev {
		for _, f := range []struct {
			s *CVSummary
			v Score
		}{{&cv.DevRouter, d.CoarseAccuracy}, {&cv.DevWithModel, d.WithModel}} {
			f.s.Mean += f.v / Score(len(cv.Dev))
			if f.s.WorstSource == "" || f.v < f.s.Worst {
				f.s.Worst, f.s.WorstSource = f.v, d.Source
			}
		}
	}
	return cv, nil
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// routeOnlyWriter stands in for a language model in the leave-one-source-
// out run's "with a model" figure: the router only asks whether one is
// configured; nothing writes with it.
type routeOnlyWriter struct{}

func (routeOnlyWriter) Write(context.Context, graphrag.WriteRequest, func(string)) (graphrag.Answer, error) {
	return graphrag.Answer{}, errors.New("eval routing: the language model stand-in writes nothing")
}

// trainingSourceOf is the training source (nodes.TrainingSources) that an
// evaluation row's source shares its wording with: CLINC150's test rows
// with its training rows, NL2Bash's held-out commands with the rest,
// graphrag's own rows with its exemplars. "" for a source with no training
// data (TREC, HotpotQA, XQuAD).
func trainingSourceOf(evalSource string) string {
	s := strings.ToLower(evalSource)
	for _, src := range nodes.TrainingSources {
		if strings.HasPrefix(s, src) {
			return src
		}
	}
	return ""
}

// cvSeenEvery: the seen-wording reference holds out every n-th row of the
// source (10%).
const cvSeenEvery = 10

// seenAccuracy is the classifier's coarse accuracy on every cvSeenEvery-th
// row of src when it was trained on the rest of src and the other sources.
func seenAccuracy(src string) (Score, error) {
	model, held, err := nodes.TrainRouterSeen(src, cvSeenEvery)
	if err != nil {
		return 0, err
	}
	ok := 0
	for _, r := range held {
		route, _, _ := model.Classify(r.Query)
		if Coarse(string(route)) == Coarse(string(r.Route)) {
			ok++
		}
	}
	return Score(ratio1(float64(ok), len(held))), nil
}

// cvTally counts the rows of a fold or class that each figure scores right.
type cvTally struct {
	rows                              int
	router, policy, classifier, class int
	routed, classified                map[string]int
}

func (t *cvTally) add(router, policy, classifier, class bool) {
	t.rows++
	for _, c := range []struct {
		ok bool
		n  *int
	}{{router, &t.router}, {policy, &t.policy}, {classifier, &t.classifier}, {class, &t.class}} {
		if c.ok {
			*c.n++
		}
	}
}

func (t *cvTally) scores() CVScores {
	share := func(n int) Score { return Score(ratio1(float64(n), t.rows)) }
	return CVScores{CoarseAccuracy: share(t.router), PolicyAccuracy: share(t.policy), ClassifierAccuracy: share(t.classifier), ClassAccuracy: share(t.class)}
}

// summariseCV is the mean and the worst fold of one figure.
func summariseCV(folds []CVFold, figure func(CVScores) Score) CVSummary {
	var s CVSummary
	for _, f := range folds {
		v := figure(f.CVScores)
		s.Mean += v / Score(len(folds))
		if s.WorstSource == "" || v < s.Worst {
			s.Worst, s.WorstSource = v, f.Source
		}
	}
	return s
}

// expectedCalibrationError bins decisions by confidence (10 equal-width
// bins) and averages |accuracy - mean confidence| weighted by bin size.
func expectedCalibrationError(conf []float64, correct []bool) float64 {
	const bins = 10
	var n [bins]int
	var sumConf, sumOK [bins]float64
	for i, c := range conf {
		b := min(bins-1, max(0, int(c*bins)))
		n[b]++
		sumConf[b] += c
		if correct[i] {
			sumOK[b]++
		}
	}
	var ece float64
	for b := range n {
		if n[b] > 0 {
			ece += float64(n[b]) / float64(len(conf)) * math.Abs(sumOK[b]/float64(n[b])-sumConf[b]/float64(n[b]))
		}
	}
	return ece
}

// routeOnlyWeb stands in for a configured web search while only the route
// step runs; it is never searched.
type routeOnlyWeb struct{}

func (routeOnlyWeb) SearchWeb(context.Context, string, int) ([]graphrag.Hit, error) {
	return nil, errors.New("eval routing: the web search stand-in is not searchable")
}

// routeOnlyTools stands in for configured filesystem tools while only
// the route step runs; it never answers.
type routeOnlyTools struct{}

func (routeOnlyTools) Answer(context.Context, graphrag.Plan) (string, []graphrag.Hit, error) {
	return "", nil, errors.New("eval routing: the filesystem tools stand-in does not answer")
}

type routed struct {
	plan  graphrag.Plan
	notes []string
	err   error
	ms    float64
}

// scoreRouting turns decisions into a report; rows and outs are parallel.
func scoreRouting(rows []RoutingRow, outs []routed, maxMistakes int) *Report {
	if maxMistakes == 0 {
		maxMistakes = 50
	}
	var fine, fineHard, coarse, coarseHard []Prediction
	rr := &RoutingReport{Deciders: map[string]int{}}
	rep := &Report{Routing: rr}
	var ms []float64
	var calls, tokens float64
	var confs []float64
	var corrects []bool
	for i, row := range rows {
		o := outs[i]
		calls += float64(o.plan.Usage.Calls)
		tokens += float64(o.plan.Usage.PromptTokens + o.plan.Usage.CompletionTokens)
		got := string(o.plan.Route)
		if o.err != nil {
			got = "error"
			rep.Errors++
			if len(rep.Failures) < 10 {
				rep.Failures = append(rep.Failures, fmt.Sprintf("%s %q: %v", row.ID, row.Query, o.err))
			}
		} else {
			ms = append(ms, o.ms)
			by := o.plan.By
			if by == "" {
				by = "unknown"
			}
			rr.Deciders[by]++
			if isFallback(o.plan.By, o.notes) {
				rr.Fallbacks++
			}
		}
		p := Prediction{Want: row.Route, Got: got}
		cp := Prediction{Want: Coarse(row.Route), Got: Coarse(got)}
		hard := row.Strength != Soft
		if row.Route != Local {
			fine = append(fine, p)
			if hard {
				fineHard = append(fineHard, p)
			}
		}
		coarse = append(coarse, cp)
		if o.err == nil {
			confs = append(confs, o.plan.Confidence)
			corrects = append(corrects, cp.Want == cp.Got)
		}
		if hard {
			coarseHard = append(coarseHard, cp)
		}
		wrong := cp.Want != cp.Got || (row.Route != Local && p.Want != p.Got)
		if wrong && maxMistakes > 0 && len(rr.Mistakes) < maxMistakes {
			rr.Mistakes = append(rr.Mistakes, Mistake{ID: row.ID, Query: row.Query, Want: row.Route, Got: got,
				By: o.plan.By, Reason: o.plan.Reason, Coarse: cp.Want != cp.Got})
		}
	}
	f, fh, c, ch := Classify(fine), Classify(fineHard), Classify(coarse), Classify(coarseHard)
	rr.N, rr.Accuracy, rr.MacroF1, rr.PerClass, rr.Confusion = f.N, f.Accuracy, f.MacroF1, f.PerClass, f.Confusion
	rr.CoarseN, rr.CoarseAccuracy, rr.CoarseMacroF1, rr.CoarseConfusion = c.N, c.Accuracy, c.MacroF1, c.Confusion
	rr.Hard = RoutingSubset{N: fh.N, Accuracy: fh.Accuracy, MacroF1: fh.MacroF1, CoarseN: ch.N, CoarseAccuracy: ch.Accuracy}
	rep.LatencyMS = map[string]Latency{"route": LatencyOf(ms)}
	rr.ECE = Score(expectedCalibrationError(confs, corrects))
	rep.LLMCallsPerQuery = ptr(Score(ratio1(calls, len(rows))))
	rep.TokensPerQuery = ptr(Score(ratio1(tokens, len(rows))))
	return rep
}

func isFallback(by string, notes []string) bool {
	if strings.Contains(strings.ToLower(by), "fallback") {
		return true
	}
	for _, n := range notes {
		l := strings.ToLower(n)
		if strings.Contains(l, "fail") || strings.Contains(l, "fallback") {
			return true
		}
	}
	return false
}

// prepareStore returns the searcher to score against and a func to close
// what it opened.
func prepareStore(ctx context.Context, given nodes.Searcher, open OpenStore, corpus []string, ingest IngestFunc, progress ProgressFunc) (nodes.Searcher, func(), []RowError, error) {
	noop := func() {}
	if given != nil {
		return given, noop, nil, nil
	}
	if len(corpus) == 0 {
		return nil, noop, nil, nil
	}
	if open == nil {
		return nil, noop, nil, fmt.Errorf("a corpus was given but no way to open a store for it (set Open, e.g. evals.TempSQLite)")
	}
	st, err := open(ctx)
	if err != nil {
		return nil, noop, nil, err
	}
	var skipped []RowError
	if ingest != nil {
		err = ingest(ctx, st, corpus)
	} else {
		skipped, err = ingestCorpus(ctx, st, corpus, progress)
	}
	if err != nil {
		st.Close()
		return nil, noop, skipped, err
	}
	return st, func() { st.Close() }, skipped, nil
}

// combine makes the report of a run: the first variant's figures at the top
// level and, with several variants, every variant in Variants.
func combine(reports []Report) *Report {
	out := reports[0]
	if len(reports) > 1 {
		out.Variants = reports
	} else {
		out.Variant = ""
		if reports[0].Variant != "" {
			out.Variant = reports[0].Variant
		}
	}
	return &out
}
