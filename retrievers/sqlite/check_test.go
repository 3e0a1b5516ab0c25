package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// corruptPages overwrites a few bytes in every fourth page after the
// first, as a failing disk or a torn copy leaves a file.
func corruptPages(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	junk := []byte("\xde\xad\xbe\xef\xde\xad\xbe\xef\xde\xad\xbe\xef\xde\xad\xbe\xef")
	for off := int64(2 * page); off+page <= fi.Size(); off += 4 * page {
		if _, err := f.WriteAt(junk, off+100); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCheckFindsDamage(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var recs []graphrag.Record
	for i := range 300 {
		id := fmt.Sprintf("/notes/%03d.txt", i)
		recs = append(recs, graphrag.Record{Doc: graphrag.Document{ID: id, Path: id, Title: id, Type: "txt", Hash: "h"},
			Chunks: []graphrag.Chunk{{Text: fmt.Sprintf("note %d about the quokka, the wombat and the bilby number%d", i, i)}}})
	}
	if err := s.Put(ctx, recs...); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatalf("Check of an intact store: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	corruptPages(t, path)
	s, err = sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Skipf("the damage already fails Open: %v", err)
	}
	defer s.Close()
	if err := s.Check(ctx); !errors.Is(err, sqlite.ErrCorrupt) {
		t.Fatalf("Check of a damaged store: %v, want ErrCorrupt", err)
	}
}
