package pgvector

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/graphrag/graphrag"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is a graphrag store on PostgreSQL + pgvector: one collection of one
// schema. It is safe for concurrent use.
type Store struct {
	pool    *pgxpool.Pool
	ownPool bool
	opts    Options
	// iterative: pgvector >= 0.8 (hnsw.iterative_scan for filtered queries).
	iterative bool

	mu   sync.Mutex
	coll collection // zero id until the collection exists
}

// collection is the stored row of the store's collection.
type collection struct {
	id       int64
	embedder string
	dim      int
	tsConfig string // name, e.g. "simple"
	tsOID    uint32
	hasDocs  bool
}

// Open connects to the database at url (see Connect) and opens the store on
// opts.Collection. It does not change the schema: an unmigrated database
// fails with ErrNotMigrated, saying to run `graphrag migrate up`. A
// collection built with another embedder than opts.Embedder (or with one,
// when opts.Embedder is nil) fails with graphrag.ErrEmbedderMismatch. A new
// collection is created by the first Put. Close closes the pool.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	pool, err := Connect(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	s, err := NewStore(ctx, pool, opts)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s.ownPool = true
	return s, nil
}

// NewStore opens the store on a pool the caller owns (Close leaves it open).
// The pool should come from Connect, or at least register pgvector's types
// in AfterConnect and put opts.Schema on its search_path.
func NewStore(ctx context.Context, pool *pgxpool.Pool, opts Options) (*Store, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Store{pool: pool, opts: opts}
	if err := s.checkSchema(ctx); err != nil {
		return nil, err
	}
	c, found, err := s.loadCollection(ctx, pool)
	if err != nil {
		return nil, err
	}
	if found {
		if err := s.checkEmbedder(c); err != nil {
			return nil, err
		}
		if opts.TextSearchConfig != "" && opts.TextSearchConfig != c.tsConfig {
			return nil, fmt.Errorf("%w: collection %q uses text search configuration %q, not %q; open it without TextSearchConfig, or ingest into a new collection",
				ErrInvalidOptions, opts.Collection, c.tsConfig, opts.TextSearchConfig)
		}
		s.coll = c
	}
	return s, nil
}

// checkSchema verifies the migrations are applied and pgvector is there.
func (s *Store) checkSchema(ctx context.Context) error {
	latest, err := latestVersion()
	if err != nil {
		return err
	}
	var have *int64
	var ext *string
	err = s.pool.QueryRow(ctx, `
		SELECT (SELECT max(version_id) FROM `+pgx.Identifier{s.opts.Schema, MigrationTable}.Sanitize()+` WHERE is_applied),
		       (SELECT extversion FROM pg_extension WHERE extname = 'vector')`).Scan(&have, &ext)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && (pgErr.Code == "42P01" || pgErr.Code == "3F000") { // undefined_table, invalid_schema_name
		return fmt.Errorf("%w: schema %q has no graphrag tables; run `graphrag migrate up` with the same --store URL first", ErrNotMigrated, s.opts.Schema)
	}
	if err != nil {
		return unavailable(ctx, fmt.Errorf("pgvector: check schema %q: %w", s.opts.Schema, err))
	}
	if have == nil || *have < latest {
		v := int64(0)
		if have != nil {
			v = *have
		}
		return fmt.Errorf("%w: schema %q is at version %d, this graphrag needs %d; run `graphrag migrate up`", ErrNotMigrated, s.opts.Schema, v, latest)
	}
	if ext == nil {
		return fmt.Errorf("%w: the vector extension is missing from the database; as a superuser run: CREATE EXTENSION vector;", ErrNoVectorExtension)
	}
	var major, minor int
	fmt.Sscanf(*ext, "%d.%d", &major, &minor)
	s.iterative = major > 0 || minor >= 8
	return nil
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

const selectCollection = `
	SELECT c.id, c.embedder, c.dimension, c.ts_config::text, c.ts_config::oid,
	       EXISTS (SELECT FROM documents d WHERE d.collection_id = c.id)
	FROM collections c WHERE c.name = $1`

func (s *Store) loadCollection(ctx context.Context, q querier) (collection, bool, error) {
	var c collection
	err := q.QueryRow(ctx, selectCollection, s.opts.Collection).Scan(&c.id, &c.embedder, &c.dim, &c.tsConfig, &c.tsOID, &c.hasDocs)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, unavailable(ctx, fmt.Errorf("pgvector: read collection %q: %w", s.opts.Collection, err))
	}
	return c, true, nil
}

// embedderName is the name the store's embedder is recorded under ("" for none).
func (s *Store) embedderName() (string, int) {
	if s.opts.Embedder == nil {
		return "", 0
	}
	return s.opts.Embedder.Name(), s.opts.Embedder.Dimension()
}

// checkEmbedder refuses a collection holding documents built by another embedder.
func (s *Store) checkEmbedder(c collection) error {
	name, dim := s.embedderName()
	if !c.hasDocs || (c.embedder == name && c.dim == dim) {
		return nil
	}
	built := "no embedder (keyword search only)"
	if c.embedder != "" {
		built = fmt.Sprintf("embedder %q (dimension %d)", c.embedder, c.dim)
	}
	asked := "no embedder"
	if name != "" {
		asked = fmt.Sprintf("embedder %q (dimension %d)", name, dim)
	}
	return fmt.Errorf("%w: collection %q in schema %q was built with %s, not %s; use the same embedder, or ingest into another collection (--collection)",
		graphrag.ErrEmbedderMismatch, s.opts.Collection, s.opts.Schema, built, asked)
}

// collection returns the cached collection, looking it up when it was not
// created yet (another process may have created it).
func (s *Store) collection(ctx context.Context) (collection, bool, error) {
	s.mu.Lock()
	c := s.coll
	s.mu.Unlock()
	if c.id != 0 {
		return c, true, nil
	}
	c, found, err := s.loadCollection(ctx, s.pool)
	if err != nil || !found {
		return c, found, err
	}
	if err := s.checkEmbedder(c); err != nil {
		return c, false, err
	}
	s.setCollection(c)
	return c, true, nil
}

func (s *Store) setCollection(c collection) {
	s.mu.Lock()
	s.coll = c
	s.mu.Unlock()
}

// Close releases the pool when Open created it.
func (s *Store) Close() error {
	if s.ownPool {
		s.pool.Close()
	}
	return nil
}

// Stats counts the collection's documents and chunks.
func (s *Store) Stats(ctx context.Context) (graphrag.StoreStats, error) {
	c, found, err := s.collection(ctx)
	if err != nil || !found {
		return graphrag.StoreStats{}, err
	}
	st := graphrag.StoreStats{Embedder: c.embedder, Dimension: c.dim}
	err = s.pool.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM documents WHERE collection_id = $1),
		       (SELECT count(*) FROM chunks WHERE collection_id = $1)`, c.id).Scan(&st.Documents, &st.Chunks)
	if err != nil {
		return graphrag.StoreStats{}, unavailable(ctx, fmt.Errorf("pgvector: stats of collection %q: %w", s.opts.Collection, err))
	}
	return st, nil
}

// Manifest lists every document of the collection, sorted by ID (byte order).
func (s *Store) Manifest(ctx context.Context) ([]graphrag.DocState, error) {
	c, found, err := s.collection(ctx)
	if err != nil || !found {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT id, path, hash FROM documents WHERE collection_id = $1 ORDER BY id COLLATE "C"`, c.id)
	if err != nil {
		return nil, unavailable(ctx, fmt.Errorf("pgvector: manifest of collection %q: %w", s.opts.Collection, err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (graphrag.DocState, error) {
		var d graphrag.DocState
		err := r.Scan(&d.ID, &d.Path, &d.Hash)
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("pgvector: manifest of collection %q: %w", s.opts.Collection, err)
	}
	return out, nil
}

// Delete removes documents (and their chunks) by ID; unknown IDs are ignored.
func (s *Store) Delete(ctx context.Context, ids ...string) error {
	var keep []string
	for _, id := range ids {
		if validText(id) == nil { // anything else cannot be stored, so is not there
			keep = append(keep, id)
		}
	}
	if len(keep) == 0 {
		return ctx.Err()
	}
	c, found, err := s.collection(ctx)
	if err != nil || !found {
		return err
	}
	return s.inTx(ctx, "delete", func(tx pgx.Tx) error {
		if err := s.lock(ctx, tx); err != nil {
			return err
		}
		return deleteDocuments(ctx, tx, c.id, keep)
	})
}

// deleteDocuments deletes documents and their chunks (chunks have no
// foreign key to documents, see migration 00002), first taking the chunks'
// lexemes out of the collection's document frequencies (migration 00004).
// Lexemes that drop to zero keep their row: it weighs nothing, since no
// chunk matches it.
func deleteDocuments(ctx context.Context, tx pgx.Tx, coll int64, ids []string) error {
	if err := countLexemes(ctx, tx, coll, ids, -1, false); err != nil {
		return fmt.Errorf("update lexeme frequencies: %w", err)
	}
	_, err := tx.Exec(ctx, `
		WITH gone AS (DELETE FROM chunks WHERE collection_id = $1 AND doc_id = ANY($2))
		DELETE FROM documents WHERE collection_id = $1 AND id = ANY($2)`, coll, ids)
	return err
}

// countLexemes adds sign times the lexemes of the chunks of documents ids
// to the collection's document frequencies, and their number to its chunk
// count. Put calls it after writing chunks (+1), deleteDocuments before
// deleting them (-1).
//
// With whole set (a collection's first load: every chunk is new) the
// chunks are not looked up by document, which reads them in one pass.
func countLexemes(ctx context.Context, tx pgx.Tx, coll int64, ids []string, sign int, whole bool) error {
	these := ` AND c.doc_id = ANY($2)`
	if whole {
		these = ` AND $2::text[] IS NOT NULL`
	}
	upsert := `INSERT INTO lexeme_df (collection_id, lexeme, df) SELECT $1, lexeme, n FROM counted
			ON CONFLICT (collection_id, lexeme) DO UPDATE SET df = lexeme_df.df + EXCLUDED.df`
	if sign < 0 {
		upsert = `UPDATE lexeme_df l SET df = greatest(l.df - k.n, 0) FROM counted k
			WHERE l.collection_id = $1 AND l.lexeme = k.lexeme`
	}
	_, err := tx.Exec(ctx, `
		WITH counted AS (
			SELECT u.lexeme, count(*) AS n FROM chunks c, unnest(c.tsv) u
			WHERE c.collection_id = $1`+these+`
			GROUP BY u.lexeme
		), upsert AS (`+upsert+`)
		UPDATE collections SET chunk_count = greatest(chunk_count + $3::bigint *
			(SELECT count(*) FROM chunks c WHERE c.collection_id = $1`+these+`), 0)
		WHERE id = $1`, coll, ids, sign)
	return err
}

// lock takes the collection's transaction-scoped advisory lock, so two
// writers of one collection (two ingests, in two processes) go one at a time.
func (s *Store) lock(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, "graphrag.collection:"+s.opts.Schema+":"+s.opts.Collection)
	return err
}

// inTx runs fn in a transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, op string, fn func(tx pgx.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("pgvector: %s: %w", op, err)
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return s.wrap(ctx, op, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if err := fn(tx); err != nil {
		return s.wrap(ctx, op, err)
	}
	return s.wrap(ctx, op, tx.Commit(ctx))
}

// wrap annotates err with the operation, and makes a cancelled or expired
// context matchable (pgx reports it in its own words).
func (s *Store) wrap(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("pgvector: %s in collection %q: %w (%v)", op, s.opts.Collection, cerr, err)
	}
	return unavailable(ctx, fmt.Errorf("pgvector: %s in collection %q: %w", op, s.opts.Collection, err))
}
