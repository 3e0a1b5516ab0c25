package evals

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/graphrag/graphrag"
)

// WriteTable prints r as plain-text tables for a terminal: one column per
// variant when r compares several.
func WriteTable(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, t := range summaryTables(r) {
		for _, row := range t {
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Routing != nil {
		if err := writeConfusion(w, r.Routing); err != nil {
			return err
		}
		if err := writeCV(w, r.Routing.CV); err != nil {
			return err
		}
	}
	reps := columns(r)
	for _, x := range reps {
		for _, n := range x.Notes {
			fmt.Fprintf(w, "note (%s): %s\n", title(x.Variant), n)
		}
	}
	for _, x := range reps {
		for _, f := range x.Failures {
			fmt.Fprintf(w, "failed (%s): %s\n", title(x.Variant), f)
		}
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, "%d dataset rows skipped:\n", len(r.Skipped))
		for _, s := range r.Skipped {
			fmt.Fprintf(w, "  %s\n", s.Error())
		}
	}
	return nil
}

// summaryTables builds the routing and RAG summary tables: the first row of
// each is its header, one column per variant.
func summaryTables(r *Report) [][][]string {
	reps := columns(r)
	var tables [][][]string
	var t [][]string
	header := func(name string) {
		h := []string{name}
		for _, x := range reps {
			h = append(h, title(x.Variant))
		}
		t = [][]string{h}
	}
	row := func(label string, val func(*Report) string) {
		cells := []string{label}
		for _, x := range reps {
			cells = append(cells, val(x))
		}
		t = append(t, cells)
	}
	if r.Routing != nil {
		header("ROUTING")
		for _, l := range routingRows {
			row(l.label, func(x *Report) string { return l.val(x.Routing) })
		}
		row("decision p50 / p95 ms", func(x *Report) string { return latencyCell(x.LatencyMS["route"]) })
		row("deciders", func(x *Report) string { return countsCell(x.Routing.Deciders) })
		row("fallbacks", func(x *Report) string { return strconv.Itoa(x.Routing.Fallbacks) })
		row("LLM calls / tokens per query", llmCell)
		row("errors", func(x *Report) string { return strconv.Itoa(x.Errors) })
		tables = append(tables, t)
	}
	if r.Retrieval != nil || r.Rejection != nil {
		header("RAG")
		k := 10
		if r.Retrieval != nil {
			k = r.Retrieval.K
		}
		ks := strconv.Itoa(k)
		ret := func(f func(*RetrievalScores) Score) func(*Report) string {
			return func(x *Report) string {
				if x.Retrieval == nil {
					return "-"
				}
				return f3(f(x.Retrieval))
			}
		}
		row("questions", func(x *Report) string {
			if x.Retrieval == nil {
				return "-"
			}
			return strconv.Itoa(x.Retrieval.N)
		})
		row("recall@"+ks, ret(func(s *RetrievalScores) Score { return s.Recall }))
		row("both-gold@"+ks, ret(func(s *RetrievalScores) Score { return s.BothGold }))
		row("MRR", ret(func(s *RetrievalScores) Score { return s.MRR }))
		row("nDCG@10", ret(func(s *RetrievalScores) Score { return s.NDCG10 }))
		ans := func(f func(*AnswerScores) Score) func(*Report) string {
			return func(x *Report) string {
				if x.Answers == nil {
					return "-"
				}
				return f3(f(x.Answers))
			}
		}
		row("EM (answer)", ans(func(a *AnswerScores) Score { return a.EM }))
		row("F1 (answer)", ans(func(a *AnswerScores) Score { return a.F1 }))
		row("EM (short)", ans(func(a *AnswerScores) Score { return a.ShortEM }))
		row("F1 (short)", ans(func(a *AnswerScores) Score { return a.ShortF1 }))
		row("contains answer", ans(func(a *AnswerScores) Score { return a.Contains }))
		row("best-span F1 (oracle)", ans(func(a *AnswerScores) Score { return a.SpanF1 }))
		for _, ty := range answerTypes(reps) {
			row(ty+": recall / EM / F1", func(x *Report) string {
				if x.Answers == nil || x.Retrieval == nil {
					return "-"
				}
				a, ok := x.Answers.ByType[ty]
				rs := x.Retrieval.ByType[ty]
				if !ok || rs == nil {
					return "-"
				}
				return f3(rs.Recall) + " / " + f3(a.EM) + " / " + f3(a.F1)
			})
			row(ty+": short EM / F1", func(x *Report) string {
				if x.Answers == nil {
					return "-"
				}
				a, ok := x.Answers.ByType[ty]
				if !ok {
					return "-"
				}
				return f3(a.ShortEM) + " / " + f3(a.ShortF1)
			})
		}
		rej := func(f func(*RejectionScores) string) func(*Report) string {
			return func(x *Report) string {
				if x.Rejection == nil {
					return "-"
				}
				return f(x.Rejection)
			}
		}
		row("negatives", rej(func(r *RejectionScores) string { return strconv.Itoa(r.Negatives) }))
		row("abstain rate (negatives)", rej(func(r *RejectionScores) string { return f3(r.AbstainRate) }))
		row("false abstain (answerable)", rej(func(r *RejectionScores) string { return f3(r.FalseAbstainRate) }))
		row("answerable routed", func(x *Report) string { return countsCell(x.Routes) })
		row("grounding mean", func(x *Report) string {
			if x.Grounding == nil {
				return "-"
			}
			return f3(*x.Grounding)
		})
		for _, n := range latencyNodes(reps) {
			row("latency "+n+" p50 / p95 ms", func(x *Report) string { return latencyCell(x.LatencyMS[n]) })
		}
		row("LLM calls / tokens per query", llmCell)
		if slices.ContainsFunc(reps, func(x *Report) bool { return x.Model != nil }) {
			model := func(f func(*ModelScores) string) func(*Report) string {
				return func(x *Report) string {
					if x.Model == nil {
						return "-"
					}
					return f(x.Model)
				}
			}
			row("EM / F1 (short from answer)", model(func(m *ModelScores) string { return f3(m.ExtractedEM) + " / " + f3(m.ExtractedF1) }))
			row("model calls mean / p95 / max", model(func(m *ModelScores) string {
				return fmt.Sprintf("%.2f / %.0f / %d", float64(m.CallsMean), float64(m.CallsP95), m.CallsMax)
			}))
			row("validate loops / none share", model(func(m *ModelScores) string { return f3(m.ValidateLoops) + " / " + f3(m.NoValidateLoop) }))
			row("files searched: model had no answer", model(func(m *ModelScores) string { return f3(m.FilesFallbacks) }))
			row("low confidence (answered)", model(func(m *ModelScores) string { return f3(m.LowConfidence) }))
			row("answers by", model(func(m *ModelScores) string { return countsCell(m.By) }))
		}
		row("loops per query", func(x *Report) string {
			if x.Loops == nil {
				return "-"
			}
			return countsCell(x.Loops.PerQuery)
		})
		row("back-edges taken", func(x *Report) string {
			if x.Loops == nil {
				return "-"
			}
			return countsCell(x.Loops.Edges)
		})
		row("search modes run", func(x *Report) string { return countsCell(x.SearchModes) })
		row("errors", func(x *Report) string { return strconv.Itoa(x.Errors) })
		tables = append(tables, t)
	}
	return tables
}

type routingRow struct {
	label string
	val   func(*RoutingReport) string
}

var routingRows = []routingRow{
	{"rows (fine labels)", func(r *RoutingReport) string { return strconv.Itoa(r.N) }},
	{"accuracy", func(r *RoutingReport) string { return f3(r.Accuracy) }},
	{"macro-F1", func(r *RoutingReport) string { return f3(r.MacroF1) }},
	{"hard rows", func(r *RoutingReport) string { return strconv.Itoa(r.Hard.N) }},
	{"hard accuracy", func(r *RoutingReport) string { return f3(r.Hard.Accuracy) }},
	{"hard macro-F1", func(r *RoutingReport) string { return f3(r.Hard.MacroF1) }},
	{"rows (coarse, incl. local)", func(r *RoutingReport) string { return strconv.Itoa(r.CoarseN) }},
	{"coarse accuracy", func(r *RoutingReport) string { return f3(r.CoarseAccuracy) }},
	{"hard coarse accuracy", func(r *RoutingReport) string { return f3(r.Hard.CoarseAccuracy) }},
	{"calibration error (ECE)", func(r *RoutingReport) string { return f3(r.ECE) }},
	{"leave-one-source-out: router vs class", cvCell(func(cv *RoutingCV) CVSummary { return cv.Router })},
	{"leave-one-source-out: router vs policy", cvCell(func(cv *RoutingCV) CVSummary { return cv.Policy })},
	{"leave-one-source-out: classifier alone", cvCell(func(cv *RoutingCV) CVSummary { return cv.Classifier })},
	{"leave-one-source-out: eval rows", cvCell(func(cv *RoutingCV) CVSummary { return cv.DevRouter })},
	{"  the same, a language model configured", cvCell(func(cv *RoutingCV) CVSummary { return cv.DevWithModel })},
	{"classifier, source's wording seen", func(r *RoutingReport) string {
		if r.CV == nil {
			return "-"
		}
		return f3(r.CV.SeenMean)
	}},
}

// cvCell prints one leave-one-source-out figure as "mean / worst (source)":
// "router vs class" is the whole router against the route of each row's
// class, "router vs policy" against what the policy prescribes here, and
// "classifier alone" the learned classifier without rules or probe.
func cvCell(figure func(*RoutingCV) CVSummary) func(*RoutingReport) string {
	return func(r *RoutingReport) string {
		if r.CV == nil {
			return "-"
		}
		s := figure(r.CV)
		return fmt.Sprintf("%s / %s (%s)", f3(s.Mean), f3(s.Worst), s.WorstSource)
	}
}

// writeCV prints the leave-one-source-out run by fold and policy class:
// the router against the route of each row's class ("class route") and
// against what the policy prescribes here ("policy"), the classifier alone
// ("classifier", coarse, and "class", its class), and the classifier on
// held-out rows of a source whose other rows it was trained on ("seen").
func writeCV(w io.Writer, cv *RoutingCV) error {
	if cv == nil {
		return nil
	}
	fmt.Fprintln(w, "leave-one-source-out (trained without the source, scored on its rows)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "source\tclass\trows\tclass route\tpolicy\tclassifier\tclass\tseen\trouted to\tclassified as\t")
	for _, f := range cv.Folds {
		fmt.Fprintf(tw, "%s\tall\t%d\t%s\t%s\t\t\t\n", f.Source, f.Rows, cvScoreCells(f.CVScores), f3(f.SeenAccuracy))
		for _, c := range f.Classes {
			fmt.Fprintf(tw, "\t%s\t%d\t%s\t\t%s\t%s\t\n", c.Class, c.Rows, cvScoreCells(c.CVScores), countsCell(c.Routed), countsCell(c.Classified))
		}
	}
	fmt.Fprintf(tw, "mean\t\t\t%s\t%s\t%s\t\t%s\t\t\t\n", f3(cv.Router.Mean), f3(cv.Policy.Mean), f3(cv.Classifier.Mean), f3(cv.SeenMean))
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(cv.Dev) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "evaluation rows by source (routed by the router trained without the training source that shares their wording)")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "source\ttrained without\trows\tcoarse accuracy\twith a model\t")
		for _, d := range cv.Dev {
			without := d.Without
			if without == "" {
				without = "(none: never in training)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t\n", d.Source, without, d.Rows, f3(d.CoarseAccuracy), f3(d.WithModel))
		}
		fmt.Fprintf(tw, "mean\t\t\t%s\t%s\t\n", f3(cv.DevRouter.Mean), f3(cv.DevWithModel.Mean))
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintln(w)
	return nil
}

// cvScoreCells is a fold's or class's figures as four tab-separated cells.
func cvScoreCells(s CVScores) string { return strings.Join(cvScoreList(s), "\t") }

// writeConfusion prints the per-class scores and both confusion matrices.
func writeConfusion(w io.Writer, r *RoutingReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "class\tprecision\trecall\tF1\tsupport\tpredicted\t")
	for _, c := range classOrder(r.PerClass) {
		s := r.PerClass[c]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t\n", c, f3(s.Precision), f3(s.Recall), f3(s.F1), s.Support, s.Predicted)
	}
	fmt.Fprintln(tw)
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, m := range []struct {
		name string
		c    map[string]map[string]int
	}{{"confusion (rows: expected, columns: routed)", r.Confusion}, {"coarse confusion (vector and hybrid as local)", r.CoarseConfusion}} {
		if len(m.c) == 0 {
			continue
		}
		fmt.Fprintln(w, m.name)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		labels := confusionLabels(m.c)
		fmt.Fprint(tw, "\t")
		for _, l := range labels {
			fmt.Fprintf(tw, "%s\t", l)
		}
		fmt.Fprintln(tw)
		for _, want := range labels {
			if len(m.c[want]) == 0 {
				continue
			}
			fmt.Fprintf(tw, "%s\t", want)
			for _, got := range labels {
				fmt.Fprintf(tw, "%d\t", m.c[want][got])
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

// routeOrder ranks labels: the routes in graphrag.Routes order, local, then
// anything else alphabetically.
func routeOrder(labels []string) []string {
	rank := map[string]int{}
	for i, r := range graphrag.Routes {
		rank[string(r)] = i + 1
	}
	rank[Local] = 3 // right after vector and hybrid, the routes it stands for
	for _, r := range graphrag.Routes[2:] {
		rank[string(r)]++
	}
	slices.SortFunc(labels, func(a, b string) int {
		ra, rb := rank[a], rank[b]
		if ra == 0 {
			ra = 100
		}
		if rb == 0 {
			rb = 100
		}
		if ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return labels
}

func classOrder(m map[string]ClassScore) []string {
	return routeOrder(slices.Collect(maps.Keys(m)))
}

func confusionLabels(c map[string]map[string]int) []string {
	set := map[string]bool{}
	for want, row := range c {
		set[want] = true
		for got := range row {
			set[got] = true
		}
	}
	return routeOrder(slices.Collect(maps.Keys(set)))
}

// columns returns the reports to show side by side.
func columns(r *Report) []*Report {
	if len(r.Variants) == 0 {
		return []*Report{r}
	}
	out := make([]*Report, len(r.Variants))
	for i := range r.Variants {
		out[i] = &r.Variants[i]
	}
	return out
}

func answerTypes(reps []*Report) []string {
	set := map[string]bool{}
	for _, x := range reps {
		if x.Answers != nil {
			for t := range x.Answers.ByType {
				set[t] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// latencyNodes lists nodes with latency: graph order first, total last.
func latencyNodes(reps []*Report) []string {
	set := map[string]bool{}
	for _, x := range reps {
		for n := range x.LatencyMS {
			set[n] = true
		}
	}
	order := map[string]int{"search": -1, "route": 1, "retrieve": 2, "evaluate": 3, "generate": 4, "validate": 5, "total": 99}
	names := slices.Collect(maps.Keys(set))
	slices.SortFunc(names, func(a, b string) int {
		oa, ob := order[a], order[b]
		if oa == 0 {
			oa = 50
		}
		if ob == 0 {
			ob = 50
		}
		if oa != ob {
			return oa - ob
		}
		return strings.Compare(a, b)
	})
	return names
}

func llmCell(x *Report) string {
	if x.LLMCallsPerQuery == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f / %.0f", deref(x.LLMCallsPerQuery), deref(x.TokensPerQuery))
}

func latencyCell(l Latency) string {
	if l.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f / %.1f", float64(l.P50), float64(l.P95))
}

func countsCell(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s:%d", k, m[k])
	}
	return strings.Join(parts, " ")
}

func f3(s Score) string { return strconv.FormatFloat(float64(s), 'f', 3, 64) }

func deref(s *Score) float64 {
	if s == nil {
		return 0
	}
	return float64(*s)
}

// cvScoreList is a fold's or class's figures as four cells.
func cvScoreList(s CVScores) []string {
	return []string{f3(s.CoarseAccuracy), f3(s.PolicyAccuracy), f3(s.ClassifierAccuracy), f3(s.ClassAccuracy)}
}
