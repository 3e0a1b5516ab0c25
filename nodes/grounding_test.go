package nodes

import (
	"context"
	"slices"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestGroundingThresholdDev measures what the LowConfidence threshold
// separates on the dev questions. For each question the graph's kept hits
// are cited by two answers: the extractive one (supported by construction),
// and a sentence taken from an unrelated passage of the corpus (a
// hallucination that happens to share everyday words with the citations).
// The threshold must flag most hallucinations and none of the supported
// answers.
func TestGroundingThresholdDev(t *testing.T) {
	d := loadEval(t)
	p, err := newPipeline(Deps{Searcher: d.searcher}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var supported, unsupported []float64
	for i, q := range d.questions {
		s := State{Query: q.Question, Plan: graphrag.Plan{Route: graphrag.RouteVector, Query: q.Question}, Budget: Budget{}}
		s, err := p.retrieve(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		s, _ = p.evaluate(ctx, s)
		if len(s.Kept) == 0 {
			continue
		}
		a := extractive(q.Question, s.Kept, 3)
		supported = append(supported, checkAnswer(q.Question, a, s.Kept).Support)
		// A passage far from this question: a fixed stride through the corpus.
		other := d.searcher.docs[(i*7919+13)%len(d.searcher.docs)]
		sents := splitSentences(other.Chunk.Text)
		fake := graphrag.Answer{Text: sents[0] + " [1]", Citations: a.Citations}
		unsupported = append(unsupported, checkAnswer(q.Question, fake, s.Kept).Support)
	}
	slices.Sort(supported)
	slices.Sort(unsupported)
	pct := func(xs []float64, p float64) float64 { return xs[int(p*float64(len(xs)-1))] }
	t.Logf("grounding of extractive answers: min %.2f p10 %.2f; of unrelated sentences: p50 %.2f p90 %.2f max %.2f",
		supported[0], pct(supported, 0.1), pct(unsupported, 0.5), pct(unsupported, 0.9), unsupported[len(unsupported)-1])
	th := DefaultOptions().LowConfidence
	flagged := 0
	for _, g := range unsupported {
		if g < th {
			flagged++
		}
	}
	rate := float64(flagged) / float64(len(unsupported))
	t.Logf("LowConfidence %.2f flags %.3f of unrelated sentences and %d supported answers", th, rate, countBelow(supported, th))
	if rate < 0.95 || countBelow(supported, th) > 0 {
		t.Errorf("LowConfidence %.2f flags %.3f of hallucinations (want >= 0.95) and %d supported answers (want 0)", th, rate, countBelow(supported, th))
	}
}

func countBelow(xs []float64, th float64) int {
	n := 0
	for _, x := range xs {
		if x < th {
			n++
		}
	}
	return n
}
