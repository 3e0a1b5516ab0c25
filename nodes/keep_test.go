package nodes

import (
	"context"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestKeepRatioDev measures the relative score threshold on the dev
// questions: the share of gold passages retrieved in the top 10 that
// evaluate keeps, and how many hits it keeps, per ratio. The default is
// asserted to keep most gold while dropping most of the rest.
func TestKeepRatioDev(t *testing.T) {
	d := loadEval(t)
	stores := []struct {
		name string
		s    Searcher
	}{{"memory-bm25", d.searcher}, {"sqlite", sqliteStore(t)}}
	for _, store := range stores {
		st := store.s
		t.Run(store.name, func(t *testing.T) {
			type hitsQ struct {
				hits []graphrag.Hit
				gold map[string]bool
				q    string
			}
			var qs []hitsQ
			for _, q := range d.questions {
				res, err := st.Search(context.Background(), graphrag.Query{Text: q.Question, Mode: graphrag.ModeKeyword, K: 10})
				if err != nil {
					t.Fatal(err)
				}
				g := map[string]bool{}
				for _, id := range q.GoldPassages {
					g[id] = true
				}
				qs = append(qs, hitsQ{res.Hits, g, q.Question})
			}
			def := DefaultOptions()
			for _, ratio := range []float64{0.4, 0.5, 0.6, 0.7, 0.85} {
				opts := def
				opts.KeepRatio = ratio
				p, _ := newPipeline(Deps{}, opts)
				var inHits, inKept, kept int
				for _, q := range qs {
					k := p.keep(q.hits, graphrag.ModeKeyword, contentTerms(q.q))
					kept += len(k)
					for _, h := range q.hits {
						if q.gold[h.Chunk.DocID] {
							inHits++
						}
					}
					for _, h := range k {
						if q.gold[h.Chunk.DocID] {
							inKept++
						}
					}
				}
				share := float64(inKept) / float64(inHits)
				t.Logf("keep ratio %.2f: gold kept %.3f of retrieved, %.2f hits kept per question", ratio, share, float64(kept)/float64(len(qs)))
				if ratio == def.KeepRatio && share < 0.83 {
					t.Errorf("default keep ratio %.2f keeps %.3f of retrieved gold, want >= 0.83", ratio, share)
				}
			}
		})
	}
}
