package nodes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// manyWords is a query of n distinct short words.
func manyWords(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "w%dq ", i)
	}
	return b.String()
}

func TestCheckQuery(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		history []graphrag.Turn
		wantErr string
	}{
		{"ordinary", "Where do ospreys nest in Scandinavia?", nil, ""},
		{"at the word limit", manyWords(MaxQueryWords), nil, ""},
		{"too many words", manyWords(MaxQueryWords + 1), nil, "more than 2000 words"},
		{"too many bytes", strings.Repeat("a", MaxQueryBytes+1), nil, "bytes, more than"},
		{"at the byte limit", strings.Repeat("a", MaxQueryBytes), nil, ""},
		{"history question too long", "and when?", []graphrag.Turn{{Query: strings.Repeat("b ", MaxQueryWords+1)}}, "history turn 1"},
		{"long history answer is fine", "and when?", []graphrag.Turn{{Query: "who?", Answer: manyWords(3 * MaxQueryWords)}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckQuery(tt.query, tt.history)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("CheckQuery: %v", err)
				}
				return
			}
			if !errors.Is(err, graphrag.ErrInvalidQuery) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("CheckQuery = %v, want ErrInvalidQuery saying %q", err, tt.wantErr)
			}
		})
	}
}

// An oversized question is refused before routing, on every path through
// the graph: no search is run for it.
func TestOversizedQueryIsRefusedBeforeRouting(t *testing.T) {
	rec := &recordingSearcher{memSearcher: smallCorpus()}
	r, err := Build(Deps{Searcher: rec}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Invoke(context.Background(), State{Query: manyWords(MaxQueryWords + 1)})
	var ne *graph.NodeError
	if !errors.Is(err, graphrag.ErrInvalidQuery) || !errors.As(err, &ne) || ne.Node != NodeRoute {
		t.Fatalf("Invoke = %v, want the route node to refuse with ErrInvalidQuery", err)
	}
	if len(rec.queries) != 0 {
		t.Errorf("%d searches ran for a refused query", len(rec.queries))
	}
}

// cancellingJudge cancels the run while it judges, as a client that goes
// away during the last node does.
type cancellingJudge struct{ cancel context.CancelFunc }

func (j cancellingJudge) Judge(context.Context, string, graphrag.Answer, []graphrag.Hit) (graphrag.Judgement, error) {
	j.cancel()
	return graphrag.Judgement{Verdict: graphrag.VerdictOK, Reason: "supported"}, nil
}

// A run cancelled while its last node works ends with the cancellation,
// not with an answer as if nothing happened.
func TestNodesHonourCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := DefaultOptions()
	opts.JudgeBand = 1 // always ask the judge
	r, err := Build(Deps{Searcher: smallCorpus(), Judge: cancellingJudge{cancel}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Invoke(ctx, State{Query: "Where do ospreys nest in Scandinavia?"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Invoke = %v, want context.Canceled", err)
	}
}

// BenchmarkExtractKeywords shows the keyword extraction's cost per word
// staying flat as the query grows (it was quadratic: 34.8 s for 120,000
// distinct words). Compare ns/op across the sizes.
func BenchmarkExtractKeywords(b *testing.B) {
	for _, n := range []int{500, 2000, 8000, 32000} {
		q := manyWords(n)
		b.Run(fmt.Sprintf("words=%d", n), func(b *testing.B) {
			for b.Loop() {
				if got := extractKeywords(q); len(got) != n {
					b.Fatalf("%d keywords, want %d", len(got), n)
				}
			}
		})
	}
}

// BenchmarkInvokeAtQueryCap is the worst a question may cost the graph
// without a model: MaxQueryWords distinct words, routed, searched and
// answered on the small in-memory corpus.
func BenchmarkInvokeAtQueryCap(b *testing.B) {
	r, err := Build(Deps{Searcher: smallCorpus()}, DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	q := manyWords(MaxQueryWords)
	ctx := context.Background()
	for b.Loop() {
		if _, err := r.Invoke(ctx, State{Query: q}); err != nil {
			b.Fatal(err)
		}
	}
}
