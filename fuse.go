package graphrag

import "slices"

// RRFConstant is the k of reciprocal rank fusion: a hit at rank r of a
// list scores 1/(RRFConstant+r), summed over the lists. 60 is the value of
// Cormack, Clarke and Büttcher (SIGIR 2009), the one hybrid search systems
// (and pgvector's hybrid example) use; the stores' hybrid searches and the
// RAG graph's fusion of parallel search legs share it, so that both fuse
// alike.
const RRFConstant = 60

// FuseRRF merges ranked lists (each best first) by reciprocal rank fusion
// and returns the best k hits (all of them when k <= 0). A hit is known by
// its chunk id; its Score becomes the RRF sum and its Ranks join the ranks
// the lists gave it, the best of each kind when several lists rank it
// alike (the keyword lists of several wordings of a question). Equal scores are ordered by the best rank in any
// list, then by first appearance (lists in order), so the result is
// deterministic and matches the stores' one-call hybrid search.
func FuseRRF(k int, lists ...[]Hit) []Hit {
	type entry struct {
		hit  Hit
		best int // best rank in any list
	}
	pos := make(map[string]int)
	var out []entry
	for _, list := range lists {
		for i, h := range list {
			rank := i + 1
			j, ok := pos[h.Chunk.ID]
			if !ok {
				j = len(out)
				pos[h.Chunk.ID] = j
				e := entry{hit: h, best: rank}
				e.hit.Score, e.hit.Ranks = 0, Ranks{}
				out = append(out, e)
			}
			e := &out[j]
			e.hit.Score += 1 / float64(RRFConstant+rank)
			e.best = min(e.best, rank)
			e.hit.Ranks.Keyword = bestRank(e.hit.Ranks.Keyword, h.Ranks.Keyword)
			e.hit.Ranks.Vector = bestRank(e.hit.Ranks.Vector, h.Ranks.Vector)
		}
	}
	slices.SortStableFunc(out, func(a, b entry) int {
		switch {
		case a.hit.Score > b.hit.Score:
			return -1
		case a.hit.Score < b.hit.Score:
			return 1
		}
		return a.best - b.best
	})
	if k > 0 && len(out) > k {
		out = out[:k]
	}
	hits := make([]Hit, len(out))
	for i, e := range out {
		hits[i] = e.hit
	}
	return hits
}

// bestRank is the better of two ranks, 0 meaning unranked.
func bestRank(a, b int) int {
	if a == 0 || b > 0 && b < a {
		return b
	}
	return a
}
