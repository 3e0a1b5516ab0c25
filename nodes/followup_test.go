package nodes

import (
	"context"
	"testing"

	"github.com/graphrag/graphrag"
)

func TestFollowUp(t *testing.T) {
	hist := []graphrag.Turn{{Query: "Where do ospreys nest in Scandinavia?", Answer: "Near lakes [1]."}}
	tests := []struct {
		query string
		hist  []graphrag.Turn
		want  bool
	}{
		{"and how deep can they dive?", hist, true},
		{"what about kestrels?", hist, true},
		{"how deep can it dive", hist, true},
		{"how often should I feed the sourdough starter", hist, false},
		{"how deep can they dive?", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if _, got := followUp(tt.query, tt.hist); got != tt.want {
				t.Errorf("followUp(%q) = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
	t.Run("graph answers a follow-up from the earlier topic", func(t *testing.T) {
		r, err := Build(Deps{Searcher: smallCorpus()}, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.Invoke(context.Background(), State{Query: "and how deep can they dive?", History: hist})
		if err != nil {
			t.Fatal(err)
		}
		if s.Answer.Abstained || len(s.Answer.Citations) == 0 || s.Answer.Citations[0].Hit.Chunk.DocID != "osprey" {
			t.Errorf("answer %q (%s), want one citing the osprey note", s.Answer.Text, s.Plan.Reason)
		}
	})
}
