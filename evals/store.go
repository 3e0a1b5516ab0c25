package evals

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// Store is what the runners need of a store: search it, and write corpus
// rows into a fresh one. *sqlite.Store and *pgvector.Store satisfy it.
type Store interface {
	Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error)
	Put(ctx context.Context, recs ...graphrag.Record) error
	Close() error
}

// OpenStore opens a fresh, empty store for one eval run. Closing it may
// delete it.
type OpenStore func(ctx context.Context) (Store, error)

// IngestFunc writes the corpus files at paths into store (cmd/graphrag
// passes the ingest package; the default is IngestCorpus).
type IngestFunc func(ctx context.Context, store Store, paths []string) error

var _ Store = (*sqlite.Store)(nil)

// TempSQLite returns an OpenStore that creates an embedded store in a new
// temporary directory under dir ("" for the system default), removed again
// when the store is closed.
func TempSQLite(dir string, opts sqlite.Options) OpenStore {
	return func(ctx context.Context) (Store, error) {
		tmp, err := os.MkdirTemp(dir, "graphrag-eval-")
		if err != nil {
			return nil, fmt.Errorf("eval store: create temporary directory: %w", err)
		}
		s, err := sqlite.Open(ctx, filepath.Join(tmp, "eval.db"), opts)
		if err != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("eval store: %w", err)
		}
		return &tempStore{Store: s, dir: tmp}, nil
	}
}

type tempStore struct {
	*sqlite.Store
	dir string
}

func (t *tempStore) Close() error {
	err := t.Store.Close()
	if rerr := os.RemoveAll(t.dir); err == nil && rerr != nil {
		err = fmt.Errorf("eval store: remove %s: %w", t.dir, rerr)
	}
	return err
}

// putBatch is how many records IngestCorpus writes per transaction.
const putBatch = 500

// IngestCorpus reads corpus files (see LoadCorpus) and writes every row as
// one document with one chunk, whose DocID is graphrag.RowDocID(file, row
// id) as graphrag ingest makes it; RankedDocs maps hits back to the row ids
// the gold passages name. It returns the rows it skipped.
func IngestCorpus(ctx context.Context, store Store, paths []string) ([]RowError, error) {
	return ingestCorpus(ctx, store, paths, nil)
}

func ingestCorpus(ctx context.Context, store Store, paths []string, progress ProgressFunc) ([]RowError, error) {
	rows, bad, err := LoadCorpus(paths...)
	if err != nil {
		return bad, err
	}
	done := 0
	recs := make([]graphrag.Record, 0, putBatch)
	flush := func() error {
		if len(recs) == 0 {
			return nil
		}
		if err := store.Put(ctx, recs...); err != nil {
			return fmt.Errorf("eval: ingest corpus: %w", err)
		}
		done += len(recs)
		if progress != nil {
			progress(Progress{Phase: "ingest", Done: done, Total: len(rows)})
		}
		recs = recs[:0]
		return nil
	}
	for _, r := range rows {
		recs = append(recs, CorpusRecord(r))
		if len(recs) == putBatch {
			if err := flush(); err != nil {
				return bad, err
			}
		}
	}
	return bad, flush()
}

// CorpusRecord turns a corpus row into a one-chunk record.
func CorpusRecord(r CorpusRow) graphrag.Record {
	sum := sha256.Sum256([]byte(r.Title + "\x00" + r.Text))
	id := graphrag.RowDocID(r.At.File, r.ID)
	doc := graphrag.Document{
		ID: id, Path: r.At.File, Title: r.Title, Type: "jsonl",
		Hash: hex.EncodeToString(sum[:]), Size: int64(len(r.Text)),
	}
	if r.Source != "" {
		doc.Metadata = map[string]string{"source": r.Source}
	}
	return graphrag.Record{Doc: doc, Chunks: []graphrag.Chunk{{ID: graphrag.ChunkID(id, 0), DocID: id, Text: r.Text}}}
}
