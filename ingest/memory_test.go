package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag/ingest"
)

// logText is n bytes of a log: lines, no blank line, so the whole file is
// one paragraph to the chunker (the worst case for its memory).
func logText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "2026-11-25T01:%02d:%02d host-%d sshd[%d]: Accepted publickey for user%d from 10.0.%d.%d port %d.\n",
			i/60%60, i%60, i%7, 1000+i%9000, i%13, i%256, i%200, 40000+i%20000)
	}
	return b.String()[:n]
}

// peakHeap runs f and returns the largest live heap seen while it ran.
// The collector runs at GOGC=10 meanwhile, so the heap measured is close
// to what is live, not garbage waiting for a collection.
func peakHeap(f func()) uint64 {
	old := debug.SetGCPercent(10)
	defer debug.SetGCPercent(old)
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > base.HeapAlloc {
				peak = max(peak, m.HeapAlloc-base.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return peak
}

// BenchmarkIngestLargeFilePeakHeap reports the peak heap of ingesting one
// 20 MB log file, per byte of file.
//
//	go test ./ingest -run '^$' -bench LargeFilePeakHeap -benchtime 1x
func BenchmarkIngestLargeFilePeakHeap(b *testing.B) {
	const size = 20 << 20
	path := filepath.Join(b.TempDir(), "big.log")
	writeB(b, path, logText(size))
	for b.Loop() {
		st, err := sqliteOpen(b)
		if err != nil {
			b.Fatal(err)
		}
		peak := peakHeap(func() {
			if _, err := ingest.New(st, ingest.Options{}).Run(context.Background(), path); err != nil {
				b.Fatal(err)
			}
		})
		st.Close()
		b.ReportMetric(float64(peak)/size, "peak-heap/file-byte")
	}
}

func writeB(b *testing.B, path, data string) {
	b.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		b.Fatal(err)
	}
}

// TestBytesInFlightBounded: files are read and chunked only while their
// bytes fit in MaxBytesInFlight with those of the files not yet written,
// so large files are not held GOMAXPROCS at a time. Before, every worker
// held a file, whatever their sizes.
func TestBytesInFlightBounded(t *testing.T) {
	dir := t.TempDir()
	const size = 64 << 10
	for i := range 6 {
		write(t, filepath.Join(dir, fmt.Sprintf("f%d.big", i)), []byte(logText(size)))
	}
	var mu sync.Mutex
	loading, most := 0, 0
	overlap := sync.NewCond(&mu)
	loader := func(_ context.Context, _ string, data []byte) (ingest.Loaded, error) {
		mu.Lock()
		loading++
		most = max(most, loading)
		overlap.Broadcast()
		// Wait a little for another load to overlap this one, so that an
		// unbounded run shows it whatever the scheduling.
		deadline := time.Now().Add(200 * time.Millisecond)
		for loading < 2 && time.Now().Before(deadline) {
			mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			mu.Lock()
		}
		loading--
		mu.Unlock()
		return ingest.Loaded{Text: string(data)}, nil
	}
	for _, tc := range []struct {
		name     string
		inFlight int64
		want     int
	}{
		{"one file at a time", size, 1},
		{"two at a time", 2*size + size/2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			loading, most = 0, 0
			mu.Unlock()
			in := ingest.New(openStore(t, nil), ingest.Options{Workers: 4, MaxBytesInFlight: tc.inFlight,
				Loaders: map[string]ingest.Loader{"big": loader}})
			sum, err := in.Run(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Added != 6 {
				t.Fatalf("added %d, want 6 (%v)", sum.Added, sum.Problems)
			}
			if most > tc.want {
				t.Errorf("%d files loaded at once, want at most %d", most, tc.want)
			}
		})
	}
}

// TestChunkLargeKeepsEveryWord: text chunked by sections loses nothing
// and no chunk is over the size.
func TestChunkLargeKeepsEveryWord(t *testing.T) {
	text := logText(3<<20 + 12345)
	seen := map[string]bool{}
	for _, c := range ingest.ChunkLargeForTest(text, 1500, 200) {
		if n := len([]rune(c)); n > 1500 {
			t.Fatalf("chunk of %d runes", n)
		}
		for _, w := range strings.Fields(c) {
			seen[w] = true
		}
	}
	for _, w := range strings.Fields(text) {
		if !seen[w] {
			t.Fatalf("word %q lost", w)
		}
	}
}

// TestCorpusPartsBoundedByBytes: a corpus of long rows goes to the writer
// in parts of corpusPartBytes (8 MiB; 100 KiB here), not 256 rows (256
// rows of 64 MiB each would be 16 GiB at once).
func TestCorpusPartsBoundedByBytes(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	defer ingest.SetCorpusPartBytes(100 << 10)()
	row := strings.Repeat("the long row about the dugong. ", (40<<10)/31)
	for i := range 5 {
		fmt.Fprintf(&b, "{\"id\": \"r%d\", \"text\": %q}\n", i, row)
	}
	path := filepath.Join(dir, "long.jsonl")
	write(t, path, []byte(b.String()))
	parts := 0
	in := ingest.New(openStore(t, nil), ingest.Options{Progress: func(p ingest.Progress) {
		if p.Phase == "ingesting" && p.Path == path {
			parts++
		}
	}})
	sum, err := in.Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Added != 5 || parts < 2 {
		t.Fatalf("added %d in %d parts, want 5 rows in at least 2 parts", sum.Added, parts)
	}
}
