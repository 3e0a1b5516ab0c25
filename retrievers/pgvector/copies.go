package pgvector

import (
	"context"
	"fmt"
	"slices"

	"github.com/graphrag/graphrag"
)

// Copies returns the passages whose text is text, word for word, in the
// documents whose IDs begin with one of prefixes, ordered by document ID
// and place (retrievers/storetest states the contract both stores keep).
// The documents are picked first, so only their chunks are compared; the
// IDs are ordered bytewise (COLLATE "C"), as the embedded store orders
// them, whatever the database's collation.
func (s *Store) Copies(ctx context.Context, text string, prefixes []string) ([]graphrag.Hit, error) {
	if slices.Contains(prefixes, "") {
		return nil, fmt.Errorf("pgvector copies: %w: an empty prefix names every document", graphrag.ErrInvalidQuery)
	}
	if len(prefixes) == 0 {
		return nil, nil
	}
	return s.readPassages(ctx, "copies", `c.text = $3 AND c.doc_id IN (
			SELECT id FROM documents
			WHERE collection_id = $1 AND EXISTS (SELECT 1 FROM unnest($2::text[]) p WHERE starts_with(id, p)))`,
		`c.doc_id COLLATE "C", c.ordinal`, prefixes, text)
}
