package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
)

// Copies returns the passages whose text is text, word for word, in the
// documents whose IDs begin with one of prefixes, ordered by document ID
// (bytewise) and place (retrievers/storetest states the contract both
// stores keep). Each prefix is a range of the documents' primary key, so
// the work grows with the documents under the prefixes, not with the
// store. Its hits have no score: they were read, not ranked.
func (s *Store) Copies(ctx context.Context, text string, prefixes []string) ([]graphrag.Hit, error) {
	if slices.Contains(prefixes, "") {
		return nil, fmt.Errorf("sqlite copies: %w: an empty prefix names every document", graphrag.ErrInvalidQuery)
	}
	var list []ranked
	seen := map[int64]bool{}
	for _, p := range prefixes {
		rows, err := s.db.QueryContext(ctx, `
			SELECT c.rowid FROM documents d
			JOIN chunks c ON c.doc_id = d.id
			JOIN chunks_fts f ON f.rowid = c.rowid
			WHERE d.id >= ? AND d.id < ? AND f.text = ?`, p, prefixEnd(p), text)
		if err != nil {
			return nil, fmt.Errorf("sqlite copies: %w", err)
		}
		for rows.Next() {
			var rowid int64
			if err := rows.Scan(&rowid); err != nil {
				rows.Close()
				return nil, fmt.Errorf("sqlite copies: %w", err)
			}
			if !seen[rowid] { // prefixes may overlap
				seen[rowid] = true
				list = append(list, ranked{rowid: rowid})
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("sqlite copies: %w", err)
		}
	}
	hits, err := s.load(ctx, list)
	if err != nil {
		return nil, fmt.Errorf("sqlite copies: %w", err)
	}
	// The prefixes' ranges may come in any order and overlap: one sort.
	slices.SortStableFunc(hits, func(a, b graphrag.Hit) int {
		return cmp.Or(strings.Compare(a.Chunk.DocID, b.Chunk.DocID), cmp.Compare(a.Chunk.Ordinal, b.Chunk.Ordinal))
	})
	return hits, nil
}

// prefixEnd is the least string above every string that begins with p
// (bytewise, as SQLite compares text): p with its last byte raised by
// one, after dropping the 0xff bytes that cannot be. It is "" for no such
// string (p all 0xff), which no ID is below.
func prefixEnd(p string) string {
	b := []byte(p)
	for len(b) > 0 && b[len(b)-1] == 0xff {
		b = b[:len(b)-1]
	}
	if len(b) == 0 {
		return ""
	}
	b[len(b)-1]++
	return string(b)
}
