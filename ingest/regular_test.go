//go:build unix

package ingest_test

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/graphrag/graphrag/ingest"
)

// hangGuard is how long a test waits for a call that used to hang forever
// before it fails (a bound on a hang, not a speed measurement).
const hangGuard = 2 * time.Minute

// TestIngestFIFOIsSkipped: a named pipe given by name (as `graphrag ingest
// p.txt` or POST /v1/ingest pass it) is skipped as not a regular file; it
// used to block in open() forever, waiting for a writer.
func TestIngestFIFOIsSkipped(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "p.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	write(t, filepath.Join(dir, "notes.txt"), []byte("The quokka count rose."))
	for _, tc := range []struct {
		name  string
		paths []string
		added int
	}{
		{"explicit path", []string{fifo}, 0},
		{"inside a directory", []string{dir}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := ingest.New(openStore(t, nil), ingest.Options{})
			type result struct {
				sum ingest.Summary
				err error
			}
			done := make(chan result, 1)
			go func() {
				sum, err := in.Run(context.Background(), tc.paths...)
				done <- result{sum, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(hangGuard):
				t.Fatalf("ingest of a FIFO did not return within %s", hangGuard)
			}
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := r.sum.Skipped[ingest.ReasonNotRegular]; got != 1 {
				t.Errorf("skipped as not regular = %d, want 1 (problems %v)", got, r.sum.Problems)
			}
			if r.sum.Added != tc.added {
				t.Errorf("added %d, want %d", r.sum.Added, tc.added)
			}
		})
	}
}
