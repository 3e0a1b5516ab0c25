package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// keyword returns the best n chunks for the text by BM25, re-scored (see
// rerank), honouring the filters. The same query again before a write is
// answered from the recent lists.
func (s *Store) keyword(ctx context.Context, text string, f graphrag.Filters, n int) ([]scored, error) {
	ts := terms(text)
	if len(ts) == 0 {
		return nil, nil
	}
	depth := n
	if s.rank.reranks() {
		depth = max(n, s.rank.Depth)
	}
	return s.remembered(&s.recent, keywordKey(text, f), n, depth, func() ([]scored, error) {
		return s.rankKeyword(ctx, text, ts, f, depth)
	})
}

// rankKeyword is keyword's work: the best depth chunks by BM25, reranked.
func (s *Store) rankKeyword(ctx context.Context, text string, ts []string, f graphrag.Filters, depth int) ([]scored, error) {
	out, err := s.bm25Any(ctx, ts, f, depth)
	if err != nil {
		return nil, err
	}
	if s.rank.Symbol != 0 {
		if out, err = s.withDeclarations(ctx, text, f, out); err != nil {
			return nil, err
		}
	}
	if s.rank.reranks() && len(out) > 0 {
		return s.rerank(ctx, text, ts, f, out)
	}
	return out, nil
}

// bm25 returns the best n chunks holding any of the terms by BM25 alone,
// honouring the filters.
func (s *Store) bm25(ctx context.Context, ts []string, f graphrag.Filters, n int) ([]scored, error) {
	return s.bm25Match(ctx, matchExpr(ts), f, n)
}

// bm25Any is bm25 for a keyword list or a probe: the best n chunks holding
// any of the terms. Ranking every chunk that holds any term is most of a
// query's cost, and a question asks it twice within milliseconds (the
// route's probe, when no chunk holds every word, then the retrieval), so
// the list is computed once at the depth a keyword search reranks
// (Ranking.Depth) and kept with the recent lists: the later call takes it
// from there. The order is BM25's, ties by rowid, so that a short list is
// the start of a longer one.
func (s *Store) bm25Any(ctx context.Context, ts []string, f graphrag.Filters, n int) ([]scored, error) {
	depth := max(n, s.rank.Depth)
	return s.remembered(&s.recentBM25, keywordKey(strings.Join(ts, " "), f), n, depth, func() ([]scored, error) {
		return s.bm25(ctx, ts, f, depth)
	})
}

// bm25Match returns the best n chunks matching an FTS5 expression by BM25
// alone, honouring the filters.
func (s *Store) bm25Match(ctx context.Context, match string, f graphrag.Filters, n int) ([]scored, error) {
	where, args := filterSQL(f)
	var query string
	if where == "1" {
		query = `SELECT rowid, -bm25(chunks_fts, ?, ?) AS score FROM chunks_fts
			WHERE chunks_fts MATCH ? ORDER BY score DESC, rowid LIMIT ?`
		args = []any{s.rank.TitleWeight, s.rank.TextWeight, match, n}
	} else {
		query = `SELECT chunks_fts.rowid, -bm25(chunks_fts, ?, ?) AS score FROM chunks_fts
			JOIN chunks c ON c.rowid = chunks_fts.rowid
			JOIN documents d ON d.id = c.doc_id
			WHERE chunks_fts MATCH ? AND ` + where + ` ORDER BY score DESC, chunks_fts.rowid LIMIT ?`
		args = append([]any{s.rank.TitleWeight, s.rank.TextWeight, match}, append(args, n)...)
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []scored
	for rows.Next() {
		var c scored
		if err := rows.Scan(&c.rowid, &c.score); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// maxDeclarations bounds the chunks one qualified name adds to the
// candidates: a long declaration is cut in a few chunks, each named by it.
const maxDeclarations = 8

// withDeclarations adds to the BM25 candidates the chunks whose symbol is
// a package-qualified name the query writes ("errors.Is", "sync.WaitGroup"),
// found by the symbol in their title (text.SymbolTitle): a long doc comment
// ranks low by BM25 for the very name it documents (errors.Is under a
// hundred chunks that say "errors"), and the symbol boost of rerank can
// only lift a candidate. Each joins with the lowest candidate's score, as
// if it had just made the cut; rerank decides from there.
func (s *Store) withDeclarations(ctx context.Context, query string, f graphrag.Filters, cands []scored) ([]scored, error) {
	q := newQueryFeatures(query, nil)
	if len(q.qualified) == 0 {
		return cands, nil
	}
	floor := 0.0
	if len(cands) > 0 {
		floor = cands[len(cands)-1].score
	}
	have := make(map[int64]bool, len(cands))
	for _, c := range cands {
		have[c.rowid] = true
	}
	names := make([]string, 0, len(q.qualified))
	for name := range q.qualified {
		names = append(names, name)
	}
	sort.Strings(names) // the same candidates in the same order every time
	for _, name := range names {
		pkg, ident, _ := strings.Cut(name, ".")
		// Both are identifiers (newQueryFeatures), so the phrase needs no
		// escaping beyond its quotes.
		decl, err := s.bm25Match(ctx, `{title} : "`+pkg+" "+ident+`"`, f, maxDeclarations)
		if err != nil {
			return nil, fmt.Errorf("declarations of %s: %w", name, err)
		}
		for _, d := range decl {
			if !have[d.rowid] {
				have[d.rowid] = true
				cands = append(cands, scored{d.rowid, floor})
			}
		}
	}
	return cands, nil
}

// rerank re-scores BM25 candidates with evidence BM25 cannot see: query
// words that stand next to each other in the chunk as in the query
// (phrases), query words close together (proximity), how much of the
// title the query covers, and the document's role (Ranking.Roles).
func (s *Store) rerank(ctx context.Context, text string, ts []string, f graphrag.Filters, cands []scored) ([]scored, error) {
	rowids := make([]int64, len(cands))
	for i, c := range cands {
		rowids[i] = c.rowid
	}
	b, _ := json.Marshal(rowids)
	rows, err := s.db.QueryContext(ctx, `SELECT f.rowid, f.title, f.text, c.symbol, c.kind, coalesce(d.metadata->>'role', ''), c.doc_id, c.ordinal
		FROM chunks_fts f JOIN chunks c ON c.rowid = f.rowid JOIN documents d ON d.id = c.doc_id
		WHERE f.rowid IN (SELECT value FROM json_each(?))`, string(b))
	if err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	defer rows.Close()
	type doc struct {
		title, text, symbol, kind, role, docID string
		ordinal                                int
	}
	docs := make(map[int64]doc, len(cands))
	for rows.Next() {
		var id int64
		var d doc
		if err := rows.Scan(&id, &d.title, &d.text, &d.symbol, &d.kind, &d.role, &d.docID, &d.ordinal); err != nil {
			return nil, fmt.Errorf("rerank: %w", err)
		}
		docs[id] = d
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	q := newQueryFeatures(text, ts)
	top := cands[0].score
	for i := range cands {
		d := docs[cands[i].rowid]
		cands[i].score += top * s.rank.boost(q, d.title, d.text)
		if s.rank.Symbol != 0 && !proseKind(d.kind) && q.declares(d.symbol, d.text) {
			cands[i].score += top * s.rank.Symbol
		}
		if w, ok := s.rank.Roles[d.role]; ok && d.role != "" {
			cands[i].score *= w
		}
	}
	// Equal scores are ordered by document and place, as the PostgreSQL
	// store orders them: the same files give the same order whatever
	// order ingest wrote them in (a package's copyright file shipped
	// again by its -dev package).
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		a, b := docs[cands[i].rowid], docs[cands[j].rowid]
		if a.docID != b.docID {
			return a.docID < b.docID
		}
		return a.ordinal < b.ordinal
	})
	if s.rank.Links > 0 && s.rank.LinkFrom > 0 {
		texts := make([]string, 0, s.rank.LinkFrom)
		for _, c := range cands[:min(s.rank.LinkFrom, len(cands))] {
			texts = append(texts, docs[c.rowid].text)
		}
		if cands, err = s.follow(ctx, cands, texts, f); err != nil {
			return nil, err
		}
	}
	return cands, nil
}

// follow adds the documents whose titles the best chunks mention (the way
// a wiki page links another): a question about "the company X worked for"
// finds X's chunk by its words, and the company's own document through the
// name in X's text. A linked document's first chunk gets Links times the
// linking chunk's score, if that is more than it had. Links honour the
// filters like everything else.
func (s *Store) follow(ctx context.Context, cands []scored, texts []string, f graphrag.Filters) ([]scored, error) {
	ti, err := s.titleIndex(ctx)
	if err != nil {
		return nil, err
	}
	linked := make([][]int64, len(texts))
	var targets []int64
	for li, chunkText := range texts {
		linked[li] = ti.mentions(text.FoldedWords(chunkText))
		targets = append(targets, linked[li]...)
	}
	var allowed map[int64]bool
	if !f.IsZero() && len(targets) > 0 {
		// Only the documents linked to are checked against the filters:
		// a filter that most files pass ("copyright") would otherwise
		// list every chunk of the store.
		if allowed, err = s.allowedAmong(ctx, f, targets); err != nil {
			return nil, err
		}
	}
	pos := make(map[int64]int, len(cands))
	for i, c := range cands {
		pos[c.rowid] = i
	}
	for li := range texts {
		from := cands[li]
		linkScore := s.rank.Links * from.score
		added := 0
		for _, rowid := range linked[li] {
			if rowid == from.rowid || added >= maxLinksPerChunk || allowed != nil && !allowed[rowid] {
				continue
			}
			added++
			if i, ok := pos[rowid]; ok {
				cands[i].score = max(cands[i].score, linkScore)
				continue
			}
			pos[rowid] = len(cands)
			cands = append(cands, scored{rowid, linkScore})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	return cands, nil
}
