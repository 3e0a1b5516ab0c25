package main

import (
	"context"
	"os"
	"time"

	"github.com/graphrag/graphrag/retrievers/fstools"
)

// storeIndex is the store as the filesystem tools see it (fstools.Index):
// its documents and keyword search, and the sources report, so counts say
// what is not indexed and questions about the store ("when did I last
// ingest") are answered from its record.
type storeIndex struct {
	store
	app *app
}

var (
	_ fstools.Index         = storeIndex{}
	_ fstools.StoreReporter = storeIndex{}
)

// StoreReport is `graphrag sources` in the tools' terms, with the store's
// embedder and, for SQLite, its size on disk.
func (s storeIndex) StoreReport(ctx context.Context) (fstools.StoreReport, error) {
	rep, err := s.app.sourcesReport(ctx, s.store)
	if err != nil {
		return fstools.StoreReport{}, err
	}
	stats, err := s.store.Stats(ctx)
	if err != nil {
		return fstools.StoreReport{}, err
	}
	out := fstools.StoreReport{Documents: rep.Documents, Chunks: rep.Chunks, Embedder: stats.Embedder}
	if !isPostgresURL(s.app.store) {
		// The database file and its write-ahead log.
		for _, f := range []string{s.app.store, s.app.store + "-wal"} {
			if fi, err := os.Stat(f); err == nil {
				out.Bytes += fi.Size()
			}
		}
	}
	for _, r := range rep.Roots {
		root := fstools.RootReport{Path: r.Path, Files: r.Files, Chunks: r.Chunks, Skipped: r.Skipped, Missing: !r.Exists}
		if r.LastIngest != nil {
			root.LastIngest = *r.LastIngest
		}
		out.Roots = append(out.Roots, root)
	}
	return out, nil
}

// answerAboutStore answers a question about the store when the filesystem
// tools have no folders to look in (a store of JSONL corpora only).
func answerAboutStore(ctx context.Context, idx storeIndex) (string, error) {
	rep, err := idx.StoreReport(ctx)
	if err != nil {
		return "", err
	}
	return fstools.FormatStoreReport(rep, time.Local), nil
}
