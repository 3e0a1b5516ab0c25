package nodes

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// NoAnswer is the answer when the files hold nothing relevant.
const NoAnswer = "No relevant information found in your files."

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
		return s, nil
	case s.Retrieval == RetrievalEmpty || len(s.Kept) == 0:
		s.Answer = graphrag.Answer{Text: NoAnswer, Abstained: true, By: "abstain"}
		return s, nil
	}
	if p.deps.Writer != nil {
		req := graphrag.WriteRequest{Query: s.question(), History: s.History, Hits: s.Kept, Facts: s.Evidence}
		a, err := p.deps.Writer.Write(ctx, req, func(tok string) { graph.Emit(ctx, "token", tok) })
		s.addUsage("generate", a.Usage)
		switch {
		case err != nil:
			s.note("generate: writer failed, answered extractively: %v", err)
		case strings.TrimSpace(a.Text) == "":
			s.note("generate: writer returned an empty answer, answered extractively")
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
	s.Answer = extractive(s.question(), s.Kept, limit)
	s.Short = shortAnswer(s.question(), s.Kept, answerSentences(s.Answer, s.Kept))
	return s, nil
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

// candidate is a sentence of a kept hit.
type candidate struct {
	text  string
	hit   int
	pos   int
	stems map[string]bool
}

// extractive builds an answer from the sentences that best cover the
// query's terms, each followed by [n], the number of its hit. Terms are
// weighted by their query weight and by how few kept hits contain them;
// earlier sentences and better-ranked hits break ties.
func extractive(query string, kept []graphrag.Hit, limit int) graphrag.Answer {
	terms := contentTerms(query)
	var cands []candidate
	df := make(map[string]int)
	for i, h := range kept {
		hs := stemSet(h.Source.Title + " " + h.Chunk.Text)
		for _, t := range terms {
			if hs[t.Stem] {
				df[t.Stem]++
			}
		}
		for j, sent := range splitSentences(h.Chunk.Text) {
			// The title counts towards what a sentence is about: passages
			// often say "he" for their subject.
			st := stemSet(sent)
			for k := range stemSet(h.Source.Title) {
				if !st[k] {
					st[k] = false
				}
			}
			cands = append(cands, candidate{text: sent, hit: i, pos: j, stems: st})
		}
	}
	weight := func(t term) float64 {
		return t.Weight * (1 + math.Log(float64(len(kept)+1)/float64(df[t.Stem]+1)))
	}
	covered := make(map[string]bool)
	var chosen []candidate
	for len(chosen) < limit {
		best, bestScore := -1, 0.0
		for i, c := range cands {
			if slices.ContainsFunc(chosen, func(x candidate) bool { return x.hit == c.hit && x.pos == c.pos }) {
				continue
			}
			var sc float64
			for _, t := range terms {
				in, ok := c.stems[t.Stem]
				if !ok {
					continue
				}
				w := weight(t)
				if !in { // only in the title
					w *= 0.3
				}
				if covered[t.Stem] {
					w *= 0.2
				}
				sc += w
			}
			sc *= 1 / (1 + 0.1*float64(c.pos)) / (1 + 0.05*float64(c.hit))
			if sc > bestScore {
				best, bestScore = i, sc
			}
		}
		if best < 0 || (len(chosen) > 0 && bestScore < 0.5) {
			break
		}
		c := cands[best]
		chosen = append(chosen, c)
		for _, t := range terms {
			if c.stems[t.Stem] {
				covered[t.Stem] = true
			}
		}
	}
	if len(chosen) == 0 && len(cands) > 0 {
		chosen = append(chosen, cands[0])
	}
	// Present in reading order: by hit, then by position.
	slices.SortStableFunc(chosen, func(a, b candidate) int {
		if a.hit != b.hit {
			return a.hit - b.hit
		}
		return a.pos - b.pos
	})
	var b strings.Builder
	cited := map[int]int{}
	var cites []graphrag.Citation
	for i, c := range chosen {
		n, ok := cited[c.hit]
		if !ok {
			n = len(cites) + 1
			cited[c.hit] = n
			cites = append(cites, graphrag.Citation{N: n, Hit: kept[c.hit], Quote: c.text})
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s [%d]", c.text, n)
	}
	return graphrag.Answer{Text: b.String(), Citations: cites, By: "extractive"}
}
