package nodes

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// fixtureStore ingests testdata/gotree, a few Go-like source files and
// notes, one chunk per file, into the in-memory BM25 store.
func fixtureStore(tb testing.TB) *memSearcher {
	tb.Helper()
	root := filepath.Join("testdata", "gotree")
	var hits []graphrag.Hit
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		id := "/src/" + rel
		hits = append(hits, graphrag.Hit{
			Chunk:  graphrag.Chunk{ID: graphrag.ChunkID(id, 0), DocID: id, Text: string(b)},
			Source: graphrag.Source{DocID: id, Path: id, Title: filepath.Base(rel), Type: strings.TrimPrefix(filepath.Ext(rel), "."), ModTime: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)},
		})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return newMemSearcher(hits)
}

var _ Prober = (*sqlite.Store)(nil)

// fixtureSQLite is testdata/gotree in an SQLite store, probed through its
// Probe as graphrag run does.
func fixtureSQLite(tb testing.TB) *sqlite.Store {
	tb.Helper()
	docs := map[string]string{}
	for _, h := range fixtureStore(tb).docs {
		docs[h.Source.Path] = h.Chunk.Text
	}
	return docStore(tb, docs, nil)
}
