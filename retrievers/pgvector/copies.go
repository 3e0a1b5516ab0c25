package pgvector

import (
	"context"
	"fmt"
	"slices"

	"github.com/graphrag/graphrag"
	"github.com/jackc/pgx/v5"
)

// Copies returns the passages whose text is text, word for word, in the
// documents whose IDs begin with one of prefixes, in the order of their
// document IDs (bytewise, as the embedded store orders them) and then of
// their places. A distribution ships one text in many folders (Debian: a
// source package's changelog in the folder of each binary package built
// from it); a caller that knows which folders it wants reads their copies
// of a passage here, without a search that ranks every copy alike. The
// documents are picked first, so only their chunks are compared. Its hits
// have no score: they were read, not ranked.
func (s *Store) Copies(ctx context.Context, text string, prefixes []string) ([]graphrag.Hit, error) {
	if slices.Contains(prefixes, "") {
		return nil, fmt.Errorf("pgvector copies: %w: an empty prefix names every document", graphrag.ErrInvalidQuery)
	}
	if len(prefixes) == 0 {
		return nil, nil
	}
	c, found, err := s.collection(ctx)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, nil // nothing ingested yet
	}
	rows, err := s.pool.Query(ctx, `
		SELECT c.doc_id, c.ordinal, 0::float8, 0::bigint, 0::bigint, `+chunkColumns+`
		FROM chunks c
		JOIN documents d ON d.collection_id = c.collection_id AND d.id = c.doc_id
		WHERE c.collection_id = $1 AND c.text = $3 AND c.doc_id IN (
			SELECT id FROM documents
			WHERE collection_id = $1 AND EXISTS (SELECT 1 FROM unnest($2::text[]) p WHERE starts_with(id, p)))
		ORDER BY c.doc_id COLLATE "C", c.ordinal`, c.id, prefixes, text)
	if err != nil {
		return nil, s.wrap(ctx, "copies", err)
	}
	hits, err := pgx.CollectRows(rows, scanHit)
	if err != nil {
		return nil, s.wrap(ctx, "copies", err)
	}
	return hits, nil
}
