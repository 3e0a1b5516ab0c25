package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/graphrag/graphrag"
)

// schemaV1 is the schema graphrag wrote before chunks had a heading,
// symbol, kind and line range.
const schemaV1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE documents (
	id TEXT PRIMARY KEY, path TEXT NOT NULL, title TEXT NOT NULL, type TEXT NOT NULL,
	hash TEXT NOT NULL, size INTEGER NOT NULL, mod_time INTEGER NOT NULL, metadata TEXT NOT NULL
) STRICT;
CREATE INDEX documents_type ON documents(type);
CREATE INDEX documents_mod_time ON documents(mod_time);
CREATE TABLE chunks (
	rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
	doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
	ordinal INTEGER NOT NULL, embedding BLOB
) STRICT;
CREATE INDEX chunks_doc ON chunks(doc_id, ordinal);
CREATE VIRTUAL TABLE chunks_fts USING fts5(title, text, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO meta VALUES ('embedder', ''), ('dimension', '0');
INSERT INTO documents VALUES ('/notes/old.md', '/notes/old.md', 'old.md', 'md', 'h1', 40, 0, '{}');
INSERT INTO chunks(rowid, id, doc_id, ordinal) VALUES (1, '/notes/old.md#0', '/notes/old.md', 0);
INSERT INTO chunks_fts(rowid, title, text) VALUES (1, 'old.md', 'The wombat was stored before the upgrade.');
PRAGMA user_version = 1;
`

// TestUpgradeFromV1: a store written before chunks had a place opens,
// keeps what it held (searchable, place unknown), and takes new chunks with
// their place.
func TestUpgradeFromV1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(schemaV1); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("Open a version 1 store: %v", err)
	}
	defer s.Close()
	var v int
	if err := s.DB().QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != schemaVersion {
		t.Fatalf("user_version = %d (%v), want %d", v, err, schemaVersion)
	}
	res, err := s.Search(ctx, graphrag.Query{Text: "wombat", Mode: graphrag.ModeKeyword})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("old chunk after upgrade: hits %v, err %v", res.Hits, err)
	}
	if h := res.Hits[0].Chunk; h.Text != "The wombat was stored before the upgrade." || h.Heading != "" || h.StartLine != 0 {
		t.Errorf("old chunk = %+v, want its text and an unknown place", h)
	}
	rec := graphrag.Record{Doc: graphrag.Document{ID: "/src/a.go", Path: "/src/a.go", Title: "a.go", Type: "go", Hash: "h2"},
		Chunks: []graphrag.Chunk{{Text: "func Wombat() {}", Heading: "func Wombat()", Symbol: "a.Wombat", Kind: "func", StartLine: 3, EndLine: 3}}}
	if err := s.Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	res, err = s.Search(ctx, graphrag.Query{Text: "Wombat", Mode: graphrag.ModeKeyword, Filters: graphrag.Filters{Types: []string{"go"}}})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("new chunk: hits %v, err %v", res.Hits, err)
	}
	if h := res.Hits[0].Chunk; h.Symbol != "a.Wombat" || h.Kind != "func" || h.StartLine != 3 || h.EndLine != 3 || h.Heading != "func Wombat()" {
		t.Errorf("new chunk = %+v, want its place", h)
	}
	s.Close()
	// Opening the upgraded store again changes nothing.
	s2, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	if st, _ := s2.Stats(ctx); st.Documents != 2 || st.Chunks != 2 {
		t.Errorf("stats after reopen = %+v, want 2 documents, 2 chunks", st)
	}
}
