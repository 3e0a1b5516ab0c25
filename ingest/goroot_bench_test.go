package ingest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/ingest"
)

// BenchmarkIngestGoroot ingests $(go env GOROOT)/src (Go source cut by
// declaration, everything else by section) into a new SQLite store
// without an embedder and reports chunks/s; issue 11 asks for at least
// 5,000:
//
//	go test ./ingest -run '^$' -bench IngestGoroot -benchtime 1x
func BenchmarkIngestGoroot(b *testing.B) {
	src := filepath.Join(goroot(b), "src")
	if _, err := os.Stat(src); err != nil {
		b.Skipf("no Go source tree at %s", src)
	}
	var chunks, files int
	for b.Loop() {
		b.StopTimer()
		st, err := sqliteOpen(b)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		sum, err := ingest.New(st, ingest.Options{}).Run(context.Background(), src)
		if err != nil {
			b.Fatal(err)
		}
		chunks += sum.Chunks
		files += sum.Added
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(chunks)/b.Elapsed().Seconds(), "chunks/s")
	b.ReportMetric(float64(chunks)/float64(b.N), "chunks")
	b.ReportMetric(float64(files)/float64(b.N), "docs")
}

// goroot is $(go env GOROOT).
func goroot(tb testing.TB) string {
	tb.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Skipf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}
