package nodes

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
	"github.com/graphrag/graphrag/retrievers/storetest"
)

// BenchmarkRetrieveQueries is the cost of multi-query retrieval: the
// retrieve subgraph on the SQLite store with hybrid legs (a hash embedder)
// over the dev corpus, searching each question alone (queries=1) and with
// two other wordings (queries=3: 6 legs in parallel instead of 2). It
// measures cost, not quality: the wordings are the question's keywords
// and their first half, not a model's rephrasings.
//
//	go test ./nodes -run '^$' -bench RetrieveQueries -benchtime 300x
func BenchmarkRetrieveQueries(b *testing.B) {
	dir := evalDir(b)
	if dir == "" {
		b.Skip("shared/evaldata not found beside the repository")
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{Embedder: storetest.NewHashEmbedder(384)})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var recs []graphrag.Record
	for _, h := range corpusHits(readJSONL[corpusRow](b, filepath.Join(dir, "rag_corpus.jsonl"))) {
		recs = append(recs, graphrag.Record{
			Doc:    graphrag.Document{ID: h.Source.DocID, Path: h.Source.Path, Title: h.Source.Title, Type: h.Source.Type, Hash: h.Source.DocID},
			Chunks: []graphrag.Chunk{{ID: h.Chunk.ID, DocID: h.Chunk.DocID, Text: h.Chunk.Text}},
		})
	}
	if err := st.Put(ctx, recs...); err != nil {
		b.Fatal(err)
	}
	if !st.HybridLegs() {
		b.Fatal("the store runs no hybrid legs: the benchmark needs them")
	}
	p, err := newPipeline(Deps{Searcher: st}, DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	questions := readJSONL[ragQuestion](b, filepath.Join(dir, "rag_questions.dev.jsonl"))
	for _, n := range []int{1, 3} {
		plans := make([]graphrag.Plan, len(questions))
		for i, q := range questions {
			plans[i] = graphrag.Plan{Route: graphrag.RouteHybrid, Query: q.Question}
			if kw := extractKeywords(q.Question); n > 1 {
				plans[i].Queries = []string{strings.Join(kw, " "), strings.Join(kw[:(len(kw)+1)/2], " ")}
			}
		}
		b.Run(fmt.Sprintf("queries=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := p.retrieve(ctx, State{Plan: plans[i%len(plans)]}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
