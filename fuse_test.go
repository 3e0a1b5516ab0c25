package graphrag_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/graphrag/graphrag"
)

func hit(id string, r graphrag.Ranks) graphrag.Hit {
	return graphrag.Hit{Chunk: graphrag.Chunk{ID: id, Text: "text of " + id}, Score: 7, Ranks: r}
}

func TestFuseRRF(t *testing.T) {
	kw := []graphrag.Hit{hit("a", graphrag.Ranks{Keyword: 1}), hit("b", graphrag.Ranks{Keyword: 2}), hit("c", graphrag.Ranks{Keyword: 3})}
	vec := []graphrag.Hit{hit("c", graphrag.Ranks{Vector: 1}), hit("d", graphrag.Ranks{Vector: 2}), hit("a", graphrag.Ranks{Vector: 3})}
	for _, tc := range []struct {
		name  string
		k     int
		lists [][]graphrag.Hit
		want  string
	}{
		// a: 1/61+1/63, c: 1/63+1/61 (equal: a's best rank 1 came first),
		// then b (rank 2) and d (rank 2) tie: b came first.
		{"two legs", 0, [][]graphrag.Hit{kw, vec}, "[a{1 3} c{3 1} b{2 0} d{0 2}]"},
		{"cut to k", 2, [][]graphrag.Hit{kw, vec}, "[a{1 3} c{3 1}]"},
		{"one list keeps its order", 0, [][]graphrag.Hit{vec}, "[c{0 1} d{0 2} a{0 3}]"},
		{"no lists", 5, nil, "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := graphrag.FuseRRF(tc.k, tc.lists...)
			var desc []string
			for _, h := range got {
				desc = append(desc, fmt.Sprintf("%s%v", h.Chunk.ID, h.Ranks))
				want := 0.0
				for _, list := range tc.lists {
					for i, x := range list {
						if x.Chunk.ID == h.Chunk.ID {
							want += 1 / float64(graphrag.RRFConstant+i+1)
						}
					}
				}
				if math.Abs(h.Score-want) > 1e-12 {
					t.Errorf("%s: score %v, want the RRF sum %v", h.Chunk.ID, h.Score, want)
				}
				if h.Chunk.Text != "text of "+h.Chunk.ID {
					t.Errorf("%s: chunk not kept", h.Chunk.ID)
				}
			}
			if s := fmt.Sprint(desc); s != tc.want && !(len(desc) == 0 && tc.want == "[]") {
				t.Errorf("FuseRRF = %s, want %s", s, tc.want)
			}
		})
	}
}

// TestFuseRRFBestRanks: lists of several wordings of one question rank a
// hit more than once in a kind; it keeps the best rank of each kind.
func TestFuseRRFBestRanks(t *testing.T) {
	q1 := []graphrag.Hit{hit("b", graphrag.Ranks{Keyword: 1}), hit("a", graphrag.Ranks{Keyword: 2})}
	q2 := []graphrag.Hit{hit("a", graphrag.Ranks{Keyword: 1, Vector: 4}), hit("b", graphrag.Ranks{Keyword: 3})}
	q3 := []graphrag.Hit{hit("a", graphrag.Ranks{Vector: 2})}
	got := map[string]graphrag.Ranks{}
	for _, h := range graphrag.FuseRRF(0, q1, q2, q3) {
		got[h.Chunk.ID] = h.Ranks
	}
	want := map[string]graphrag.Ranks{"a": {Keyword: 1, Vector: 2}, "b": {Keyword: 1}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ranks %v, want %v", got, want)
	}
}
