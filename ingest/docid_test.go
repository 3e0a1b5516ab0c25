package ingest_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/graphrag/graphrag/ingest"
)

// A file whose name no store can keep as an id (Latin-1 bytes) is skipped
// with its reason; the other files of its batch are written, and the run
// goes on (issue 13, item 7: it used to fail the batch on every run).
func TestInvalidDocumentIDIsSkipped(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "caf\xe9.txt"), []byte("latin-1 name about the ocelot"))
	write(t, filepath.Join(dir, "a.txt"), []byte("first good file about the tapir"))
	write(t, filepath.Join(dir, "b.txt"), []byte("second good file about the okapi"))
	st := openStore(t, nil)
	sum, err := ingest.New(st, ingest.Options{}).Run(context.Background(), dir)
	if err != nil {
		t.Fatalf("ingest failed: %v (%+v)", err, sum)
	}
	if sum.Added != 2 || sum.Skipped[ingest.ReasonInvalidID] != 1 {
		t.Errorf("added %d, skipped %v; want 2 added and the Latin-1 name skipped", sum.Added, sum.Skipped)
	}
}
