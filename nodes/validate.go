package nodes

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

var citationMark = regexp.MustCompile(`\[\d+\]`)

// validate is the "validate" node: a self-check without a model. It scores
// how much of the answer the cited text supports (grounding) and how much of
// the question it covers, asks the Judge only when grounding is ambiguous,
// and sends the answer back to generate or route within the budgets.
func (p *pipeline) validate(ctx context.Context, s State) (State, error) {
	a := s.Answer
	if a.Abstained || s.Plan.Route == graphrag.RouteDirect || s.ToolText != "" {
		// Abstentions, tool, web-off and direct answers are what they are.
		s.Verdict = graphrag.VerdictOK
		s.next = graph.END
		if a.Abstained {
			s.why, s.Stop = "abstained: nothing relevant found", stopOr(s.Stop, "abstained")
		} else {
			s.why, s.Stop = string(s.Plan.Route)+" answer: nothing to check", stopOr(s.Stop, "answered")
		}
		return s, nil
	}
	a.Grounding = grounding(a)
	a.Coverage = coverage(s.question(), a.Text+"\n"+quotedHeadings(a))
	a.LowConfidence = a.Grounding < p.opts.LowConfidence
	verdict := graphrag.VerdictOK
	reason := fmt.Sprintf("grounding %.2f, coverage %.2f", a.Grounding, a.Coverage)
	switch {
	case a.Grounding < p.opts.LowConfidence:
		verdict = graphrag.VerdictUnsupported
	case a.Coverage < p.opts.MinCoverage:
		verdict = graphrag.VerdictOffQuestion
	}
	if p.deps.Judge != nil && !s.modelDown && math.Abs(a.Grounding-p.opts.LowConfidence) <= p.opts.JudgeBand {
		j, err := p.deps.Judge.Judge(ctx, s.question(), a, s.Kept)
		s.addUsage("validate", j.Usage)
		switch {
		case err != nil:
			s.modelFailed(ctx, err, "validate: judge failed, kept the overlap verdict: %v", err)
		case j.Verdict != graphrag.VerdictOK && j.Verdict != graphrag.VerdictUnsupported && j.Verdict != graphrag.VerdictOffQuestion:
			s.fallback(ctx, "validate: judge returned unknown verdict %q, kept the overlap verdict", j.Verdict)
		default:
			verdict = j.Verdict
			reason += "; judge: " + j.Reason
			a.LowConfidence = verdict != graphrag.VerdictOK
		}
	}
	s.Answer, s.Verdict = a, verdict
	if s.Best.Text == "" || quality(a) > quality(s.Best) {
		s.Best = a
	}
	switch {
	case verdict == graphrag.VerdictOK:
		s.next, s.why = graph.END, "ok: "+reason
		s.Stop = stopOr(s.Stop, "answered")
	case verdict == graphrag.VerdictUnsupported && s.Budget.Generate > 0:
		s.Budget.Generate--
		s.Loops.Generate++
		s.next, s.why = "generate", fmt.Sprintf("unsupported: %s; regenerate (%d retries left)", reason, s.Budget.Generate)
	case verdict == graphrag.VerdictOffQuestion && s.Budget.Route > 0 && len(s.Kept) > 0:
		s.Budget.Route--
		s.Loops.Route++
		s.Refined = s.question() + " " + joinWords(expansionTerms(s.Kept, contentTerms(s.question()), p.opts.ExpansionTerms))
		s.next, s.why = "route", fmt.Sprintf("off question: %s; plan again (%d retries left)", reason, s.Budget.Route)
	default:
		edge := "generate"
		if verdict == graphrag.VerdictOffQuestion {
			edge = "route"
		}
		s.Answer = s.Best
		s.Answer.LowConfidence = true
		s.Stop = edge + " budget spent"
		s.note("validate: %s after the %s budget was spent (%s): returned the best answer so far, flagged low confidence", verdict, edge, reason)
		s.next, s.why = graph.END, fmt.Sprintf("%s: %s; %s budget spent: end with the best answer", verdict, reason, edge)
	}
	return s, nil
}

func stopOr(stop, def string) string {
	if stop != "" {
		return stop
	}
	return def
}

func quality(a graphrag.Answer) float64 { return a.Grounding + a.Coverage }

func joinWords(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += " "
		}
		out += w
	}
	return out
}

// grounding is the share of the answer's content words found in the text
// it cites.
func grounding(a graphrag.Answer) float64 {
	terms := contentTerms(citationMark.ReplaceAllString(a.Text, " "))
	if len(terms) == 0 {
		return 1
	}
	cited := make(map[string]bool)
	for _, c := range a.Citations {
		for k := range stemSet(c.Hit.Source.Title + " " + c.Hit.Chunk.Text + " " + c.Quote) {
			cited[k] = true
		}
	}
	n := 0
	for _, t := range terms {
		if cited[t.Stem] {
			n++
		}
	}
	return float64(n) / float64(len(terms))
}

// coverage is the weighted share of the query's content terms the answer
// contains.
func coverage(query, answer string) float64 {
	terms := contentTerms(query)
	if len(terms) == 0 {
		return 1
	}
	have := stemSet(answer)
	var got, total float64
	for _, t := range terms {
		total += t.Weight
		if have[t.Stem] {
			got += t.Weight
		}
	}
	return got / total
}

// quotedHeadings returns the section headings above the sentences an answer
// quotes: "We decided to move to PostgreSQL" answers a question about "the
// database migration" when it sits under "## Database migration".
func quotedHeadings(a graphrag.Answer) string {
	var out []string
	for _, c := range a.Citations {
		if c.Quote == "" || !strings.Contains(c.Hit.Chunk.Text, "#") {
			continue
		}
		for _, u := range answerUnits(c.Hit.Chunk.Text) {
			if u.heading != "" && strings.Contains(a.Text, u.text) && !slices.Contains(out, u.heading) {
				out = append(out, u.heading)
			}
		}
	}
	return strings.Join(out, "\n")
}
