package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"sync"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
	"modernc.org/sqlite" // registers the "sqlite" driver
)

func init() {
	// graphrag_contains_fold(s, sub) is 1 when s contains sub, ignoring
	// case in every script by Unicode case folding (SQLite's lower() folds
	// ASCII only).
	sqlite.MustRegisterDeterministicScalarFunction("graphrag_contains_fold", 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		s, _ := args[0].(string)
		sub, _ := args[1].(string)
		if text.ContainsFold(s, sub) {
			return int64(1), nil
		}
		return int64(0), nil
	})
}

// schemaVersion is stored in PRAGMA user_version. Bump it with a migration
// in migrate when the schema changes.
const schemaVersion = 2

// ErrNewerSchema: the file was written by a newer graphrag.
var ErrNewerSchema = errors.New("store file was written by a newer graphrag")

// ErrReadOnly: a write to a store opened with Options.ReadOnly.
var ErrReadOnly = errors.New("store is open read-only")

// Options configure a Store.
type Options struct {
	// Embedder, when set, embeds chunks that come without embeddings and
	// queries that come without a vector. Nil means keyword search only.
	Embedder graphrag.Embedder
	// ReadConns bounds concurrent readers; 0 means 4.
	ReadConns int
	// Ranking tunes keyword scoring; the zero value means DefaultRanking.
	Ranking *Ranking
	// ReadOnly opens an existing store for searching only, without
	// writing anything: a file of another user's, or on read-only media.
	// Put and Delete then fail. A store in WAL mode whose shared-memory
	// file cannot be created is opened as immutable (no other process may
	// write it meanwhile).
	ReadOnly bool
}

// Store is a graphrag store in one SQLite file. It is safe for concurrent
// use; writes are serialised.
type Store struct {
	db      *sql.DB
	path    string
	emb     graphrag.Embedder
	rank    Ranking
	builtBy string // embedder name recorded in the file, "" for none
	dim     int
	// readOnly: opened with Options.ReadOnly; nothing is written.
	readOnly bool

	wmu sync.Mutex // one writer at a time

	vload  sync.Mutex // held while the matrix loads
	tload  sync.Mutex // held while the title index loads
	vmu    sync.Mutex // guards vec, titles and gen
	vec    *matrix
	titles *titleIndex
	gen    uint64

	recent     recentLists // the last keyword lists (recent.go)
	recentBM25 recentLists // the last lists of chunks holding any term (bm25Any)
}

var _ interface {
	Search(context.Context, graphrag.Query) (graphrag.SearchResult, error)
} = (*Store)(nil)

// Open opens (creating if needed) the store file at path. It refuses a file
// built with another embedder (graphrag.ErrEmbedderMismatch) and a file
// written by a newer graphrag (ErrNewerSchema).
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if path == "" || path == ":memory:" {
		return nil, fmt.Errorf("open sqlite store: need a file path, got %q", path)
	}
	if opts.ReadOnly {
		s, err := open(ctx, path, opts, "ro")
		if err != nil {
			// Read-only media: the WAL's shared memory cannot be made.
			if s, ierr := open(ctx, path, opts, "immutable"); ierr == nil {
				return s, nil
			}
		}
		return s, err
	}
	return open(ctx, path, opts, "")
}

// open opens the store with mode "" (read-write), "ro" or "immutable".
func open(ctx context.Context, path string, opts Options, mode string) (*Store, error) {
	q := url.Values{}
	pragmas := []string{"busy_timeout(10000)", "journal_mode(WAL)", "cache_size(-32000)", "synchronous(NORMAL)", "foreign_keys(1)"}
	switch mode {
	case "":
		q.Set("_txlock", "immediate")
	case "ro":
		q.Set("mode", "ro")
		pragmas = []string{"busy_timeout(10000)", "cache_size(-32000)", "query_only(1)"}
	case "immutable":
		q.Set("mode", "ro")
		q.Set("immutable", "1")
		pragmas = []string{"cache_size(-32000)", "query_only(1)"}
	}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open sqlite store %s: %w", path, err)
	}
	conns := opts.ReadConns
	if conns <= 0 {
		conns = 4
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	s := &Store{db: db, path: path, emb: opts.Embedder, rank: DefaultRanking(), readOnly: mode != ""}
	if opts.Ranking != nil {
		s.rank = *opts.Ranking
	}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open sqlite store %s: %w", path, err)
	}
	return s, nil
}

// Path returns the file the store lives in.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close sqlite store %s: %w", s.path, err)
	}
	return nil
}

const schema = `
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) STRICT;
CREATE TABLE documents (
	id       TEXT PRIMARY KEY,
	path     TEXT NOT NULL,
	title    TEXT NOT NULL,
	type     TEXT NOT NULL,
	hash     TEXT NOT NULL,
	size     INTEGER NOT NULL,
	mod_time INTEGER NOT NULL, -- unix nanoseconds, UTC
	metadata TEXT NOT NULL     -- JSON object
) STRICT;
CREATE INDEX documents_type ON documents(type);
CREATE INDEX documents_mod_time ON documents(mod_time);
-- chunks.rowid is the rowid of the chunk's row in chunks_fts, which holds
-- the text (stored once).
CREATE TABLE chunks (
	rowid     INTEGER PRIMARY KEY,
	id        TEXT NOT NULL UNIQUE,
	doc_id    TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
	ordinal   INTEGER NOT NULL,
	embedding BLOB, -- little-endian float32, NULL without an embedder
	` + chunkPlaceColumns + `
) STRICT;
CREATE INDEX chunks_doc ON chunks(doc_id, ordinal);
CREATE VIRTUAL TABLE chunks_fts USING fts5(
	title, text,
	tokenize = 'unicode61 remove_diacritics 2'
);
`

func (s *Store) init(ctx context.Context) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	switch {
	case v > schemaVersion:
		return fmt.Errorf("%w: schema version %d, this build reads up to %d; upgrade graphrag or use another --store", ErrNewerSchema, v, schemaVersion)
	case v == 0 && s.readOnly:
		return fmt.Errorf("%w: %s holds no graphrag store (opened read-only, so it was not created)", graphrag.ErrNotFound, s.path)
	case v == 0:
		if _, err := tx.ExecContext(ctx, schema); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
		if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(schemaVersion)); err != nil {
			return fmt.Errorf("set schema version: %w", err)
		}
	case v < schemaVersion:
		if err := migrate(ctx, tx, v); err != nil {
			return fmt.Errorf("upgrade schema from version %d to %d: %w", v, schemaVersion, err)
		}
	}
	meta := map[string]string{}
	rows, err := tx.QueryContext(ctx, "SELECT key, value FROM meta")
	if err != nil {
		return fmt.Errorf("read meta: %w", err)
	}
	for rows.Next() {
		var k, val string
		if err := rows.Scan(&k, &val); err != nil {
			rows.Close()
			return err
		}
		meta[k] = val
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var docs int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM documents").Scan(&docs); err != nil {
		return err
	}
	wantName, wantDim := "", 0
	if s.emb != nil {
		wantName, wantDim = s.emb.Name(), s.emb.Dimension()
		if wantName == "" || wantDim <= 0 {
			return fmt.Errorf("embedder %T has name %q and dimension %d: both are needed", s.emb, wantName, wantDim)
		}
	}
	haveName := meta["embedder"]
	haveDim, _ := strconv.Atoi(meta["dimension"])
	if docs > 0 && (haveName != wantName || haveDim != wantDim) {
		return fmt.Errorf("%w: %s was built with %s and is opened with %s; configure the same embedder, or ingest into a new store (another --store path)",
			graphrag.ErrEmbedderMismatch, s.path, describe(haveName, haveDim), describe(wantName, wantDim))
	}
	if docs == 0 && !s.readOnly && (haveName != wantName || haveDim != wantDim || len(meta) == 0) {
		for k, val := range map[string]string{"embedder": wantName, "dimension": strconv.Itoa(wantDim)} {
			if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", k, val); err != nil {
				return fmt.Errorf("write meta: %w", err)
			}
		}
		// Vectors of an earlier embedder are meaningless now.
		if _, err := tx.ExecContext(ctx, "UPDATE chunks SET embedding = NULL"); err != nil {
			return err
		}
	}
	s.builtBy, s.dim = wantName, wantDim
	return tx.Commit()
}

func describe(name string, dim int) string {
	if name == "" {
		return "no embedder (keyword search only)"
	}
	return fmt.Sprintf("embedder %q (dimension %d)", name, dim)
}

// Stats reports the number of documents and chunks and the embedder.
func (s *Store) Stats(ctx context.Context) (graphrag.StoreStats, error) {
	st := graphrag.StoreStats{Embedder: s.builtBy, Dimension: s.dim}
	err := s.db.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM chunks)").Scan(&st.Documents, &st.Chunks)
	if err != nil {
		return graphrag.StoreStats{}, fmt.Errorf("sqlite stats: %w", err)
	}
	return st, nil
}

// Manifest lists every stored document's id, path and content hash, sorted
// by id.
func (s *Store) Manifest(ctx context.Context) ([]graphrag.DocState, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, path, hash FROM documents ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("sqlite manifest: %w", err)
	}
	defer rows.Close()
	var out []graphrag.DocState
	for rows.Next() {
		var d graphrag.DocState
		if err := rows.Scan(&d.ID, &d.Path, &d.Hash); err != nil {
			return nil, fmt.Errorf("sqlite manifest: %w", err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite manifest: %w", err)
	}
	return out, nil
}

// DB exposes the underlying database for tests and maintenance tools.
// Writing through it bypasses the store's invariants.
func (s *Store) DB() *sql.DB { return s.db }
