package pgvector

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/pgtest"
	"github.com/graphrag/graphrag/retrievers/storetest"
	"github.com/jackc/pgx/v5"
)

var t0 = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

func rec(id, title string, texts ...string) graphrag.Record {
	r := graphrag.Record{Doc: graphrag.Document{ID: id, Path: "/c/" + id + ".txt", Title: title, Type: "txt", Hash: "h-" + id, ModTime: t0}}
	for i, tx := range texts {
		r.Chunks = append(r.Chunks, graphrag.Chunk{Ordinal: i, Text: tx})
	}
	return r
}

func TestMigrateIsIdempotentAndReportsStatus(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.NewSchema(t, url)
	ctx := context.Background()
	pool, err := Connect(ctx, url, Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()

	// A schema that does not exist yet: all pending, nothing created.
	absent, err := Status(ctx, pool, schema+"_absent")
	if err != nil || len(absent) == 0 || absent[0].Applied {
		t.Fatalf("status of a missing schema = %+v, %v; want pending migrations", absent, err)
	}
	var created bool
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_namespace WHERE nspname = $1)`, schema+"_absent").Scan(&created); err != nil || created {
		t.Fatalf("Status created the schema (%v, %v)", created, err)
	}
	st, err := Status(ctx, pool, schema)
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != len(absent) || st[0].Applied {
		t.Fatalf("status before migrating = %+v, want pending migrations", st)
	}
	if _, err := Open(ctx, url, Options{Schema: schema}); !errors.Is(err, ErrNotMigrated) || !strings.Contains(err.Error(), "graphrag migrate up") {
		t.Fatalf("Open before Migrate: err = %v, want ErrNotMigrated telling to run graphrag migrate up", err)
	}
	applied, err := Migrate(ctx, pool, schema)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) != len(st) {
		t.Fatalf("first Migrate applied %d, want %d", len(applied), len(st))
	}
	again, err := Migrate(ctx, pool, schema)
	if err != nil || len(again) != 0 {
		t.Fatalf("second Migrate = %v, %v; want nothing to do", again, err)
	}
	st, err = Status(ctx, pool, schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range st {
		if !m.Applied || m.AppliedAt.IsZero() || !strings.HasSuffix(m.Name, ".sql") {
			t.Errorf("after Migrate: %+v, want applied", m)
		}
	}
	s, err := Open(ctx, url, Options{Schema: schema})
	if err != nil {
		t.Fatalf("Open after Migrate: %v", err)
	}
	s.Close()
}

// TestMigrateExplainsMissingExtension runs Migrate as the (non-superuser)
// test role in a fresh database without pgvector: the error must say what a
// superuser has to run.
func TestMigrateExplainsMissingExtension(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var super bool
	if err := conn.QueryRow(ctx, `SELECT rolsuper FROM pg_roles WHERE rolname = current_user`).Scan(&super); err != nil {
		t.Fatal(err)
	}
	if super {
		t.Skip("the test role is a superuser: it can always create the extension")
	}
	var b [4]byte
	rand.Read(b[:])
	db := "graphrag_noext_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		t.Skipf("the test role cannot create a database (%v); scripts/db-up.sh grants CREATEDB", err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		c, err := pgx.Connect(ctx, url)
		if err == nil {
			_, err = c.Exec(ctx, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)")
			c.Close(ctx)
		}
		if err != nil {
			t.Errorf("drop database %s: %v", db, err)
		}
	})
	cfg, _ := pgx.ParseConfig(url)
	otherURL := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Password, cfg.Host, cfg.Port, db)
	pool, err := Connect(ctx, otherURL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	_, err = Migrate(ctx, pool, "")
	t.Logf("Migrate: %v", err)
	if !errors.Is(err, ErrNoVectorExtension) {
		t.Fatalf("err = %v, want ErrNoVectorExtension", err)
	}
	for _, want := range []string{"superuser", "CREATE EXTENSION IF NOT EXISTS vector", db} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestOptionsValidation(t *testing.T) {
	tests := []struct {
		name string
		opts Options
	}{
		{"schema with quote", Options{Schema: `x"; DROP TABLE chunks; --`}},
		{"schema upper case", Options{Schema: "Graphrag"}},
		{"collection with NUL", Options{Collection: "a\x00b"}},
		{"ef_search too large", Options{EfSearch: 5000}},
		{"negative weight", Options{KeywordWeight: -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Connect(context.Background(), "postgres://nobody@127.0.0.1:1/x", tc.opts); !errors.Is(err, ErrInvalidOptions) {
				t.Errorf("err = %v, want ErrInvalidOptions", err)
			}
		})
	}
}

func TestTextSearchConfig(t *testing.T) {
	t.Run("english stems", func(t *testing.T) {
		st, _ := openTestStore(t, Options{TextSearchConfig: "english"})
		ctx := context.Background()
		if err := st.Put(ctx, rec("run", "Notes", "She was running every morning")); err != nil {
			t.Fatal(err)
		}
		res, err := st.Search(ctx, graphrag.Query{Text: "runs", Mode: graphrag.ModeKeyword})
		if err != nil || len(res.Hits) != 1 {
			t.Fatalf("hits = %+v, %v; want the stemmed match", res.Hits, err)
		}
	})
	t.Run("simple by default does not stem", func(t *testing.T) {
		st, _ := openTestStore(t, Options{})
		ctx := context.Background()
		if err := st.Put(ctx, rec("run", "Notes", "She was running every morning", "Мы читаем книги")); err != nil {
			t.Fatal(err)
		}
		res, err := st.Search(ctx, graphrag.Query{Text: "runs", Mode: graphrag.ModeKeyword})
		if err != nil || len(res.Hits) != 0 {
			t.Fatalf("hits = %+v, %v; want none", res.Hits, err)
		}
		res, err = st.Search(ctx, graphrag.Query{Text: "КНИГИ", Mode: graphrag.ModeKeyword})
		if err != nil || len(res.Hits) != 1 || res.Hits[0].Chunk.ID != "run#1" {
			t.Fatalf("non-English word: hits = %+v, %v; want run#1", res.Hits, err)
		}
	})
	t.Run("unknown configuration", func(t *testing.T) {
		st, _ := openTestStore(t, Options{TextSearchConfig: "klingon"})
		err := st.Put(context.Background(), rec("x", "X", "y"))
		if !errors.Is(err, ErrInvalidOptions) || !strings.Contains(err.Error(), "klingon") {
			t.Fatalf("err = %v, want ErrInvalidOptions naming the configuration", err)
		}
	})
	t.Run("reopen with another configuration", func(t *testing.T) {
		st, schema := openTestStore(t, Options{TextSearchConfig: "english"})
		if err := st.Put(context.Background(), rec("x", "X", "y")); err != nil {
			t.Fatal(err)
		}
		_, err := Open(context.Background(), pgtest.URL(t), Options{Schema: schema, TextSearchConfig: "simple"})
		if !errors.Is(err, ErrInvalidOptions) {
			t.Fatalf("err = %v, want ErrInvalidOptions", err)
		}
	})
}

// TestHybridFallsBackToVector drops the collection's text-search
// configuration under it: the full-text leg fails, the hybrid query answers
// from the vector leg and says so; a keyword query reports the error.
func TestHybridFallsBackToVector(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.NewSchema(t, url)
	migrateSchema(t, url, schema)
	ctx := context.Background()
	pool, err := Connect(ctx, url, Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `CREATE TEXT SEARCH CONFIGURATION doomed (COPY = simple)`); err != nil {
		t.Fatal(err)
	}
	st, _ := openTestStore(t, Options{Schema: schema, Embedder: storetest.NewHashEmbedder(32), TextSearchConfig: "doomed"})
	if err := st.Put(ctx, rec("a", "A", "kingfisher dives"), rec("b", "B", "heron waits")); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `DROP TEXT SEARCH CONFIGURATION doomed`); err != nil {
		t.Fatal(err)
	}
	res, err := st.Search(ctx, graphrag.Query{Text: "kingfisher dives", Mode: graphrag.ModeHybrid, K: 1})
	if err != nil {
		t.Fatalf("hybrid: %v", err)
	}
	if res.Mode != graphrag.ModeVector || !strings.Contains(res.Note, "full-text") || len(res.Hits) != 1 || res.Hits[0].Chunk.ID != "a#0" {
		t.Fatalf("hybrid = mode %q note %q hits %+v; want vector fallback finding a#0", res.Mode, res.Note, res.Hits)
	}
	if _, err := st.Search(ctx, graphrag.Query{Text: "kingfisher", Mode: graphrag.ModeKeyword}); err == nil {
		t.Fatal("keyword search with a dropped configuration succeeded")
	}
}

// TestHostileInputIsData throws SQL, quotes, NUL bytes, invalid UTF-8 and
// 100 KB strings at every filter and at Put; nothing may change the schema,
// and every call gets a result or a clear error.
func TestHostileInputIsData(t *testing.T) {
	st, schema := openTestStore(t, Options{Embedder: storetest.NewHashEmbedder(16)})
	ctx := context.Background()
	if err := st.Put(ctx, rec("plain", "Plain", "the owl hoots at night")); err != nil {
		t.Fatal(err)
	}
	hostile := []string{
		`'; DROP TABLE chunks; --`, `" OR 1=1 --`, `%`, `_`, `\`, "\x00", "a\x00b", "\xff\xfe", `$1`, `@coll`,
		`owl') OR ('1'='1`, strings.Repeat("'", 100*1024), strings.Repeat("owl ", 25*1024),
	}
	for i, h := range hostile {
		for _, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid} {
			name := fmt.Sprintf("%d/%s", i, mode)
			f := graphrag.Filters{Types: []string{h}, Source: h, DocIDs: []string{h}}
			res, err := st.Search(ctx, graphrag.Query{Text: "owl " + h, Mode: mode, Filters: f})
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else if len(res.Hits) != 0 {
				t.Errorf("%s: hostile filters matched %v", name, res.Hits)
			}
			res, err = st.Search(ctx, graphrag.Query{Text: "owl " + h, Mode: mode})
			if err != nil || len(res.Hits) == 0 {
				t.Errorf("%s: unfiltered owl query = %v, %v; want the owl", name, res.Hits, err)
			}
		}
	}
	// A hostile document ID is stored and found as data, except what
	// PostgreSQL text cannot hold, which is refused clearly.
	evil := `x'); DELETE FROM documents; --`
	if err := st.Put(ctx, rec(evil, evil, "owl")); err != nil {
		t.Fatalf("Put hostile id: %v", err)
	}
	for _, bad := range []string{"nul\x00id", "bad\xffid"} {
		if err := st.Put(ctx, rec(bad, "t", "x")); !errors.Is(err, ErrInvalidRecord) {
			t.Errorf("Put id %q: err = %v, want ErrInvalidRecord", bad, err)
		}
	}
	m, err := st.Manifest(ctx)
	if err != nil || len(m) != 2 {
		t.Fatalf("manifest = %v, %v; want plain and the hostile id", m, err)
	}
	var tables int
	if err := st.pool.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = $1`, schema).Scan(&tables); err != nil || tables != 6 {
		t.Fatalf("tables in schema = %d, %v; want 6 (collections, documents, chunks, lexeme_df, collection_meta, migrations)", tables, err)
	}
}

// TestConcurrentIngestsOfOneCollection runs two stores (two pools, as two
// processes would) replacing the same documents at once. The advisory lock
// serialises them: every Put succeeds and every document ends whole, in one
// version.
func TestConcurrentIngestsOfOneCollection(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.NewSchema(t, url)
	migrateSchema(t, url, schema)
	ctx := context.Background()
	var stores []*Store
	for range 2 {
		s, err := Open(ctx, url, Options{Schema: schema, Embedder: storetest.NewHashEmbedder(16)})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores = append(stores, s)
	}
	const docs, rounds = 20, 8
	var wg sync.WaitGroup
	errs := make(chan error, 2*rounds)
	for w, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				var recs []graphrag.Record
				version := fmt.Sprintf("w%dr%d", w, r)
				for d := range docs {
					n := 1 + (w+r+d)%4 // chunk counts differ between versions
					texts := make([]string, n)
					for i := range texts {
						texts[i] = "version " + version
					}
					rr := rec(fmt.Sprintf("doc%02d", d), "T", texts...)
					rr.Doc.Hash = version
					recs = append(recs, rr)
				}
				if err := s.Put(ctx, recs...); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent Put: %v", err)
	}
	rows, err := stores[0].pool.Query(ctx, `
		SELECT d.id, d.hash, count(c.*), count(DISTINCT c.text), bool_and(c.text = 'version ' || d.hash)
		FROM documents d LEFT JOIN chunks c ON c.collection_id = d.collection_id AND c.doc_id = d.id
		GROUP BY d.id, d.hash`)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var id, hash string
		var chunks, texts int
		var consistent bool
		if err := rows.Scan(&id, &hash, &chunks, &texts, &consistent); err != nil {
			t.Fatal(err)
		}
		n++
		if texts != 1 || !consistent || chunks == 0 {
			t.Errorf("%s: %d chunks, %d distinct texts, consistent=%v with hash %s: mixed versions", id, chunks, texts, consistent, hash)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != docs {
		t.Errorf("%d documents, want %d", n, docs)
	}
}

// TestCancelInsidePut cancels the context while Put holds the collection
// lock inside its transaction: Put fails with context.Canceled and the
// previous version of every document is intact.
func TestCancelInsidePut(t *testing.T) {
	st, _ := openTestStore(t, Options{Embedder: storetest.NewHashEmbedder(32)})
	ctx := context.Background()
	if err := st.Put(ctx, crashRecords("base")...); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- st.Put(cctx, crashRecords("cancelled")...) }()
	for !collectionLockHeld(t, st, false) {
		select {
		case err := <-done:
			t.Skipf("Put finished (%v) before it could be cancelled inside", err)
		default:
		}
		time.Sleep(200 * time.Microsecond)
	}
	cancel()
	err := <-done
	if err == nil {
		t.Skip("Put committed before the cancellation reached it")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	checkWhole(t, st, "base")
}
