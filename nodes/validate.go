package nodes

import (
	"context"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

var citationMark = regexp.MustCompile(`\[\d+\]`)

// validate is the "validate" node: a self-check without a model. It
// checks that the answer's claims are in the passages it cites (numbers,
// names, dates and quoted strings exactly, other content words by stem)
// and that it is the kind of answer the question asks for, and asks the
// Judge only when that is ambiguous. An unsupported answer goes back to
// generate while the generate budget lasts; after that, or when the model
// cannot write, the run answers extractively from the kept passages and
// says so: text the check found unsupported is never returned as the
// answer. An answer the judge finds off the question goes back to route
// within the route budget.
func (p *pipeline) validate(ctx context.Context, s State) (State, error) {
	s.Check, s.Judged = Check{}, ""
	a := s.Answer
	canSearch := s.Budget.Route > 0 && p.deps.Searcher != nil
	if why := modelGaveNoAnswer(s.Plan.Route, a); why != "" && canSearch {
		// The model failed, or did not know, a question it was to answer
		// alone: search the files, as the run without a model does, rather
		// than give up. A model makes graphrag better, never worse.
		searchTheFilesInstead(&s)
		s.Check.Fallback = why
		s.fallback(ctx, "validate: %s to a question for it alone: searched your files instead", why)
		return s, nil
	}
	if unanswered(s.Plan.Route, a) && canSearch {
		// Without a model to answer it alone, the question may still be
		// answered by the files: search them, and let evaluate judge what
		// they hold as for any question. The route's probe, a few hits of
		// one keyword search, found little; a whole search with its
		// corrective loop may find more.
		searchTheFilesInstead(&s)
		s.Alone = a
		if a.Text == msgCannotAct {
			s.note("validate: graphrag only reads and did not do this: searched your files for how to do it")
		} else {
			s.note("validate: no language model to answer it alone: searched your files")
		}
		return s, nil
	}
	if a.Abstained || s.Plan.Route == graphrag.RouteDirect || s.ToolText != "" {
		// Abstentions, tool, web-off and direct answers are what they are.
		s.Verdict = graphrag.VerdictOK
		if a.Abstained {
			s.Stop = stopOr(s.Stop, "abstained")
		} else {
			s.Stop = stopOr(s.Stop, stopAnswered)
		}
		return s, nil
	}
	c := checkAnswer(s.question(), a, s.Kept)
	s.Check = c
	a.Grounding = c.Support
	a.Coverage = coverage(s.question(), a.Text+"\n"+quotedHeadings(a))
	verdict, ambiguous := p.verdictOf(c, a)
	judgedOK := false
	if ambiguous && p.deps.Judge != nil && !s.modelDown {
		j, err := p.deps.Judge.Judge(ctx, s.question(), a, s.Kept)
		s.addUsage("validate", j.Usage)
		switch {
		case err != nil:
			s.modelFailed(ctx, err, "validate: judge failed, kept the self-check's verdict: %v", err)
		case j.Verdict != graphrag.VerdictOK && j.Verdict != graphrag.VerdictUnsupported && j.Verdict != graphrag.VerdictOffQuestion:
			s.fallback(ctx, "validate: judge returned unknown verdict %q, kept the self-check's verdict", j.Verdict)
		default:
			verdict, s.Judged = j.Verdict, j.Reason
			judgedOK = verdict == graphrag.VerdictOK
		}
	}
	a.LowConfidence = a.LowConfidence || c.Support < p.opts.LowConfidence || a.By == "llm" && !c.Fits && !judgedOK
	s.Answer, s.Verdict = a, verdict
	switch verdict {
	case graphrag.VerdictOK:
		if s.Best.Text == "" || quality(a) > quality(s.Best) {
			s.Best = a
		}
		s.Stop = stopOr(s.Stop, stopAnswered)
	case graphrag.VerdictUnsupported:
		// A written answer is asked for again while the budget lasts,
		// unless it cites nothing: that model did not follow the prompt at
		// all, and asking again is seconds lost.
		switch {
		case a.By == "llm" && len(a.Citations) > 0 && p.deps.Writer != nil && !s.modelDown && s.Budget.Generate > 0:
			s.Budget.Generate--
			s.Loops.Generate++
			graph.Emit(ctx, EventDraftRejected, "not supported by its sources: "+c.String())
		case a.By == "llm" || a.By == "":
			p.answerFromPassages(ctx, &s, c)
		default:
			// An extractive answer quotes the passages: flag it, do not loop.
			s.Verdict = graphrag.VerdictOK
			s.Answer.LowConfidence = true
			s.Stop = stopOr(s.Stop, stopAnswered)
		}
	case graphrag.VerdictOffQuestion:
		if s.Budget.Route > 0 && len(s.Kept) > 0 {
			s.Budget.Route--
			s.Loops.Route++
			s.Refined = s.question() + " " + joinWords(expansionTerms(s.Kept, contentTerms(s.question()), p.opts.ExpansionTerms))
			graph.Emit(ctx, EventDraftRejected, "does not answer the question: "+c.String())
			break
		}
		if s.Best.Text != "" {
			s.Answer = s.Best
		}
		s.Answer.LowConfidence = true
		s.Stop = "route budget spent"
		s.Check.Fallback = "route budget spent: the best answer so far, flagged low confidence"
		s.note("validate: off the question after the route budget was spent (%s): returned the best answer so far, flagged low confidence", c)
	}
	return s, nil
}

// stopAnswered is State.Stop of a run that answered as planned.
const stopAnswered = "answered"

// EventDraftRejected names the custom graph event validate emits, with the
// reason as its payload, when it sends an answer back: a view that has
// streamed the draft says it was not the answer.
const EventDraftRejected = "draft_rejected"

// verdictOf is the self-check's verdict on an answer, and whether it is
// ambiguous enough to ask the judge. A claim missing from the cited text
// is unsupported outright. Ambiguous are: support within JudgeBand of
// LowConfidence; a written answer of the wrong kind; and a written answer
// to a yes/no or either/or question, which the passages never state word
// for word (a wrong "yes", or the other option, cites text that holds
// every word of it), so only a reader can check it.
func (p *pipeline) verdictOf(c Check, a graphrag.Answer) (graphrag.Verdict, bool) {
	if len(c.Missing) > 0 {
		return graphrag.VerdictUnsupported, false
	}
	verdict := graphrag.VerdictOK
	if c.Support < p.opts.LowConfidence {
		verdict = graphrag.VerdictUnsupported
	}
	ambiguous := math.Abs(c.Support-p.opts.LowConfidence) <= p.opts.JudgeBand
	inferred := c.Kind == kindYesNo || c.Kind == kindChoice
	return verdict, ambiguous || verdict == graphrag.VerdictOK && a.By == "llm" && (!c.Fits || inferred)
}

// answerFromPassages replaces an answer the check found unsupported, with
// no retry left, by the extractive answer from the kept passages.
func (p *pipeline) answerFromPassages(ctx context.Context, s *State, c Check) {
	why := "the generate budget was spent"
	switch {
	case s.modelDown:
		why = "the model is unreachable"
	case p.deps.Writer == nil:
		why = "there is no model to rewrite it"
	case len(s.Answer.Citations) == 0:
		why = "it cites none of them"
	case s.Loops.Generate == 0:
		why = "no retry was allowed"
	}
	graph.Emit(ctx, EventDraftRejected, "not supported by its sources: "+c.String())
	s.fallback(ctx, "validate: the model's answer was not supported by its sources (%s) and %s: answered extractively from the kept passages", c, why)
	a := extractive(s.question(), s.Kept, p.opts.MaxSentences)
	a.Grounding, a.Coverage = 1, coverage(s.question(), a.Text)
	s.Answer, s.Verdict = a, graphrag.VerdictOK
	s.Short = shortAnswer(s.question(), s.Kept, answerSentences(a, s.Kept))
	s.Check.Fallback = "answered extractively from the kept passages"
	s.Stop = "answer unsupported: answered from the passages"
	if s.Loops.Generate > 0 {
		s.Stop = "generate budget spent: answered from the passages"
	}
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
		if have[t.Stem] || dottedIn(t, have) {
			got += t.Weight
		}
	}
	return got / total
}

// dottedIn reports whether the last part of a dotted term ("minread" of
// "bytes.minread") is in stems: code of a package names its identifiers
// unqualified.
func dottedIn(t term, stems map[string]bool) bool {
	i := strings.LastIndex(t.Word, ".")
	return i >= 0 && i+1 < len(t.Word) && !t.isNumber() && stems[stem(t.Word[i+1:])]
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

// searchTheFilesInstead sends a question the direct route gave no answer
// to back to route, to search the files with the question, from the route
// budget.
func searchTheFilesInstead(s *State) {
	s.Budget.Route--
	s.Loops.Route++
	s.Refined = s.question()
	s.Verdict = graphrag.VerdictOffQuestion
}

// unanswered reports whether a direct answer is graphrag's own refusal of
// a general-knowledge question it has no model to answer, or of a request
// to act. The files may hold the answer all the same ("who designed the X
// protocol" over the protocol's README), and a request to act over
// manuals is how one asks them how to do it ("truncate a table and reset
// its identity"): searched, it is judged as any question, and refused
// when the files do not answer it.
func unanswered(route graphrag.Route, a graphrag.Answer) bool {
	return route == graphrag.RouteDirect && (a.Text == msgNeedsModel || a.Text == msgCannotAct)
}

// modelGaveNoAnswer says why a direct answer is no answer from the model
// ("" when it is one, or when no model was asked): the model failed
// (msgModelFailed), or it answered that it does not know. graphrag's own
// direct answers (small talk, arithmetic, "graphrag only reads", "needs a
// model") are answers.
func modelGaveNoAnswer(route graphrag.Route, a graphrag.Answer) string {
	switch {
	case route != graphrag.RouteDirect:
		return ""
	case a.Text == msgModelFailed:
		return "the model gave no usable answer"
	case a.Abstained && a.By != "direct":
		return "the model did not know the answer"
	}
	return ""
}
