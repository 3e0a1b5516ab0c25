//go:build unix

package ingest

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenRegularRefusesFIFO: the open-time check that covers a file
// swapped for a FIFO after the walk listed it. Opening the FIFO must not
// block (no writer ever comes) and must say it is not a regular file.
func TestOpenRegularRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "swapped.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	fh, err := openRegular(fifo)
	if err == nil {
		fh.Close()
		t.Fatal("a FIFO was opened as a regular file")
	}
	if !errors.Is(err, errNotRegular) {
		t.Fatalf("err = %v, want errNotRegular", err)
	}
}
