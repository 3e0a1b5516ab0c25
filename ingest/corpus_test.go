package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphrag/graphrag/ingest"
)

// evalCorpus finds shared/evaldata/rag_corpus.jsonl beside the repository
// root by walking up from the package directory; "" when absent.
func evalCorpus(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", "evaldata", "rag_corpus.jsonl")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func TestIngestEvalCorpus(t *testing.T) {
	path := evalCorpus(t)
	if path == "" {
		t.Skip("shared/evaldata not found beside the repository")
	}
	st := openStore(t, nil)
	sum, err := ingest.New(st, ingest.Options{}).Run(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Files != 1 || sum.Added != 5038 || len(sum.Problems) != 0 {
		t.Fatalf("summary %+v, want 1 file, 5038 rows, no problems", sum)
	}
	// Rows are ~550 characters on average: almost all stay one chunk.
	if sum.Chunks < 5038 || sum.Chunks > 5038*11/10 {
		t.Errorf("%d chunks for 5038 rows", sum.Chunks)
	}
	t.Logf("%d rows -> %d chunks in %v", sum.Added, sum.Chunks, sum.Duration)
	again, err := ingest.New(st, ingest.Options{}).Run(context.Background(), path)
	if err != nil || again.Unchanged != 5038 || again.Added+again.Updated+again.Deleted != 0 {
		t.Errorf("re-run: %+v %v", again, err)
	}
}

// BenchmarkIngestCorpus ingests rag_corpus.jsonl (5,038 rows, 2.7 MB) into
// a new SQLite store without an embedder and reports chunks/s:
//
//	go test ./ingest -run '^$' -bench IngestCorpus -benchtime 3x
func BenchmarkIngestCorpus(b *testing.B) {
	path := evalCorpus(b)
	if path == "" {
		b.Skip("shared/evaldata not found beside the repository")
	}
	var chunks int
	for b.Loop() {
		b.StopTimer()
		st, err := sqliteOpen(b)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		sum, err := ingest.New(st, ingest.Options{}).Run(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		chunks += sum.Chunks
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(chunks)/b.Elapsed().Seconds(), "chunks/s")
}
