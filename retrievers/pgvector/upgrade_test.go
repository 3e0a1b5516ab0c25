package pgvector

import (
	"context"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/pgtest"
	"github.com/jackc/pgx/v5"
)

// TestUpgradeKeepsChunks: a schema at version 4 (before chunks had a
// heading, symbol, kind and line range) migrated to the latest keeps its
// chunks searchable, with an unknown place, and takes new chunks with theirs.
func TestUpgradeKeepsChunks(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.NewSchema(t, url)
	ctx := context.Background()
	pool, err := Connect(ctx, url, Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	p, closeFn, err := provider(ctx, pool, schema, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 4); err != nil {
		closeFn()
		t.Fatalf("migrate to version 4: %v", err)
	}
	closeFn()
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SET LOCAL search_path TO "+pgx.Identifier{schema}.Sanitize()+", public"); err != nil {
		t.Fatal(err)
	}
	var coll int64
	if err := tx.QueryRow(ctx, `INSERT INTO collections(name) VALUES ($1) RETURNING id`, DefaultCollection).Scan(&coll); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO documents(collection_id, id, path, title, type, hash) VALUES ($1, 'old', '/notes/old.md', 'old.md', 'md', 'h1')`, coll); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO chunks(collection_id, doc_id, ordinal, title, text, ts_config)
		VALUES ($1, 'old', 0, 'old.md', 'The wombat was stored before the upgrade.', 'simple'::regconfig::oid)`, coll); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE collections SET chunk_count = 1 WHERE id = $1`, coll); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	if _, err := Migrate(ctx, pool, schema); err != nil {
		t.Fatalf("migrate to the latest version: %v", err)
	}
	st, err := Open(ctx, url, Options{Schema: schema})
	if err != nil {
		t.Fatalf("Open after upgrade: %v", err)
	}
	defer st.Close()
	res, err := st.Search(ctx, graphrag.Query{Text: "wombat upgrade", Mode: graphrag.ModeKeyword})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("old chunk after upgrade: hits %v, err %v", res.Hits, err)
	}
	if h := res.Hits[0].Chunk; h.Text != "The wombat was stored before the upgrade." || h.Heading != "" || h.Symbol != "" || h.StartLine != 0 || h.EndLine != 0 {
		t.Errorf("old chunk = %+v, want its text and an unknown place", h)
	}
	rec := graphrag.Record{Doc: graphrag.Document{ID: "/src/a.go", Path: "/src/a.go", Title: "a.go", Type: "go", Hash: "h2"},
		Chunks: []graphrag.Chunk{{Text: "func Numbat() {}", Heading: "func Numbat()", Symbol: "a.Numbat", Kind: "func", StartLine: 3, EndLine: 3}}}
	if err := st.Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	res, err = st.Search(ctx, graphrag.Query{Text: "Numbat", Mode: graphrag.ModeKeyword})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("new chunk: hits %v, err %v", res.Hits, err)
	}
	if h := res.Hits[0].Chunk; h.Symbol != "a.Numbat" || h.Kind != "func" || h.StartLine != 3 || h.EndLine != 3 || h.Heading != "func Numbat()" {
		t.Errorf("new chunk = %+v, want its place", h)
	}
}
