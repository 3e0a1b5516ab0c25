package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphrag/graphrag/internal/text"
)

// titleIndex maps each document title, as a word sequence, to the rowid of
// the document's first chunk. Titles shared by more than maxTitleDocs
// documents are ambiguous and left out, as are titles without a content
// word. A parenthesised qualifier at the end is dropped ("Alien (film)"
// is mentioned as "Alien").
type titleIndex struct {
	first  map[string][]int64
	maxLen int
}

const (
	maxTitleDocs  = 3
	maxTitleWords = 8
)

func titleKey(title string) (string, int) {
	title = strings.TrimSpace(title)
	if i := strings.LastIndex(title, " ("); i > 0 && strings.HasSuffix(title, ")") {
		title = title[:i]
	}
	ws := text.FoldedWords(title)
	if len(ws) == 0 || len(ws) > maxTitleWords {
		return "", 0
	}
	content := false
	for _, w := range ws {
		if !text.QueryStopWords[w] && len(w) > 1 {
			content = true
		}
	}
	if !content || len(ws) == 1 && len([]rune(ws[0])) < 4 {
		return "", 0
	}
	return strings.Join(ws, " "), len(ws)
}

// mentions returns the first-chunk rowids of the documents whose titles
// occur in ws, in order of first occurrence, longest title first at a
// position.
func (ti *titleIndex) mentions(ws []string) []int64 {
	var out []int64
	seen := map[int64]bool{}
	for i := range ws {
		for n := min(ti.maxLen, len(ws)-i); n >= 1; n-- {
			ids, ok := ti.first[strings.Join(ws[i:i+n], " ")]
			if !ok {
				continue
			}
			for _, id := range ids {
				if !seen[id] {
					seen[id] = true
					out = append(out, id)
				}
			}
			break
		}
	}
	return out
}

// titleIndex returns the index, loading it if a write dropped it.
func (s *Store) titleIndex(ctx context.Context) (*titleIndex, error) {
	s.tload.Lock() // one loader at a time; the others wait and reuse
	defer s.tload.Unlock()
	s.vmu.Lock()
	if ti := s.titles; ti != nil {
		s.vmu.Unlock()
		return ti, nil
	}
	gen := s.gen
	s.vmu.Unlock()
	rows, err := s.db.QueryContext(ctx, `SELECT d.title, (SELECT c.rowid FROM chunks c WHERE c.doc_id = d.id ORDER BY c.ordinal LIMIT 1) FROM documents d`)
	if err != nil {
		return nil, fmt.Errorf("load titles: %w", err)
	}
	defer rows.Close()
	ti := &titleIndex{first: map[string][]int64{}}
	for rows.Next() {
		var title string
		var rowid *int64
		if err := rows.Scan(&title, &rowid); err != nil {
			return nil, fmt.Errorf("load titles: %w", err)
		}
		key, n := titleKey(title)
		if key == "" || rowid == nil {
			continue
		}
		ti.first[key] = append(ti.first[key], *rowid)
		ti.maxLen = max(ti.maxLen, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load titles: %w", err)
	}
	for k, ids := range ti.first {
		if len(ids) > maxTitleDocs {
			delete(ti.first, k)
		}
	}
	s.vmu.Lock()
	if s.gen == gen {
		s.titles = ti
	}
	s.vmu.Unlock()
	return ti, nil
}
