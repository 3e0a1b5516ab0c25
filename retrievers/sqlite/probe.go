package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// Probe is a first look at how much the store holds about a text: the best
// q.K chunks (default 10) by BM25 alone among those that hold every word of
// the text or, when none does, among those that hold any, honouring
// q.Filters. It skips the second pass of a keyword Search (re-scoring the
// top Ranking.Depth candidates by proximity and titles, following title
// links): the router asks it of nearly every question before deciding where
// to send it, so it must cost little; ranking for an answer is Search's
// job. q.Mode and q.Vector are ignored. Blank text is an error wrapping
// graphrag.ErrInvalidQuery.
func (s *Store) Probe(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	if err := ctx.Err(); err != nil {
		return graphrag.SearchResult{}, fmt.Errorf("sqlite probe: %w", err)
	}
	if strings.TrimSpace(q.Text) == "" {
		return graphrag.SearchResult{}, fmt.Errorf("sqlite probe: %w: empty query text", graphrag.ErrInvalidQuery)
	}
	k := q.K
	if k <= 0 {
		k = defaultK
	}
	res := graphrag.SearchResult{Mode: graphrag.ModeKeyword}
	ts := terms(q.Text)
	if len(ts) == 0 {
		return res, nil
	}
	// Chunks that hold every term are the strongest evidence there is, and
	// finding them costs a fraction of ranking every chunk that holds any
	// term (on Go's source tree, 120,000 chunks: 1-16 ms against 20-110 ms
	// for two or three common words).
	var kw []scored
	var err error
	if all := allOf(q.Text); len(ts) > 1 && all != "" {
		kw, err = s.bm25Match(ctx, all, q.Filters, k)
	}
	if err == nil && len(kw) == 0 {
		kw, err = s.bm25Any(ctx, ts, q.Filters, k)
	}
	if err != nil {
		return graphrag.SearchResult{}, fmt.Errorf("sqlite probe %.80q: %w", q.Text, err)
	}
	list := make([]ranked, len(kw))
	for i, c := range kw {
		list[i] = ranked{c.rowid, c.score, graphrag.Ranks{Keyword: i + 1}}
	}
	if res.Hits, err = s.load(ctx, list); err != nil {
		return graphrag.SearchResult{}, fmt.Errorf("sqlite probe: %w", err)
	}
	return res, nil
}

// allOf is the FTS5 expression matching chunks that hold every word of the
// text but stop words, the words of one dotted or joined name ("io.EOF",
// "net/http") side by side as in the text.
func allOf(q string) string {
	var parts []string
	seen := map[string]bool{}
	for _, field := range strings.Fields(q) {
		ws := text.FoldedWords(field)
		topical := false
		for _, w := range ws {
			topical = topical || !text.QueryStopWords[w]
		}
		if !topical {
			continue
		}
		phrase := `"` + strings.ReplaceAll(strings.Join(ws, " "), `"`, `""`) + `"`
		if !seen[phrase] {
			seen[phrase] = true
			parts = append(parts, phrase)
		}
		if len(parts) == maxQueryTerms {
			break
		}
	}
	return strings.Join(parts, " AND ")
}
