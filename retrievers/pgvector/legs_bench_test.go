package pgvector

import (
	"context"
	"sync"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/evals"
	"github.com/graphrag/graphrag/internal/pgtest"
	"github.com/graphrag/graphrag/retrievers/storetest"
)

// BenchmarkHybridOneStatement compares this store's hybrid search, one SQL
// statement (two CTEs fused by weighted RRF), with what offering its
// keyword and vector legs apart (nodes.LegSearcher) would cost: a keyword
// and a vector search sent at once on two connections, each as deep as the
// hybrid reads them, fused in Go. It is a latency estimate, not an exact
// equivalent (the keyword statement's candidate rules depend on k). The
// store does not offer legs yet: its fusion weighs the lists
// (Options.KeywordWeight, VectorWeight, RRFK) and breaks ties by doc_id in
// the database's collation, which a Go fusion must match exactly first.
//
//	GRAPHRAG_TEST_DATABASE_URL=... go test ./retrievers/pgvector -run '^$' -bench HybridOneStatement
func BenchmarkHybridOneStatement(b *testing.B) {
	url := pgtest.URL(b)
	schema := pgtest.NewSchema(b, url)
	migrateSchema(b, url, schema)
	ctx := context.Background()
	st, err := Open(ctx, url, Options{Schema: schema, Embedder: storetest.NewHashEmbedder(256)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	if _, err := evals.IngestCorpus(ctx, st, evals.BundledCorpus); err != nil {
		b.Fatal(err)
	}
	qs, _, err := evals.LoadQuestions(evals.BundledQuestions...)
	if err != nil {
		b.Fatal(err)
	}
	const k, depth = 10, 50 // depth: how deep the hybrid statement reads each list
	b.Run("one-statement", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := st.Search(ctx, graphrag.Query{Text: qs[i%len(qs)].Question, Mode: graphrag.ModeHybrid, K: k}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("two-legs-at-once", func(b *testing.B) {
		i := 0
		for b.Loop() {
			q := qs[i%len(qs)].Question
			var wg sync.WaitGroup
			lists := make([][]graphrag.Hit, 2)
			for j, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res, err := st.Search(ctx, graphrag.Query{Text: q, Mode: mode, K: depth})
					if err != nil {
						b.Error(err)
					}
					lists[j] = res.Hits
				}()
			}
			wg.Wait()
			graphrag.FuseRRF(k, lists...)
			i++
		}
	})
}
