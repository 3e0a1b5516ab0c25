package pgvector

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pgvector/pgvector-go"
)

// Batch sizes of Put: texts per Embed call, rows per CopyFrom.
const (
	embedBatch = 64
	copyBatch  = 5000
)

// Put stores records atomically: in one transaction, under the collection's
// advisory lock, every record replaces the stored document with its Doc.ID
// (and all of that document's chunks), rows written with CopyFrom in batches.
// Either all records are stored or none (a cancelled context or a killed
// process leaves the previous state). Chunks without an embedding are
// embedded first when the store has an embedder; without one, embeddings are
// ignored. Invalid UTF-8 and NUL bytes in text are replaced (U+FFFD) or
// dropped; a document ID that graphrag.CheckDocID refuses (invalid UTF-8,
// NUL, too long: PostgreSQL cannot store or index it unchanged, and a
// changed ID would break incremental ingest) is an error matching
// ErrInvalidRecord and graphrag.ErrInvalidDocID.
func (s *Store) Put(ctx context.Context, recs ...graphrag.Record) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("pgvector: put: %w", err)
	}
	if len(recs) == 0 {
		return nil
	}
	recs, err := s.prepare(ctx, recs)
	if err != nil {
		return err
	}
	name, dim := s.embedderName()
	var coll collection
	err = s.inTx(ctx, "put", func(tx pgx.Tx) error {
		if err := s.lock(ctx, tx); err != nil {
			return err
		}
		// A large Put's COPY batches and index build may run longer than the
		// pool's statement timeout, which is meant for queries: the caller's
		// context bounds a Put.
		if _, err := tx.Exec(ctx, `SELECT set_config('statement_timeout', '0', true)`); err != nil {
			return err
		}
		c, err := s.ensureCollection(ctx, tx, name, dim)
		if err != nil {
			return err
		}
		coll = c
		ids := make([]string, len(recs))
		for i, r := range recs {
			ids[i] = r.Doc.ID
		}
		if err := deleteDocuments(ctx, tx, c.id, ids); err != nil {
			return fmt.Errorf("replace documents: %w", err)
		}
		if err := copyDocuments(ctx, tx, c.id, recs); err != nil {
			return err
		}
		if err := copyChunks(ctx, tx, c, recs); err != nil {
			return err
		}
		if err := countLexemes(ctx, tx, c.id, ids, +1, !c.hasDocs); err != nil {
			return fmt.Errorf("update lexeme frequencies: %w", err)
		}
		return ensureIndexes(ctx, tx, c)
	})
	if err != nil {
		return err
	}
	coll.hasDocs = true
	s.setCollection(coll)
	return nil
}

// prepare validates recs, fills chunk IDs, cleans text and computes missing
// embeddings. It returns copies; the caller's records are not changed.
func (s *Store) prepare(ctx context.Context, in []graphrag.Record) ([]graphrag.Record, error) {
	recs := make([]graphrag.Record, len(in))
	seen := make(map[string]bool, len(in))
	_, dim := s.embedderName()
	var missing []*graphrag.Chunk
	for i, r := range in {
		id := r.Doc.ID
		if id == "" {
			return nil, fmt.Errorf("%w: record %d has an empty document ID", ErrInvalidRecord, i)
		}
		if err := graphrag.CheckDocID(id); err != nil {
			return nil, fmt.Errorf("%w: record %d: %w", ErrInvalidRecord, i, err)
		}
		if seen[id] {
			return nil, fmt.Errorf("%w: document %q appears twice in one Put", ErrInvalidRecord, id)
		}
		seen[id] = true
		d := r.Doc
		d.Path, d.Title, d.Type, d.Hash = cleanText(d.Path), cleanText(d.Title), cleanText(d.Type), cleanText(d.Hash)
		if len(d.Metadata) > 0 {
			m := make(map[string]string, len(d.Metadata))
			for k, v := range d.Metadata {
				m[cleanText(k)] = cleanText(v)
			}
			d.Metadata = m
		}
		out := graphrag.Record{Doc: d, Chunks: make([]graphrag.Chunk, len(r.Chunks))}
		ords := make(map[int]bool, len(r.Chunks))
		for j, c := range r.Chunks {
			if c.DocID == "" {
				c.DocID = id
			}
			if c.DocID != id {
				return nil, fmt.Errorf("%w: document %q: chunk %d belongs to document %q", ErrInvalidRecord, id, j, c.DocID)
			}
			if c.Ordinal < 0 || ords[c.Ordinal] {
				return nil, fmt.Errorf("%w: document %q: chunk %d has ordinal %d (negative or repeated)", ErrInvalidRecord, id, j, c.Ordinal)
			}
			ords[c.Ordinal] = true
			want := graphrag.ChunkID(id, c.Ordinal)
			if c.ID == "" {
				c.ID = want
			}
			if c.ID != want {
				return nil, fmt.Errorf("%w: document %q: chunk ID %q, want %q (graphrag.ChunkID)", ErrInvalidRecord, id, c.ID, want)
			}
			c.Text = cleanText(c.Text)
			c.Heading, c.Symbol, c.Kind = cleanText(c.Heading), cleanText(c.Symbol), cleanText(c.Kind)
			if !(c.StartLine == 0 && c.EndLine == 0 || 1 <= c.StartLine && c.StartLine <= c.EndLine) {
				return nil, fmt.Errorf("%w: document %q: chunk %d has lines %d-%d; want 0-0 (unknown) or 1 <= start <= end", ErrInvalidRecord, id, c.Ordinal, c.StartLine, c.EndLine)
			}
			if s.opts.Embedder == nil {
				c.Embedding = nil
			} else if c.Embedding != nil {
				if err := checkVector(c.Embedding, dim); err != nil {
					return nil, fmt.Errorf("%w: document %q chunk %d: %v", ErrInvalidRecord, id, c.Ordinal, err)
				}
			}
			out.Chunks[j] = c
		}
		recs[i] = out
	}
	if s.opts.Embedder != nil {
		for i := range recs {
			for j := range recs[i].Chunks {
				if recs[i].Chunks[j].Embedding == nil {
					missing = append(missing, &recs[i].Chunks[j])
				}
			}
		}
	}
	for start := 0; start < len(missing); start += embedBatch {
		batch := missing[start:min(start+embedBatch, len(missing))]
		texts := make([]string, len(batch))
		for i, c := range batch {
			texts[i] = c.Text
		}
		vecs, err := s.opts.Embedder.Embed(ctx, texts)
		if err != nil {
			return nil, fmt.Errorf("pgvector: put: embed %d chunks with %q: %w", len(texts), s.opts.Embedder.Name(), err)
		}
		if len(vecs) != len(texts) {
			return nil, fmt.Errorf("pgvector: put: embedder %q returned %d vectors for %d texts", s.opts.Embedder.Name(), len(vecs), len(texts))
		}
		for i, v := range vecs {
			if err := checkVector(v, dim); err != nil {
				return nil, fmt.Errorf("pgvector: put: embedder %q: %v", s.opts.Embedder.Name(), err)
			}
			batch[i].Embedding = v
		}
	}
	return recs, nil
}

// checkVector rejects a vector of the wrong length or with NaN or infinity.
func checkVector(v []float32, dim int) error {
	if len(v) != dim {
		return fmt.Errorf("embedding has dimension %d, the store's embedder has %d", len(v), dim)
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("embedding holds %v", x)
		}
	}
	return nil
}

// isZero reports whether v has no direction (cosine distance is undefined).
func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// ensureCollection returns the collection row, locked for the transaction,
// creating it (and its HNSW index) when missing. An empty collection adopts
// the store's embedder; one holding documents of another is refused.
func (s *Store) ensureCollection(ctx context.Context, tx pgx.Tx, name string, dim int) (collection, error) {
	c, found, err := s.loadCollection(ctx, tx)
	if err != nil {
		return c, err
	}
	if !found {
		cfg := s.opts.TextSearchConfig
		if cfg == "" {
			cfg = DefaultTextSearchConfig
		}
		err := tx.QueryRow(ctx, `
			INSERT INTO collections (name, embedder, dimension, ts_config) VALUES ($1, $2, $3, $4::regconfig)
			RETURNING id, embedder, dimension, ts_config::text, ts_config::oid`,
			s.opts.Collection, name, dim, cfg).Scan(&c.id, &c.embedder, &c.dim, &c.tsConfig, &c.tsOID)
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "42704" { // undefined_object
			return c, fmt.Errorf("%w: text search configuration %q does not exist (see \\dF in psql; \"simple\" works for any language)", ErrInvalidOptions, cfg)
		}
		if err != nil {
			return c, fmt.Errorf("create collection: %w", err)
		}
		return c, nil
	}
	if c.embedder == name && c.dim == dim {
		return c, nil
	}
	if err := s.checkEmbedder(c); err != nil {
		return c, err
	}
	// Empty collection: adopt this embedder.
	if _, err := tx.Exec(ctx, `UPDATE collections SET embedder = $2, dimension = $3, updated_at = now() WHERE id = $1`, c.id, name, dim); err != nil {
		return c, fmt.Errorf("adopt embedder: %w", err)
	}
	if _, err := tx.Exec(ctx, `SELECT graphrag_drop_hnsw($1)`, c.id); err != nil {
		return c, fmt.Errorf("drop old vector index: %w", err)
	}
	c.embedder, c.dim = name, dim
	return c, nil
}

// ensureIndexes creates the collection's GIN index and, with embeddings, its
// HNSW index, when they are missing. They are built after the rows: a new
// collection's first load builds each in one pass (minutes for a large load;
// Put has lifted the statement timeout), later Puts insert into them.
func ensureIndexes(ctx context.Context, tx pgx.Tx, c collection) error {
	var gin, hnsw bool
	err := tx.QueryRow(ctx, `
		SELECT EXISTS (SELECT FROM pg_class WHERE relname = $1 AND relkind = 'i' AND relnamespace = current_schema()::regnamespace),
		       EXISTS (SELECT FROM pg_class WHERE relname = $2 AND relkind = 'i' AND relnamespace = current_schema()::regnamespace)`,
		ginIndexName(c), hnswIndexName(c)).Scan(&gin, &hnsw)
	if err != nil {
		return err
	}
	if !gin {
		if _, err := tx.Exec(ctx, `SELECT graphrag_ensure_gin($1)`, c.id); err != nil {
			return fmt.Errorf("create the text index of collection %d: %w", c.id, err)
		}
	}
	if !hnsw && c.dim > 0 {
		if _, err := tx.Exec(ctx, `SELECT graphrag_ensure_hnsw($1, $2)`, c.id, c.dim); err != nil {
			return fmt.Errorf("create the HNSW index of collection %d: %w", c.id, err)
		}
	}
	return nil
}

// ginIndexName and hnswIndexName are the names graphrag_ensure_gin and
// graphrag_ensure_hnsw give a collection's indexes.
func ginIndexName(c collection) string { return fmt.Sprintf("chunks_tsv_c%d_idx", c.id) }

func hnswIndexName(c collection) string {
	return fmt.Sprintf("chunks_embedding_c%d_d%d_idx", c.id, c.dim)
}

func copyDocuments(ctx context.Context, tx pgx.Tx, coll int64, recs []graphrag.Record) error {
	cols := []string{"collection_id", "id", "path", "title", "type", "hash", "size", "mtime", "metadata"}
	for start := 0; start < len(recs); start += copyBatch {
		batch := recs[start:min(start+copyBatch, len(recs))]
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"documents"}, cols, pgx.CopyFromSlice(len(batch), func(i int) ([]any, error) {
			d := batch[i].Doc
			var mtime any
			if !d.ModTime.IsZero() {
				mtime = d.ModTime
			}
			meta := d.Metadata
			if meta == nil {
				meta = map[string]string{}
			}
			return []any{coll, d.ID, d.Path, d.Title, d.Type, d.Hash, d.Size, mtime, meta}, nil
		}))
		if err != nil {
			return fmt.Errorf("copy documents: %w", err)
		}
	}
	return nil
}

func copyChunks(ctx context.Context, tx pgx.Tx, c collection, recs []graphrag.Record) error {
	type row struct {
		doc   *graphrag.Document
		chunk *graphrag.Chunk
	}
	var rows []row
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		cols := []string{"collection_id", "doc_id", "ordinal", "title", "text", "ts_config", "embedding", "heading", "symbol", "kind", "start_line", "end_line"}
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"chunks"}, cols, pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
			r := rows[i]
			var emb any
			if c.dim > 0 && r.chunk.Embedding != nil && !isZero(r.chunk.Embedding) {
				emb = pgvector.NewVector(r.chunk.Embedding)
			}
			ch := r.chunk
			return []any{c.id, r.doc.ID, ch.Ordinal, text.SymbolTitle(r.doc.Title, ch.Symbol), ch.Text, c.tsOID, emb, ch.Heading, ch.Symbol, ch.Kind, ch.StartLine, ch.EndLine}, nil
		}))
		rows = rows[:0]
		if err != nil {
			return fmt.Errorf("copy chunks: %w", err)
		}
		return nil
	}
	for i := range recs {
		for j := range recs[i].Chunks {
			rows = append(rows, row{&recs[i].Doc, &recs[i].Chunks[j]})
			if len(rows) == copyBatch {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}
