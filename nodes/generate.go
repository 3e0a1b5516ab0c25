package nodes

import (
	"context"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// NoAnswer is the answer when the files hold nothing relevant.
const NoAnswer = "No relevant information found in your files."

// AnsweredWithWebOff reports whether the run searched the files for a
// question that needs fresh information because web search is off: its
// answer may be out of date.
func AnsweredWithWebOff(s State) bool { return strings.Contains(s.Plan.Reason, reasonWebOff) }

// AnsweredARequestToAct reports whether the run answered a request to act
// ("truncate a table and reset its identity") with what the files say
// about doing it: graphrag did not do it, and the answer should say so.
func AnsweredARequestToAct(s State) bool { return !s.Answer.Abstained && s.Alone.Text == msgCannotAct }

// The caveats a finished run's answer is shown with (Caveats).
const (
	caveatLowConfidence = "Low confidence: much of this answer is not found in the cited text; check the sources."
	caveatWebOff        = "This needs fresh information and web search is off: the answer comes from your files and may be out of date (--web searxng=URL)."
	caveatNotDone       = "graphrag only reads: it did not do this. The answer is what your files say about doing it."
)

// Caveats are the sentences a finished run's answer must be shown with,
// whatever shows it (graphrag run and chat, the server's JSON, the web
// page): the answer is of low confidence, it may be out of date because
// web search is off, or it says how to do what was asked to be done.
func Caveats(s State) []string {
	if s.Answer.Abstained {
		return nil
	}
	var out []string
	if s.Answer.LowConfidence {
		out = append(out, caveatLowConfidence)
	}
	if AnsweredWithWebOff(s) {
		out = append(out, caveatWebOff)
	}
	if AnsweredARequestToAct(s) {
		out = append(out, caveatNotDone)
	}
	return out
}

// nothingFound is the abstention, saying what would help when the files
// were searched only because nothing else could be asked: fresh
// information with web search off, or a question the files hold little
// about with neither a model nor the web configured (route's reasons).
func nothingFound(plan graphrag.Plan) string {
	switch {
	case strings.Contains(plan.Reason, reasonWebOff):
		return NoAnswer + " This needs fresh information and web search is off: pass --web searxng=URL (or set GRAPHRAG_WEB) to look it up."
	case strings.Contains(plan.Reason, reasonLittleLocal):
		return NoAnswer + " A language model (--llm, see `graphrag doctor`) or web search (--web searxng=URL) would help with it."
	}
	return NoAnswer
}

// generate is the "generate" node: it writes the answer.
func (p *pipeline) generate(ctx context.Context, s State) (State, error) {
	switch {
	case s.Plan.Route == graphrag.RouteDirect:
		s.Answer = p.direct(ctx, &s)
		return s, nil
	case s.ToolText != "":
		s.Answer = graphrag.Answer{Text: s.ToolText, Citations: citations(s.Kept), By: string(s.Plan.Route), Grounding: 1, Coverage: 1}
		// A capability that is off gives no answer: say so as an abstention.
		s.Answer.Abstained = s.ToolText == msgNoWeb || s.ToolText == msgNoLocalNoWeb || s.ToolText == msgNoFileTools
		if !s.Answer.Abstained && s.Plan.Route == graphrag.RouteFilesystem {
			p.phraseToolAnswer(ctx, &s)
		}
		return s, nil
	case (s.Retrieval == RetrievalEmpty || len(s.Kept) == 0) && s.Alone.Text != "":
		s.Answer = s.Alone
		return s, nil
	case s.Retrieval == RetrievalEmpty || len(s.Kept) == 0:
		s.Answer = graphrag.Answer{Text: nothingFound(s.Plan), Abstained: true, By: "abstain"}
		return s, nil
	}
	if p.deps.Writer != nil && !s.modelDown {
		req := graphrag.WriteRequest{Query: s.question(), History: s.History, Hits: s.Kept, Facts: s.Evidence}
		a, err := p.deps.Writer.Write(ctx, req, func(tok string) { graph.Emit(ctx, "token", tok) })
		s.addUsage("generate", a.Usage)
		switch {
		case err != nil:
			// It may have streamed: a view withdraws what it showed.
			graph.Emit(ctx, EventDraftRejected, "the model's answer could not be used")
			s.modelFailed(ctx, err, "generate: writer failed, answered extractively: %v", err)
		case strings.TrimSpace(a.Text) == "":
			s.fallback(ctx, "generate: writer returned an empty answer, answered extractively")
		case a.Abstained && s.Retrieval == RetrievalGood:
			// The passages match the question well but the model found no
			// answer in them: show what was found rather than "nothing
			// found", flagged, as the run without a model would.
			s.fallback(ctx, "generate: the model found no answer in passages that match the question well: answered extractively from them, flagged low confidence")
			s.Answer = extractive(s.question(), s.Kept, p.opts.MaxSentences)
			s.Answer.LowConfidence = true
			s.Short = shortAnswer(s.question(), s.Kept, answerSentences(s.Answer, s.Kept))
			return s, nil
		default:
			if a.By == "" {
				a.By = "llm"
			}
			s.Answer = a
			s.Short = shortAnswer(s.question(), s.Kept, answerSentences(a, s.Kept))
			return s, nil
		}
	}
	// A retry after an unsupported answer keeps only the best sentence.
	limit := p.opts.MaxSentences
	if s.Loops.Generate > 0 {
		limit = max(1, limit-s.Loops.Generate)
	}
	a, why := extractiveWhy(s.question(), s.Kept, limit)
	if why != "" {
		s.note("generate: abstained from %d passages: %s", len(s.Kept), why)
	}
	s.Answer = a
	s.Short = shortAnswer(s.question(), s.Kept, answerSentences(s.Answer, s.Kept))
	return s, nil
}

// phraseToolAnswer lets the writer model put a filesystem tool's result in
// words, the tool's text being its one fact. The tool's own text stays the
// answer when there is no model or the model fails: it is exact already.
func (p *pipeline) phraseToolAnswer(ctx context.Context, s *State) {
	if p.deps.Writer == nil || s.modelDown {
		return
	}
	req := graphrag.WriteRequest{Query: s.question(), History: s.History, Hits: s.Kept, Facts: []graphrag.Fact{{Text: s.ToolText}}}
	a, err := p.deps.Writer.Write(ctx, req, func(tok string) { graph.Emit(ctx, "token", tok) })
	s.addUsage("generate", a.Usage)
	switch {
	case err != nil:
		s.modelFailed(ctx, err, "generate: writer failed, gave the filesystem tool's answer as it is: %v", err)
	case strings.TrimSpace(a.Text) == "":
		s.fallback(ctx, "generate: writer returned an empty answer, gave the filesystem tool's answer as it is")
	default:
		if a.By == "" {
			a.By = "llm"
		}
		a.Grounding, a.Coverage = 1, 1
		if len(a.Citations) == 0 {
			a.Citations = s.Answer.Citations
		}
		s.Answer = a
	}
}

// answerSentences are the answer's quoted sentences, then the rest of the
// first kept hits': where a short answer is looked for, best first.
func answerSentences(a graphrag.Answer, kept []graphrag.Hit) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range a.Citations {
		if c.Quote != "" && !seen[c.Quote] {
			seen[c.Quote] = true
			out = append(out, c.Quote)
		}
	}
	for _, h := range kept[:min(3, len(kept))] {
		for _, sent := range splitSentences(h.Chunk.Text) {
			if !seen[sent] {
				seen[sent] = true
				out = append(out, sent)
			}
		}
	}
	return out
}

func citations(hits []graphrag.Hit) []graphrag.Citation {
	out := make([]graphrag.Citation, len(hits))
	for i, h := range hits {
		out[i] = graphrag.Citation{N: i + 1, Hit: h}
	}
	return out
}
