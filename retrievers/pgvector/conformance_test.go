package pgvector

import (
	"context"
	"sync"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/pgtest"
	"github.com/graphrag/graphrag/retrievers/storetest"
)

var _ storetest.Store = (*Store)(nil)

// openTestStore migrates a fresh schema and opens a store on it.
func openTestStore(t *testing.T, opts Options) (*Store, string) {
	t.Helper()
	url := pgtest.URL(t)
	if opts.Schema == "" {
		opts.Schema = pgtest.NewSchema(t, url)
		migrateSchema(t, url, opts.Schema)
	}
	st, err := Open(context.Background(), url, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st, opts.Schema
}

func migrateSchema(t testing.TB, url, schema string) {
	t.Helper()
	ctx := context.Background()
	pool, err := Connect(ctx, url, Options{Schema: schema})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer pool.Close()
	if _, err := Migrate(ctx, pool, schema); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
}

func TestConformance(t *testing.T) {
	url := pgtest.URL(t)
	var mu sync.Mutex
	schemas := map[storetest.Store]string{}
	open := func(t *testing.T, e graphrag.Embedder) storetest.Store {
		st, schema := openTestStore(t, Options{Embedder: e})
		mu.Lock()
		schemas[st] = schema
		mu.Unlock()
		return st
	}
	reopen := func(t *testing.T, prev storetest.Store, e graphrag.Embedder) (storetest.Store, error) {
		mu.Lock()
		schema := schemas[prev]
		mu.Unlock()
		st, err := Open(context.Background(), url, Options{Schema: schema, Embedder: e})
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	storetest.Run(t, open, reopen)
}
