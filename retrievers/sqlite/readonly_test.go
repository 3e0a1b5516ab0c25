package sqlite_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// makeReadOnly makes dir and the files in it unwritable, as another user's
// store or read-only media are: by permissions, or for root (whom they do
// not stop) with the immutable attribute. It skips the test where neither
// works and undoes itself when the test ends.
func makeReadOnly(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{dir}
	for _, e := range entries {
		paths = append(paths, filepath.Join(dir, e.Name()))
	}
	if os.Geteuid() != 0 {
		for _, p := range paths {
			mode := os.FileMode(0o444)
			if p == dir {
				mode = 0o555
			}
			if err := os.Chmod(p, mode); err != nil {
				t.Fatal(err)
			}
		}
		t.Cleanup(func() {
			for _, p := range paths {
				_ = os.Chmod(p, 0o755)
			}
		})
		return
	}
	args := append([]string{"+i"}, paths...)
	if out, err := exec.Command("chattr", args...).CombinedOutput(); err != nil {
		t.Skipf("cannot make a read-only directory as root here (chattr: %v %s)", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("chattr", append([]string{"-i"}, paths...)...).Run() })
}

// A store that cannot be written (another user's, read-only media) can
// still be searched, opened read-only; writes say why they fail.
func TestReadOnlyStoreCanBeSearched(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := graphrag.Record{Doc: graphrag.Document{ID: "/n.txt", Path: "/n.txt", Title: "n", Type: "txt", Hash: "h"}, Chunks: []graphrag.Chunk{{Text: "the numbat eats termites"}}}
	if err := s.Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	makeReadOnly(t, dir)

	if rw, err := sqlite.Open(ctx, path, sqlite.Options{}); err == nil {
		rw.Close()
		t.Log("a read-write open worked on this system")
	}
	ro, err := sqlite.Open(ctx, path, sqlite.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open: %v", err)
	}
	defer ro.Close()
	res, err := ro.Search(ctx, graphrag.Query{Text: "numbat", Mode: graphrag.ModeKeyword})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("search: %v %v", res.Hits, err)
	}
	if st, err := ro.Stats(ctx); err != nil || st.Documents != 1 {
		t.Fatalf("stats: %+v %v", st, err)
	}
	if err := ro.Put(ctx, rec); !errors.Is(err, sqlite.ErrReadOnly) {
		t.Errorf("Put on a read-only store: %v, want ErrReadOnly", err)
	}
	if _, err := sqlite.Open(ctx, filepath.Join(dir, "none.db"), sqlite.Options{ReadOnly: true}); err == nil {
		t.Error("a read-only open of a missing store succeeded")
	}
}
