package pgvector

import (
	"context"

	"github.com/graphrag/graphrag"
	"github.com/jackc/pgx/v5"
)

// Openings returns the first passage of each document of ids the
// collection holds, in the order of ids; a document it does not hold is
// skipped. A file's opening says what the search may never rank first: a
// Debian changelog's is its newest release, the one installed. Its hits
// have no score: they were read, not ranked.
func (s *Store) Openings(ctx context.Context, ids []string) ([]graphrag.Hit, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	got, err := s.readPassages(ctx, "openings", `c.ordinal = 0 AND c.doc_id = ANY($2::text[])`, "", ids)
	if err != nil {
		return nil, err
	}
	byDoc := make(map[string]graphrag.Hit, len(got))
	for _, h := range got {
		byDoc[h.Chunk.DocID] = h
	}
	hits := make([]graphrag.Hit, 0, len(got))
	for _, id := range ids {
		if h, ok := byDoc[id]; ok {
			hits = append(hits, h)
			delete(byDoc, id) // an id given twice is read once
		}
	}
	return hits, nil
}

// readPassages returns the collection's passages that where selects (a
// condition on chunks c and documents d, in which $1 is the collection
// and args are $2 on), in the order orderBy gives ("" for none), without
// scores: they are read, not ranked. Before anything is ingested there
// are none.
func (s *Store) readPassages(ctx context.Context, op, where, orderBy string, args ...any) ([]graphrag.Hit, error) {
	c, found, err := s.collection(ctx)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, nil // nothing ingested yet
	}
	query := `
		SELECT c.doc_id, c.ordinal, 0::float8, 0::bigint, 0::bigint, ` + chunkColumns + `
		FROM chunks c
		JOIN documents d ON d.collection_id = c.collection_id AND d.id = c.doc_id
		WHERE c.collection_id = $1 AND ` + where
	if orderBy != "" {
		query += " ORDER BY " + orderBy
	}
	rows, err := s.pool.Query(ctx, query, append([]any{c.id}, args...)...)
	if err != nil {
		return nil, s.wrap(ctx, op, err)
	}
	hits, err := pgx.CollectRows(rows, scanHit)
	if err != nil {
		return nil, s.wrap(ctx, op, err)
	}
	return hits, nil
}
