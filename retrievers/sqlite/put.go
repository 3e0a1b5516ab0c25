package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// ErrInvalidRecord: a record handed to Put breaks the store's contract.
var ErrInvalidRecord = errors.New("invalid record")

// Put writes the records in one transaction, each replacing any stored
// document with the same id. Chunks without an embedding are embedded
// first when the store has an embedder. Either every record is written or,
// on any error, none. A document ID that graphrag.CheckDocID refuses is an
// error matching ErrInvalidRecord and graphrag.ErrInvalidDocID.
func (s *Store) Put(ctx context.Context, recs ...graphrag.Record) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sqlite put: %w", err)
	}
	if s.readOnly {
		return fmt.Errorf("sqlite put: %w: %s", ErrReadOnly, s.path)
	}
	if len(recs) == 0 {
		return nil
	}
	recs, err := s.prepare(recs)
	if err != nil {
		return fmt.Errorf("sqlite put: %w", err)
	}
	if err := s.embedMissing(ctx, recs); err != nil {
		return fmt.Errorf("sqlite put: %w", err)
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite put: begin: %w", err)
	}
	defer tx.Rollback()
	if err := s.write(ctx, tx, recs); err != nil {
		return fmt.Errorf("sqlite put: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite put: commit: %w", err)
	}
	s.invalidate()
	return nil
}

// prepare validates the records and returns copies with chunk ids filled in
// and text made valid UTF-8 without NUL bytes.
func (s *Store) prepare(recs []graphrag.Record) ([]graphrag.Record, error) {
	out := make([]graphrag.Record, len(recs))
	seen := make(map[string]bool, len(recs))
	for i, r := range recs {
		id := r.Doc.ID
		if id == "" {
			return nil, fmt.Errorf("%w: record %d has an empty Doc.ID", ErrInvalidRecord, i)
		}
		// SQLite could keep any bytes, but the PostgreSQL store cannot:
		// both refuse the same IDs, so a corpus moves between them.
		if err := graphrag.CheckDocID(id); err != nil {
			return nil, fmt.Errorf("%w: record %d: %w", ErrInvalidRecord, i, err)
		}
		if seen[id] {
			return nil, fmt.Errorf("%w: document %q appears twice in one Put", ErrInvalidRecord, id)
		}
		seen[id] = true
		r.Doc.Title = clean(r.Doc.Title)
		r.Doc.Path = clean(r.Doc.Path)
		r.Doc.Type = strings.ToLower(clean(r.Doc.Type))
		chunks := make([]graphrag.Chunk, len(r.Chunks))
		ords := make(map[int]bool, len(r.Chunks))
		for j, c := range r.Chunks {
			if c.DocID == "" {
				c.DocID = id
			}
			if c.DocID != id {
				return nil, fmt.Errorf("%w: chunk %d of %q names document %q", ErrInvalidRecord, j, id, c.DocID)
			}
			if ords[c.Ordinal] {
				return nil, fmt.Errorf("%w: document %q has two chunks with ordinal %d", ErrInvalidRecord, id, c.Ordinal)
			}
			ords[c.Ordinal] = true
			want := graphrag.ChunkID(id, c.Ordinal)
			if c.ID == "" {
				c.ID = want
			}
			if c.ID != want {
				return nil, fmt.Errorf("%w: chunk id %q of %q, want %q", ErrInvalidRecord, c.ID, id, want)
			}
			c.Text = clean(c.Text)
			c.Heading, c.Symbol, c.Kind = clean(c.Heading), clean(c.Symbol), clean(c.Kind)
			if !(c.StartLine == 0 && c.EndLine == 0 || 1 <= c.StartLine && c.StartLine <= c.EndLine) {
				return nil, fmt.Errorf("%w: chunk %q has lines %d-%d; want 0-0 (unknown) or 1 <= start <= end", ErrInvalidRecord, c.ID, c.StartLine, c.EndLine)
			}
			if s.emb == nil {
				c.Embedding = nil
			} else if c.Embedding != nil && len(c.Embedding) != s.dim {
				return nil, fmt.Errorf("%w: chunk %q has an embedding of dimension %d, the store's embedder %q has %d", ErrInvalidRecord, c.ID, len(c.Embedding), s.builtBy, s.dim)
			}
			chunks[j] = c
		}
		r.Chunks = chunks
		out[i] = r
	}
	return out, nil
}

func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	return s
}

func (s *Store) embedMissing(ctx context.Context, recs []graphrag.Record) error {
	if s.emb == nil {
		return nil
	}
	type ref struct{ r, c int }
	var refs []ref
	var texts []string
	for i, r := range recs {
		for j, c := range r.Chunks {
			if c.Embedding == nil {
				refs = append(refs, ref{i, j})
				texts = append(texts, c.Text)
			}
		}
	}
	if len(texts) == 0 {
		return nil
	}
	vecs, err := s.emb.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("embed %d chunks with %s: %w", len(texts), s.builtBy, err)
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("embedder %s returned %d vectors for %d texts", s.builtBy, len(vecs), len(texts))
	}
	for k, rf := range refs {
		if len(vecs[k]) != s.dim {
			return fmt.Errorf("embedder %s returned a vector of dimension %d, want %d", s.builtBy, len(vecs[k]), s.dim)
		}
		recs[rf.r].Chunks[rf.c].Embedding = vecs[k]
	}
	return nil
}

// write replaces the records' documents inside tx. FTS5 flushes its
// pending index to disk on every statement savepoint, so the index is
// touched by exactly two statements per Put (one delete, one bulk insert
// from JSON) instead of one per chunk: 3-4x faster ingest.
func (s *Store) write(ctx context.Context, tx *sql.Tx, recs []graphrag.Record) error {
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.Doc.ID
	}
	idList := idList(ids)
	if _, err := tx.ExecContext(ctx, "DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE doc_id IN ("+idsSQL+"))", idList); err != nil {
		return fmt.Errorf("replace: %w", err)
	}
	// Cascades to chunks.
	if _, err := tx.ExecContext(ctx, "DELETE FROM documents WHERE id IN ("+idsSQL+")", idList); err != nil {
		return fmt.Errorf("replace: %w", err)
	}
	insDoc, err := tx.PrepareContext(ctx, "INSERT INTO documents(id, path, title, type, hash, size, mod_time, metadata) VALUES(?, ?, ?, ?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer insDoc.Close()
	insChunk, err := tx.PrepareContext(ctx, "INSERT INTO chunks(id, doc_id, ordinal, embedding, heading, symbol, kind, start_line, end_line) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer insChunk.Close()

	type ftsRow struct {
		Rowid int64  `json:"r"`
		Title string `json:"t"`
		Text  string `json:"x"`
	}
	var fts []ftsRow
	for _, r := range recs {
		if err := ctx.Err(); err != nil {
			return err
		}
		d := r.Doc
		meta := []byte("{}")
		if len(d.Metadata) > 0 {
			if meta, err = json.Marshal(d.Metadata); err != nil {
				return fmt.Errorf("metadata of %q: %w", d.ID, err)
			}
		}
		var mod int64
		if !d.ModTime.IsZero() {
			mod = d.ModTime.UnixNano()
		}
		if _, err := insDoc.ExecContext(ctx, d.ID, d.Path, d.Title, d.Type, d.Hash, d.Size, mod, string(meta)); err != nil {
			return fmt.Errorf("insert %q: %w", d.ID, err)
		}
		for _, c := range r.Chunks {
			var blob []byte
			if c.Embedding != nil {
				blob = encodeVector(c.Embedding)
			}
			res, err := insChunk.ExecContext(ctx, c.ID, d.ID, c.Ordinal, blob, c.Heading, c.Symbol, c.Kind, c.StartLine, c.EndLine)
			if err != nil {
				return fmt.Errorf("insert chunk %q: %w", c.ID, err)
			}
			rowid, err := res.LastInsertId()
			if err != nil {
				return err
			}
			fts = append(fts, ftsRow{rowid, text.SymbolTitle(d.Title, c.Symbol), c.Text})
		}
	}
	if len(fts) == 0 {
		return nil
	}
	rows, err := json.Marshal(fts)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO chunks_fts(rowid, title, text)
		SELECT value->>'r', value->>'t', value->>'x' FROM json_each(?)`, string(rows)); err != nil {
		return fmt.Errorf("index %d chunks: %w", len(fts), err)
	}
	return nil
}

// Delete removes the documents with these ids and all their chunks.
// Unknown ids are ignored.
func (s *Store) Delete(ctx context.Context, ids ...string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sqlite delete: %w", err)
	}
	if s.readOnly {
		return fmt.Errorf("sqlite delete: %w: %s", ErrReadOnly, s.path)
	}
	if len(ids) == 0 {
		return nil
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite delete: begin: %w", err)
	}
	defer tx.Rollback()
	list := idList(ids)
	if _, err := tx.ExecContext(ctx, "DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE doc_id IN ("+idsSQL+"))", list); err != nil {
		return fmt.Errorf("sqlite delete: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM documents WHERE id IN ("+idsSQL+")", list); err != nil {
		return fmt.Errorf("sqlite delete: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite delete: commit: %w", err)
	}
	s.invalidate()
	return nil
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVector(b []byte, dst []float32) {
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
}

// idsSQL selects the ids of an idList argument. Ids travel hex-encoded so
// that any byte string (a file name need not be UTF-8) survives JSON.
const idsSQL = "SELECT CAST(unhex(value) AS TEXT) FROM json_each(?)"

func idList(ids []string) string {
	hx := make([]string, len(ids))
	for i, id := range ids {
		hx[i] = hex.EncodeToString([]byte(id))
	}
	b, _ := json.Marshal(hx)
	return string(b)
}
