package main

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// searchBenchQueries are typed-as-you-go queries over Go's source tree,
// written for this benchmark (not taken from any evaluation set).
var searchBenchQueries = []string{
	"dial timeout", "http server shutdown", "json unmarshal struct tags", "mutex unlock",
	"goroutine leak", "read deadline", "utf8 decode rune", "sort slice stable", "context cancel",
	"tls handshake", "bufio scanner buffer", "filepath walk", "atomic compare and swap",
	"gzip writer", "template execute", "reflect deep equal", "errors is as", "select default case",
	"time ticker stop", "strconv parse float", "os exec command",
}

// BenchmarkSearchStore measures `graphrag search`'s store query and snippet
// work on a store named by GRAPHRAG_BENCH_STORE, e.g. one built with
//
//	graphrag --store /tmp/goroot.db ingest $(go env GOROOT)/src
//
// and reports the median and 90th percentile latency of one search.
func BenchmarkSearchStore(b *testing.B) {
	path := os.Getenv("GRAPHRAG_BENCH_STORE")
	if path == "" {
		b.Skip("set GRAPHRAG_BENCH_STORE to a SQLite store, e.g. one of $(go env GOROOT)/src")
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	// The first search loads the store's in-memory indexes; a user pays it
	// once per process, so it is measured apart.
	start := time.Now()
	if _, err := st.Search(ctx, graphrag.Query{Text: "warm up", K: 10, Mode: graphrag.ModeHybrid}); err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		q := searchBenchQueries[i%len(searchBenchQueries)]
		t0 := time.Now()
		res, err := st.Search(ctx, graphrag.Query{Text: q, K: 10, Mode: graphrag.ModeHybrid})
		if err != nil {
			b.Fatal(err)
		}
		for _, h := range res.Hits {
			_ = snippet(h.Chunk.Text, queryTerms(q), snippetRunes, ansiHighlight)
		}
		lat = append(lat, time.Since(t0))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "p90-ms")
}
