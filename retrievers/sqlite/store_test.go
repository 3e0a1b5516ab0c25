package sqlite_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
	"github.com/graphrag/graphrag/retrievers/storetest"
)

var _ storetest.Store = (*sqlite.Store)(nil)

func TestConformance(t *testing.T) {
	var mu sync.Mutex
	paths := map[storetest.Store]string{}
	open := func(t *testing.T, e graphrag.Embedder) storetest.Store {
		path := filepath.Join(t.TempDir(), "store.db")
		s, err := sqlite.Open(context.Background(), path, sqlite.Options{Embedder: e})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		mu.Lock()
		paths[s] = path
		mu.Unlock()
		return s
	}
	reopen := func(t *testing.T, prev storetest.Store, e graphrag.Embedder) (storetest.Store, error) {
		mu.Lock()
		path := paths[prev]
		mu.Unlock()
		s, err := sqlite.Open(context.Background(), path, sqlite.Options{Embedder: e})
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	storetest.Run(t, open, reopen)
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := sqlite.Open(context.Background(), path, sqlite.Options{}); !errors.Is(err, sqlite.ErrNewerSchema) {
		t.Fatalf("err = %v, want ErrNewerSchema", err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "text.db")
	if err := os.WriteFile(notDB, []byte("this is not a database, just some text that is long enough to have a header"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path string }{
		{"empty path", ""},
		{"memory", ":memory:"},
		{"not a database", notDB},
		{"missing directory", filepath.Join(dir, "no", "such", "dir", "s.db")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if s, err := sqlite.Open(context.Background(), tc.path, sqlite.Options{}); err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
		})
	}
}

// TestIDsByteForByte: an ID is kept exactly; one PostgreSQL could not keep
// (a Latin-1 file name) is refused as the PostgreSQL store refuses it, so a
// corpus behaves the same in both (the conformance suite checks more).
func TestIDsByteForByte(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	latin1 := "/data/caf\xe9 \"x\".txt"
	bad := graphrag.Record{Doc: graphrag.Document{ID: latin1, Path: latin1, Title: "t", Type: "txt", Hash: "h"}, Chunks: []graphrag.Chunk{{Text: "quokka"}}}
	if err := s.Put(ctx, bad); !errors.Is(err, graphrag.ErrInvalidDocID) || !errors.Is(err, sqlite.ErrInvalidRecord) {
		t.Fatalf("Put of a Latin-1 id: %v, want ErrInvalidDocID", err)
	}
	id := "/data/café \"x\"\t.txt"
	rec := graphrag.Record{Doc: graphrag.Document{ID: id, Path: id, Title: "t", Type: "txt", Hash: "h"}, Chunks: []graphrag.Chunk{{Text: "quokka"}}}
	if err := s.Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	m, _ := s.Manifest(ctx)
	if len(m) != 1 || m[0].ID != id {
		t.Fatalf("manifest = %q, want the id byte for byte", m)
	}
	res, err := s.Search(ctx, graphrag.Query{Text: "quokka", Filters: graphrag.Filters{DocIDs: []string{id}}})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Chunk.DocID != id {
		t.Fatalf("search by doc id: %v %v", res.Hits, err)
	}
	if err := s.Put(ctx, rec); err != nil { // replace
		t.Fatal(err)
	}
	if err := s.Delete(ctx, id); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Stats(ctx); st.Documents != 0 || st.Chunks != 0 {
		t.Fatalf("after delete: %+v", st)
	}
}

func TestSourceFilterFoldsAnyScript(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recs := []graphrag.Record{
		{Doc: graphrag.Document{ID: "1", Path: "/home/me/Ärzte/Überblick.md", Title: "Überblick", Type: "md"}, Chunks: []graphrag.Chunk{{Text: "termin notiz"}}},
		{Doc: graphrag.Document{ID: "2", Path: "/home/me/ΣΗΜΕΙΩΣΕΙΣ.txt", Title: "x", Type: "txt"}, Chunks: []graphrag.Chunk{{Text: "termin notiz"}}},
		{Doc: graphrag.Document{ID: "3", Path: "/home/me/other.txt", Title: "y", Type: "txt"}, Chunks: []graphrag.Chunk{{Text: "termin notiz"}}},
	}
	if err := s.Put(ctx, recs...); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ source, want string }{{"ärzte", "1"}, {"ÜBERBLICK", "1"}, {"σημειωσεις", "2"}, {"OTHER", "3"}} {
		t.Run(tc.source, func(t *testing.T) {
			res, err := s.Search(ctx, graphrag.Query{Text: "termin", Filters: graphrag.Filters{Source: tc.source}})
			if err != nil || len(res.Hits) != 1 || res.Hits[0].Chunk.DocID != tc.want {
				t.Fatalf("hits %v, err %v; want only doc %s", res.Hits, err, tc.want)
			}
		})
	}
}
