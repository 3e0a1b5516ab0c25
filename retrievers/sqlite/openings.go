package sqlite

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/graphrag/graphrag"
)

// Openings returns the first passage of each document of ids the store
// holds, in the order of ids; a document it does not hold is skipped. A
// file's opening says what the search may never rank first: a Debian
// changelog's is its newest release, the one installed. Its hits have no
// score: they were read, not ranked.
func (s *Store) Openings(ctx context.Context, ids []string) ([]graphrag.Hit, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	b, _ := json.Marshal(ids)
	rows, err := s.db.QueryContext(ctx, `
		SELECT c.rowid, c.doc_id FROM chunks c
		WHERE c.doc_id IN (SELECT value FROM json_each(?)) AND c.ordinal = 0`, string(b))
	if err != nil {
		return nil, fmt.Errorf("sqlite openings: %w", err)
	}
	defer rows.Close()
	first := make(map[string]int64, len(ids))
	for rows.Next() {
		var rowid int64
		var doc string
		if err := rows.Scan(&rowid, &doc); err != nil {
			return nil, fmt.Errorf("sqlite openings: %w", err)
		}
		first[doc] = rowid
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite openings: %w", err)
	}
	list := make([]ranked, 0, len(first))
	for _, id := range ids {
		if rowid, ok := first[id]; ok {
			list = append(list, ranked{rowid: rowid})
			delete(first, id) // an id given twice is read once
		}
	}
	hits, err := s.load(ctx, list)
	if err != nil {
		return nil, fmt.Errorf("sqlite openings: %w", err)
	}
	return hits, nil
}
