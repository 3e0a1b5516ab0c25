package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
)

const (
	defaultK = 10
	// rrfK is the reciprocal rank fusion constant, shared with the
	// fusion of search legs in the RAG graph.
	rrfK = graphrag.RRFConstant
	// fuseDepth is how deep each list goes before fusion (at least K).
	fuseDepth = 50
)

// scored is a chunk (by rowid) with a score in one list.
type scored struct {
	rowid int64
	score float64
}

// Search runs a keyword, vector or hybrid query. See package storetest for
// the contract; in short: blank text is an error wrapping
// graphrag.ErrInvalidQuery, Mode "" means hybrid with an embedder and
// keyword without, and a store without an embedder answers vector and hybrid
// queries with keyword search and says so in the result.
//
// A keyword hit's Score is its BM25 score (sign flipped: higher is better)
// plus the second-pass boosts, which are fractions of the best BM25 score
// of the query; a document reached through a title link scores half the
// chunk that mentions it. Scores compare within one query, and the top one
// stays on the BM25 scale, so it still tells strong evidence from weak.
func (s *Store) Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	if err := ctx.Err(); err != nil {
		return graphrag.SearchResult{}, fmt.Errorf("sqlite search: %w", err)
	}
	if strings.TrimSpace(q.Text) == "" && q.Vector == nil {
		return graphrag.SearchResult{}, fmt.Errorf("sqlite search: %w: empty query text", graphrag.ErrInvalidQuery)
	}
	k := q.K
	if k <= 0 {
		k = defaultK
	}
	mode := q.Mode
	var res graphrag.SearchResult
	switch mode {
	case "":
		mode = graphrag.ModeKeyword
		if s.emb != nil {
			mode = graphrag.ModeHybrid
		}
	case graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid:
	default:
		return res, fmt.Errorf("sqlite search: %w: unknown mode %q (want keyword, vector or hybrid)", graphrag.ErrInvalidQuery, q.Mode)
	}
	if mode != graphrag.ModeKeyword && s.emb == nil {
		res.Note = fmt.Sprintf("no embedder configured: %s search ran as keyword (BM25) search", mode)
		mode = graphrag.ModeKeyword
	}
	if q.Vector != nil && mode != graphrag.ModeKeyword && len(q.Vector) != s.dim {
		return res, fmt.Errorf("sqlite search: %w: query vector has dimension %d, the store's embedder %s has %d", graphrag.ErrInvalidQuery, len(q.Vector), s.builtBy, s.dim)
	}
	res.Mode = mode

	var kw, vec []scored
	var err error
	depth := k
	if mode == graphrag.ModeHybrid {
		depth = max(k, fuseDepth)
	}
	if mode != graphrag.ModeVector {
		if kw, err = s.keyword(ctx, q.Text, q.Filters, depth); err != nil {
			return graphrag.SearchResult{}, fmt.Errorf("sqlite keyword search %.80q: %w", q.Text, err)
		}
	}
	if mode != graphrag.ModeKeyword {
		if vec, err = s.vector(ctx, q, depth); err != nil {
			return graphrag.SearchResult{}, fmt.Errorf("sqlite vector search %.80q: %w", q.Text, err)
		}
	}

	var list []ranked
	switch mode {
	case graphrag.ModeKeyword:
		for i, c := range kw {
			list = append(list, ranked{c.rowid, c.score, graphrag.Ranks{Keyword: i + 1}})
		}
	case graphrag.ModeVector:
		for i, c := range vec {
			list = append(list, ranked{c.rowid, c.score, graphrag.Ranks{Vector: i + 1}})
		}
	case graphrag.ModeHybrid:
		list = fuse(kw, vec)
	}
	if len(list) > k {
		list = list[:k]
	}
	hits, err := s.load(ctx, list)
	if err != nil {
		return graphrag.SearchResult{}, fmt.Errorf("sqlite search: %w", err)
	}
	res.Hits = hits
	return res, nil
}

// HybridLegs reports whether a hybrid search of this store fuses a keyword
// and a vector list: true when it has an embedder. Without one, hybrid
// search runs as keyword search alone.
func (s *Store) HybridLegs() bool { return s.emb != nil }

// SearchLeg runs one ranked list of a hybrid search: q.Mode is keyword or
// vector. It reads the list as deep as Search fuses it (at least q.K,
// fuseDepth by default), so that graphrag.FuseRRF of the two legs, cut to
// q.K, is what Search in hybrid mode returns. Each hit's Score is its score
// in that list (BM25 with the boosts, or cosine similarity) and its Ranks
// its position there. The RAG graph runs the two legs as parallel branches.
func (s *Store) SearchLeg(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	if err := ctx.Err(); err != nil {
		return graphrag.SearchResult{}, fmt.Errorf("sqlite search leg: %w", err)
	}
	if strings.TrimSpace(q.Text) == "" && q.Vector == nil {
		return graphrag.SearchResult{}, fmt.Errorf("sqlite search leg: %w: empty query text", graphrag.ErrInvalidQuery)
	}
	depth := max(q.K, defaultK, fuseDepth)
	var list []ranked
	switch q.Mode {
	case graphrag.ModeKeyword:
		kw, err := s.keyword(ctx, q.Text, q.Filters, depth)
		if err != nil {
			return graphrag.SearchResult{}, fmt.Errorf("sqlite keyword search %.80q: %w", q.Text, err)
		}
		for i, c := range kw {
			list = append(list, ranked{c.rowid, c.score, graphrag.Ranks{Keyword: i + 1}})
		}
	case graphrag.ModeVector:
		if s.emb == nil {
			return graphrag.SearchResult{}, fmt.Errorf("sqlite vector search leg: no embedder configured: %w", graphrag.ErrNotConfigured)
		}
		if q.Vector != nil && len(q.Vector) != s.dim {
			return graphrag.SearchResult{}, fmt.Errorf("sqlite search leg: %w: query vector has dimension %d, the store's embedder %s has %d", graphrag.ErrInvalidQuery, len(q.Vector), s.builtBy, s.dim)
		}
		vec, err := s.vector(ctx, q, depth)
		if err != nil {
			return graphrag.SearchResult{}, fmt.Errorf("sqlite vector search %.80q: %w", q.Text, err)
		}
		for i, c := range vec {
			list = append(list, ranked{c.rowid, c.score, graphrag.Ranks{Vector: i + 1}})
		}
	default:
		return graphrag.SearchResult{}, fmt.Errorf("sqlite search leg: %w: mode %q is not a leg (want keyword or vector)", graphrag.ErrInvalidQuery, q.Mode)
	}
	hits, err := s.load(ctx, list)
	if err != nil {
		return graphrag.SearchResult{}, fmt.Errorf("sqlite search leg: %w", err)
	}
	return graphrag.SearchResult{Hits: hits, Mode: q.Mode}, nil
}

// ranked is a chunk (by rowid) in the final list.
type ranked struct {
	rowid int64
	score float64
	ranks graphrag.Ranks
}

// fuse merges two ranked lists by reciprocal rank fusion.
func fuse(kw, vec []scored) []ranked {
	pos := map[int64]int{}
	var out []ranked
	add := func(list []scored, set func(r *graphrag.Ranks, rank int)) {
		for i, c := range list {
			j, ok := pos[c.rowid]
			if !ok {
				j = len(out)
				pos[c.rowid] = j
				out = append(out, ranked{rowid: c.rowid})
			}
			set(&out[j].ranks, i+1)
			out[j].score += 1 / float64(rrfK+i+1)
		}
	}
	add(kw, func(r *graphrag.Ranks, n int) { r.Keyword = n })
	add(vec, func(r *graphrag.Ranks, n int) { r.Vector = n })
	best := func(r graphrag.Ranks) int {
		m := 1 << 30
		if r.Keyword > 0 {
			m = r.Keyword
		}
		if r.Vector > 0 && r.Vector < m {
			m = r.Vector
		}
		return m
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return best(out[i].ranks) < best(out[j].ranks)
	})
	return out
}

// filterSQL returns a WHERE fragment over documents d (constant text with
// ? placeholders) and its arguments. It is "1" for no filter.
func filterSQL(f graphrag.Filters) (string, []any) {
	var conds []string
	var args []any
	if len(f.Types) > 0 {
		ts := make([]string, len(f.Types))
		for i, t := range f.Types {
			ts[i] = strings.ToLower(strings.TrimPrefix(t, "."))
		}
		b, _ := json.Marshal(ts)
		conds = append(conds, "d.type IN (SELECT value FROM json_each(?))")
		args = append(args, string(b))
	}
	if f.Source != "" {
		src := clean(f.Source)
		conds = append(conds, "(graphrag_contains_fold(d.path, ?) OR graphrag_contains_fold(d.title, ?))")
		args = append(args, src, src)
	}
	if !f.Since.IsZero() {
		conds = append(conds, "d.mod_time >= ?")
		args = append(args, f.Since.UnixNano())
	}
	if !f.Until.IsZero() {
		conds = append(conds, "d.mod_time < ?")
		args = append(args, f.Until.UnixNano())
	}
	if len(f.DocIDs) > 0 {
		conds = append(conds, "d.id IN ("+idsSQL+")")
		args = append(args, idList(f.DocIDs))
	}
	if len(conds) == 0 {
		return "1", nil
	}
	return strings.Join(conds, " AND "), args
}

// load reads the chunks and sources of the ranked list, in its order.
func (s *Store) load(ctx context.Context, list []ranked) ([]graphrag.Hit, error) {
	if len(list) == 0 {
		return nil, nil
	}
	rowids := make([]int64, len(list))
	for i, r := range list {
		rowids[i] = r.rowid
	}
	b, _ := json.Marshal(rowids)
	rows, err := s.db.QueryContext(ctx, `
		SELECT c.rowid, c.id, c.doc_id, c.ordinal, f.text, c.heading, c.symbol, c.kind, c.start_line, c.end_line, d.path, d.title, d.type, d.mod_time
		FROM chunks c
		JOIN chunks_fts f ON f.rowid = c.rowid
		JOIN documents d ON d.id = c.doc_id
		WHERE c.rowid IN (SELECT value FROM json_each(?))`, string(b))
	if err != nil {
		return nil, fmt.Errorf("load hits: %w", err)
	}
	defer rows.Close()
	got := make(map[int64]graphrag.Hit, len(list))
	for rows.Next() {
		var h graphrag.Hit
		var rowid, mod int64
		if err := rows.Scan(&rowid, &h.Chunk.ID, &h.Chunk.DocID, &h.Chunk.Ordinal, &h.Chunk.Text, &h.Chunk.Heading, &h.Chunk.Symbol, &h.Chunk.Kind, &h.Chunk.StartLine, &h.Chunk.EndLine, &h.Source.Path, &h.Source.Title, &h.Source.Type, &mod); err != nil {
			return nil, fmt.Errorf("load hits: %w", err)
		}
		h.Source.DocID = h.Chunk.DocID
		if mod != 0 {
			h.Source.ModTime = time.Unix(0, mod).UTC()
		}
		got[rowid] = h
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load hits: %w", err)
	}
	hits := make([]graphrag.Hit, 0, len(list))
	for _, r := range list {
		h, ok := got[r.rowid]
		if !ok {
			continue // deleted by a concurrent writer since it was ranked
		}
		h.Score, h.Ranks = r.score, r.ranks
		hits = append(hits, h)
	}
	return hits, nil
}
