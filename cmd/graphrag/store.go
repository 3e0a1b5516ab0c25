package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/pgvector"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// store is what the commands need of a store; both backends satisfy it.
type store interface {
	Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error)
	Put(ctx context.Context, recs ...graphrag.Record) error
	Delete(ctx context.Context, ids ...string) error
	Manifest(ctx context.Context) ([]graphrag.DocState, error)
	Stats(ctx context.Context) (graphrag.StoreStats, error)
	Close() error
}

var (
	_ store = (*sqlite.Store)(nil)
	_ store = (*pgvector.Store)(nil)
)

func isPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// openStore opens the configured store. create says whether a missing
// SQLite file may be created (ingest) or is an error that says to ingest
// first (run, chat, serve).
func (a *app) openStore(ctx context.Context, emb graphrag.Embedder, create bool) (store, error) {
	if isPostgresURL(a.store) {
		s, err := pgvector.Open(ctx, a.store, pgvector.Options{Schema: a.schema, Collection: a.collection, Embedder: emb})
		if errors.Is(err, graphrag.ErrUnavailable) {
			return nil, fmt.Errorf("open PostgreSQL store (collection %q): %w; is PostgreSQL running and reachable at that address? "+
				"Start it (scripts/db-up.sh, or docker compose up -d db) or fix --store; the URL may set connect_timeout (seconds, default %d)",
				a.collection, err, int(pgvector.DefaultConnectTimeout.Seconds()))
		}
		if err != nil {
			return nil, fmt.Errorf("open PostgreSQL store (collection %q): %w", a.collection, err)
		}
		return s, nil
	}
	path := a.store
	if !create {
		if _, err := os.Stat(path); os.IsNotExist(err) {
			return nil, fmt.Errorf("no store at %s yet: run `graphrag ingest PATH...` first (or pass --store)", path)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create the store's directory: %w", err)
	}
	s, err := sqlite.Open(ctx, path, sqlite.Options{Embedder: emb})
	if err != nil && !create {
		// Another user's store, or one on read-only media, cannot be
		// opened for writing; questions only read it.
		if ro, rerr := sqlite.Open(ctx, path, sqlite.Options{Embedder: emb, ReadOnly: true}); rerr == nil {
			return ro, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return s, nil
}
