package ingest_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/ingest"
)

// fuzzExts are the readers FuzzIngestFile feeds, by file extension: it goes
// through the public entry (a file of that extension given to Run), so it
// follows the readers whatever loader serves each extension.
var fuzzExts = []string{"pdf", "html", "gz", "txt.gz", "jsonl", "txt"}

// Per-input budgets of FuzzIngestFile. An input that needs more time or
// allocates more is a finding: hostile content must be refused within
// these, whatever it is.
const (
	fuzzTimeBudget = 30 * time.Second // a PDF parse is stopped at 2 s
	fuzzAllocLimit = 256 << 20        // bytes allocated by this process per input
)

// fuzzOptions are tight limits, so a bomb is caught fast.
var fuzzOptions = ingest.Options{
	Workers:             1,
	MaxFileSize:         1 << 20,
	MaxTextSize:         1 << 20,
	MaxDecompressedSize: 4 << 20,
	ParseTimeout:        2 * time.Second,
	ParseMemory:         256 << 20,
}

// FuzzIngestFile: any content, as a PDF, HTML, gzip, JSONL or text file,
// is ingested or skipped with a reason within the time and memory budget,
// never crashes, hangs or errs the run, and yields no more text than
// MaxTextSize allows.
//
//	go test ./ingest -run '^$' -fuzz FuzzIngestFile -fuzztime 60s
func FuzzIngestFile(f *testing.F) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	seeds := []struct {
		ext  uint8
		data []byte
	}{
		{0, tinyPDF("Hello PDF world about the pangolin census.")},
		{0, kidsCyclePDF},
		{0, parentCyclePDF},
		{0, bombPDF(f, 8, 1<<20)},
		{0, xrefBombPDF},
		{1, []byte(`<html><title>t</title><script>x</script><p>a &amp; b</p>`)},
		{1, bytes.Repeat([]byte("<a"), 2000)},
		{2, gz("plain text in a gzip file")},
		{2, gz(string(bytes.Repeat([]byte{'a'}, 8<<20)))},
		{3, gz("# notes\n\nthe okapi")},
		{4, []byte(`{"id": "r1", "text": "the axolotl"}` + "\n" + `{"id": "r2", "text": "x"` + "\n")},
		{4, []byte(`{"id": 1, "text": "t", "title": {"x": 1}}`)},
		{5, []byte("plain text about the quokka")},
	}
	for _, s := range seeds {
		f.Add(s.ext, s.data)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		ext := fuzzExts[int(which)%len(fuzzExts)]
		path := filepath.Join(t.TempDir(), "input."+ext)
		write(t, path, data)
		st := &memStore{}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		sum, err := runWithin(t, ctx, ingest.New(st, fuzzOptions), fuzzTimeBudget, path)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: run failed: %v", ext, err)
		}
		// A corpus of blank lines has no rows and no bad line; any other
		// file is ingested or skipped with a reason.
		if sum.Files != 1 || sum.Added+len(sum.Problems) == 0 && ext != "jsonl" {
			t.Fatalf("%s: neither ingested nor skipped: %+v", ext, sum)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > fuzzAllocLimit {
			t.Fatalf("%s: %d bytes allocated for a %d-byte input, budget %d", ext, alloc, len(data), fuzzAllocLimit)
		}
		text := 0
		for _, r := range st.recs {
			for _, c := range r.Chunks {
				text += len(c.Text)
			}
		}
		// Chunks overlap by at most ChunkOverlap per ChunkSize.
		if limit := int(fuzzOptions.MaxTextSize) * 2; text > limit {
			t.Fatalf("%s: %d bytes of chunks, over twice MaxTextSize", ext, text)
		}
	})
}

// runWithin runs an ingest and fails the test past budget.
func runWithin(t *testing.T, ctx context.Context, in *ingest.Ingester, budget time.Duration, paths ...string) (ingest.Summary, error) {
	t.Helper()
	type result struct {
		sum ingest.Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := in.Run(ctx, paths...)
		done <- result{sum, err}
	}()
	select {
	case r := <-done:
		return r.sum, r.err
	case <-time.After(budget):
		t.Fatalf("ingest took over %s", budget)
		return ingest.Summary{}, nil
	}
}

// memStore is an in-memory ingest.Store, so a fuzz input costs no
// database.
type memStore struct {
	mu   sync.Mutex
	recs []graphrag.Record
}

func (s *memStore) Put(_ context.Context, recs ...graphrag.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recs = append(s.recs, recs...)
	return nil
}

func (s *memStore) Delete(context.Context, ...string) error { return nil }

func (s *memStore) Manifest(context.Context) ([]graphrag.DocState, error) { return nil, nil }
