package nodes

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// BenchmarkTrainRouter is what `go generate ./nodes` costs: the features
// of every row, then training the router on all its data twice (once to
// fit the temperature).
func BenchmarkTrainRouter(b *testing.B) {
	rows, err := loadTrainingRows()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		trainRouter(featurize(rows))
	}
}

// BenchmarkFirstRoute is a process's first route decision without a
// language model: decoding the shipped model plus one decision, with its
// keyword probe, over a store just opened. "fixture" is the small tree of
// testdata/gotree in memory; "sqlite" the dev corpus (5,038 passages of
// ../shared/evaldata) in an SQLite file opened afresh for each decision,
// so that the first query pays for preparing its statements. The issue's
// budget is under 5 ms (ms/route).
func BenchmarkFirstRoute(b *testing.B) {
	queries := []string{
		"how does the scheduler pick the next job",
		"what is io.EOF",
		"who directed the film about the whaling voyage",
		"book a table for two tonight",
		"how many pdfs are in my downloads folder",
	}
	ctx := context.Background()
	run := func(b *testing.B, open func() (Searcher, func())) {
		b.ReportAllocs()
		var total time.Duration
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			st, closeStore := open()
			defaultClassifierOnce = sync.Once{}
			b.StartTimer()
			start := time.Now()
			p, err := newPipeline(Deps{Searcher: st}, DefaultOptions())
			if err != nil {
				b.Fatal(err)
			}
			if _, _, _, err := p.plan(ctx, queries[i%len(queries)], nil, false); err != nil {
				b.Fatal(err)
			}
			total += time.Since(start)
			b.StopTimer()
			closeStore()
			b.StartTimer()
		}
		b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/route")
	}
	b.Run("fixture", func(b *testing.B) {
		st := fixtureStore(b)
		run(b, func() (Searcher, func()) { return st, func() {} })
	})
	b.Run("sqlite", func(b *testing.B) {
		dir := evalDir(b)
		if dir == "" {
			b.Skip("shared/evaldata not found beside the repository")
		}
		path := filepath.Join(b.TempDir(), "store.db")
		st, err := sqlite.Open(ctx, path, sqlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
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
		st.Close()
		run(b, func() (Searcher, func()) {
			st, err := sqlite.Open(ctx, path, sqlite.Options{ReadOnly: true})
			if err != nil {
				b.Fatal(err)
			}
			return st, func() { st.Close() }
		})
	})
}
