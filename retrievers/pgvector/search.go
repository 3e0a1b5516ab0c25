package pgvector

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pgvector/pgvector-go"
)

// Search runs q against the collection. Mode "" means hybrid with an embedder
// and keyword without one; a store without an embedder answers vector and
// hybrid queries with keyword search and says so in Mode and Note. The
// hybrid query is one SQL statement: a full-text CTE and a vector CTE fused
// by reciprocal rank fusion, both ranks returned. If the full-text part fails
// (say, the collection's text-search configuration was dropped) a hybrid
// query falls back to vector search and says so in Note.
//
// Text is searched as plain words (at most 4 KB, 32 distinct words, English
// stop words dropped); any text is safe. Keyword candidates are the chunks
// holding at least two of the words when there are at least k of them,
// else the chunks holding any word; either way they are ranked by how many
// of the words they hold, weighted by inverse document frequency, and by
// ts_rank_cd against all of them (see keywordRank). Blank text with no Vector fails with
// graphrag.ErrInvalidQuery, as does an unknown mode or a Vector of the wrong
// dimension.
func (s *Store) Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	if err := ctx.Err(); err != nil {
		return graphrag.SearchResult{}, fmt.Errorf("pgvector: search: %w", err)
	}
	blank := strings.TrimSpace(q.Text) == ""
	if blank && q.Vector == nil {
		return graphrag.SearchResult{}, fmt.Errorf("pgvector: search: %w: empty query text", graphrag.ErrInvalidQuery)
	}
	mode, note := q.Mode, ""
	switch mode {
	case "":
		mode = graphrag.ModeHybrid
		if s.opts.Embedder == nil {
			mode = graphrag.ModeKeyword
		}
	case graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid:
		if mode != graphrag.ModeKeyword && s.opts.Embedder == nil {
			mode, note = graphrag.ModeKeyword, "no embedder configured: keyword search only"
		}
	default:
		return graphrag.SearchResult{}, fmt.Errorf("pgvector: search: %w: unknown mode %q (want keyword, vector or hybrid)", graphrag.ErrInvalidQuery, q.Mode)
	}
	if mode == graphrag.ModeKeyword && blank {
		return graphrag.SearchResult{}, fmt.Errorf("pgvector: search: %w: keyword search needs text", graphrag.ErrInvalidQuery)
	}
	k := q.K
	if k <= 0 {
		k = 10
	}
	k = min(k, maxK)

	var vec []float32
	if mode != graphrag.ModeKeyword {
		_, dim := s.embedderName()
		vec = q.Vector
		if vec == nil {
			vs, err := s.opts.Embedder.Embed(ctx, []string{cleanText(capText(q.Text, maxQueryBytes))})
			if err != nil {
				return graphrag.SearchResult{}, fmt.Errorf("pgvector: search: embed the query with %q: %w", s.opts.Embedder.Name(), err)
			}
			if len(vs) != 1 {
				return graphrag.SearchResult{}, fmt.Errorf("pgvector: search: embedder %q returned %d vectors for 1 text", s.opts.Embedder.Name(), len(vs))
			}
			vec = vs[0]
		}
		if err := checkVector(vec, dim); err != nil {
			return graphrag.SearchResult{}, fmt.Errorf("pgvector: search: %w: query vector: %v", graphrag.ErrInvalidQuery, err)
		}
	}
	res := graphrag.SearchResult{Mode: mode, Note: note}

	c, found, err := s.collection(ctx)
	if err != nil {
		return graphrag.SearchResult{}, err
	}
	if !found {
		return res, nil // nothing ingested yet
	}
	if name, dim := s.embedderName(); c.embedder != name || c.dim != dim {
		// Only an empty collection can differ (Open checked); another
		// process may have filled it since.
		fresh, found, err := s.loadCollection(ctx, s.pool)
		if err != nil {
			return graphrag.SearchResult{}, err
		}
		if found {
			if err := s.checkEmbedder(fresh); err != nil {
				return graphrag.SearchResult{}, err
			}
		}
		if !found || fresh.embedder != name || fresh.dim != dim {
			return res, nil // empty, built for another embedder: nothing to find
		}
		s.setCollection(fresh)
		c = fresh
	}
	p := s.params(c, q, mode, k, vec)
	words := p.setWords(q.Text)
	if mode == graphrag.ModeKeyword && len(words) == 0 {
		return res, nil // no searchable word
	}

	hits, err := s.run(ctx, p, s.statement(mode, c.dim, p.filtered))
	if err != nil && mode == graphrag.ModeHybrid && ctx.Err() == nil && isServerError(err) {
		// The full-text leg is the fragile one (configuration, odd input):
		// answer with the vector leg alone rather than nothing.
		vh, verr := s.run(ctx, p, s.statement(graphrag.ModeVector, c.dim, p.filtered))
		if verr == nil {
			res.Mode = graphrag.ModeVector
			res.Note = "full-text search failed, vector search only: " + err.Error()
			res.Hits = vh
			return res, nil
		}
	}
	if err != nil {
		return graphrag.SearchResult{}, s.wrap(ctx, "search", err)
	}
	res.Hits = hits
	return res, nil
}

// isServerError reports whether err came from the server (not the network or
// the context).
func isServerError(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code != "57014" // query_canceled
}

// rescorePool is how many keyword candidates (at least) the coverage score
// keeps for the IDF rescoring (see keywordCTE).
const rescorePool = 30

type searchParams struct {
	args     pgx.NamedArgs
	depth    int
	filtered bool
}

func (s *Store) params(c collection, q graphrag.Query, mode graphrag.SearchMode, k int, vec []float32) searchParams {
	f := q.Filters
	args := pgx.NamedArgs{
		"coll":   c.id,
		"tscfg":  c.tsConfig,
		"k":      k,
		"rrfk":   float64(s.opts.RRFK),
		"wk":     s.opts.KeywordWeight,
		"wv":     s.opts.VectorWeight,
		"source": strings.ToLower(cleanText(capText(f.Source, maxQueryBytes))),
		"types":  nil,
		"docids": nil,
		"since":  nil,
		"until":  nil,
		"vec":    nil,
		"vecok":  false,
	}
	if len(f.Types) > 0 {
		ts := make([]string, len(f.Types))
		for i, t := range f.Types {
			ts[i] = strings.ToLower(cleanText(capText(t, 256)))
		}
		args["types"] = ts
	}
	if len(f.DocIDs) > 0 {
		ids := make([]string, 0, len(f.DocIDs))
		for _, id := range f.DocIDs {
			if validText(id) == nil {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			ids = []string{} // none storable: match nothing
		}
		args["docids"] = ids
	}
	if !f.Since.IsZero() {
		args["since"] = f.Since
	}
	if !f.Until.IsZero() {
		args["until"] = f.Until
	}
	if vec != nil && !isZero(vec) {
		args["vec"] = pgvector.NewVector(vec)
		args["vecok"] = true
	}
	depth := k
	if mode == graphrag.ModeHybrid {
		depth = min(max(3*k, 50), maxK)
	}
	args["depth"] = depth
	args["pool"] = max(depth, rescorePool)
	args["need"] = k
	names, weights := make([]string, 0, len(s.opts.Roles)), make([]float64, 0, len(s.opts.Roles))
	for role, w := range s.opts.Roles {
		names, weights = append(names, role), append(weights, w)
	}
	args["rolekey"], args["rolenames"], args["roleweights"] = graphrag.MetaRole, names, weights
	args["symbolboost"] = max(s.opts.SymbolBoost, 0)
	qualified, bare := text.Symbols(capText(q.Text, maxQueryBytes))
	args["qualified"], args["names"] = qualified, bare
	args["entries"], args["entrypkgs"] = blockEntries(qualified, bare)
	return searchParams{args: args, depth: depth, filtered: !f.IsZero()}
}

// setWords sets the full-text parameters of text and returns its words.
func (p searchParams) setWords(text string) []string {
	words := queryWords(text)
	p.args["q"] = orQuery(words)
	p.args["words"] = strings.Join(words, " ")
	p.args["strict"] = pairQuery(words)
	p.args["strictok"] = len(words) > 1
	p.args["kwok"] = len(words) > 0
	return words
}

// filterSQL narrows chunks c by their document; every value is a parameter.
// It is left out of unfiltered queries, which then need no join.
const filterSQL = `
	  AND EXISTS (SELECT FROM documents d WHERE d.collection_id = c.collection_id AND d.id = c.doc_id
	      AND (@types::text[] IS NULL OR lower(d.type) = ANY(@types::text[]))
	      AND (@source::text = '' OR strpos(lower(d.path), @source::text) > 0 OR strpos(lower(d.title), @source::text) > 0)
	      AND (@since::timestamptz IS NULL OR d.mtime >= @since::timestamptz)
	      AND (@until::timestamptz IS NULL OR d.mtime < @until::timestamptz))
	  AND (@docids::text[] IS NULL OR c.doc_id = ANY(@docids::text[]))`

// Keyword scoring is two-stage. keywordRank is ts_rank_cd against an OR of
// the query's words with
//   - weights {D 0.1, C 0.2, B 0.25, A 1.0}: the title (A) counts four times
//     the text (B);
//   - normalisation 5 (1|4): divided by 1 + log(chunk length), so long chunks
//     do not win by size alone, and by the mean harmonic distance between
//     cover extents, so words close together rank higher.
//
// First every candidate is scored by its coverage squared (the number of
// distinct query lexemes it holds, title or text: its lexemes minus those
// left after ts_delete removes the query's) times keywordPreRank (the same
// ts_rank_cd with normalisation 1 only: the extent distances are left to the
// few rescored rows), and the best @pool are kept. Then those are scored by their IDF coverage squared (the
// sum of the inverse document frequencies of the query lexemes they hold,
// BM25's ln(1 + (N - df + 0.5) / (df + 0.5)) from the collection's lexeme_df
// and chunk_count, migration 00004) times keywordRank. Coverage stands in for
// the inverse document frequency ts_rank_cd lacks, and IDF weighs it: one
// frequent word repeated in a short chunk no longer beats a chunk holding
// the rare words of the query. The query lexemes are scalar subqueries or a
// materialised CTE, computed once. Measured on the dev set (simple
// configuration), recall@10 / all-gold / MRR: plain ts_rank_cd 0.785 / 0.650
// / 0.556, coverage 0.877 / 0.790 / 0.844, IDF coverage 0.907 / 0.830 / 0.880
// (docs/postgres.md).
const keywordRank = `ts_rank_cd('{0.1, 0.2, 0.25, 1.0}', c.tsv, (SELECT websearch_to_tsquery(@tscfg::text::regconfig, @q::text)), 5)`

const keywordPreRank = `ts_rank_cd('{0.1, 0.2, 0.25, 1.0}', c.tsv, (SELECT websearch_to_tsquery(@tscfg::text::regconfig, @q::text)), 1)`

const keywordCoverage = `(length(c.tsv) - length(ts_delete(c.tsv, (SELECT coalesce(array_agg(lexeme), '{}') FROM unnest(to_tsvector(@tscfg::text::regconfig, @words::text))))))`

// keywordCTE ranks chunks by the two-stage keyword score above, then, as
// the SQLite store does: a code chunk (not of a prose kind: "", "section",
// "fields", whose symbol names what the passage is about rather than a
// declaration) that declares an identifier the query names (@qualified "sync.Once", or @names "WithCancel" as its symbol's
// last part, or an entry of a const or var block in its text, @entries
// in package @entrypkgs) gains @symbolboost times the best score, and the score of a
// document with a role (@rolekey: tests, test data, vendored, generated
// code) is scaled by its weight in @rolenames/@roleweights.
//
// Ranking every chunk that matches any word is what made the keyword leg
// slow: a common word matches a large share of a big collection, and each
// match costs a heap fetch and a ts_rank_cd. (The tsqueries are scalar
// subqueries so that they are parsed once, not once per row.) So the candidates come in two
// steps. kws ranks only the chunks that match at least two of the query's
// words (@strict, "a & (b | c) | b & c", a selective GIN lookup); when they
// are at least @need (the number of hits asked for), the best @pool of
// them are the list. Otherwise kwo ranks every chunk matching any word,
// exactly as a one-step query would (kws then cost one cheap extra index
// lookup). In a hybrid query the keyword list is then between k and @depth
// long: widening it to @depth with single-word matches would cost as much
// as the one-step query, for items that fusion ranks low. Taking two-word
// matches first is a coordination-first choice, in line with the coverage
// score; measured on the dev set it scores as well or better
// (docs/postgres.md). kw then rescores the list with IDF coverage and keeps
// the best @depth. The lexemes of qidf hold only letters, digits and marks
// (queryWords), so quote_literal makes each a one-lexeme tsquery.
const keywordCTE = `
qidf AS MATERIALIZED (
	SELECT quote_literal(l.lexeme)::tsquery AS tsq,
	       ln(1 + (greatest(n.n, coalesce(f.df, 0)) - coalesce(f.df, 0) + 0.5) / (coalesce(f.df, 0) + 0.5)) AS idf
	FROM unnest(to_tsvector(@tscfg::text::regconfig, @words::text)) l
	CROSS JOIN (SELECT chunk_count::float8 AS n FROM collections WHERE id = @coll::bigint) n
	LEFT JOIN lexeme_df f ON f.collection_id = @coll::bigint AND f.lexeme = l.lexeme
	WHERE @kwok::bool
),
kws AS MATERIALIZED (
	SELECT c.doc_id, c.ordinal, c.tsv, c.symbol, c.kind, c.text, ` + keywordCoverage + `^2 * ` + keywordPreRank + ` AS pre
	FROM chunks c
	WHERE @kwok::bool AND @strictok::bool AND c.collection_id = @coll::bigint
	  AND c.tsv @@ (SELECT to_tsquery(@tscfg::text::regconfig, @strict::text))%[2]s
	ORDER BY pre DESC, c.doc_id, c.ordinal
	LIMIT @pool::int
),
kwo AS (
	SELECT c.doc_id, c.ordinal, c.tsv, c.symbol, c.kind, c.text, ` + keywordCoverage + `^2 * ` + keywordPreRank + ` AS pre
	FROM chunks c
	WHERE @kwok::bool AND (SELECT count(*) FROM kws) < @need::int AND c.collection_id = @coll::bigint
	  AND c.tsv @@ (SELECT websearch_to_tsquery(@tscfg::text::regconfig, @q::text))%[2]s
	ORDER BY pre DESC, c.doc_id, c.ordinal
	LIMIT @pool::int
),
kwc AS (
	SELECT * FROM kws WHERE (SELECT count(*) FROM kws) >= @need::int
	UNION ALL
	SELECT * FROM kwo
),
kwb AS (
	SELECT c.doc_id, c.ordinal, c.symbol, c.kind, c.text, (SELECT coalesce(sum(q.idf), 0) FROM qidf q WHERE c.tsv @@ q.tsq)^2 * ` + keywordRank + ` AS base
	FROM kwc c
),
kw AS (
	SELECT b.doc_id, b.ordinal,
	       (b.base + CASE WHEN b.symbol <> '' AND b.kind NOT IN ('', 'section', 'fields') AND (b.symbol = ANY(@qualified::text[]) OR substring(b.symbol from '[^.]*$') = ANY(@names::text[])
	                           OR EXISTS (SELECT FROM unnest(@entries::text[], @entrypkgs::text[]) AS e(name, pkg)
	                                      WHERE (e.pkg = '' OR e.pkg = split_part(b.symbol, '.', 1))
	                                        AND b.text ~ ('(^|\n)[ \t]+' || e.name || '[ \t]*([A-Za-z0-9_.*, \t]*[ \t])?=[^=]')))
	                      THEN @symbolboost::float8 * max(b.base) OVER () ELSE 0 END)
	       * coalesce((SELECT r.w FROM documents d, unnest(@rolenames::text[], @roleweights::float8[]) AS r(name, w)
	                   WHERE d.collection_id = @coll::bigint AND d.id = b.doc_id AND r.name = d.metadata->>@rolekey::text), 1) AS score
	FROM kwb b
	ORDER BY score DESC, b.doc_id, b.ordinal
	LIMIT @depth::int
),
kwr AS (
	SELECT doc_id, ordinal, score, row_number() OVER (ORDER BY score DESC, doc_id, ordinal) AS rank FROM kw
)`

// vectorCTE is the nearest-neighbour leg; %[1]d is the collection's dimension
// (an integer from the collections table): the expression must match the
// collection's partial HNSW index exactly.
const vectorCTE = `
vec AS (
	SELECT c.doc_id, c.ordinal, (c.embedding::vector(%[1]d) <=> @vec::vector(%[1]d)) AS dist
	FROM chunks c
	WHERE @vecok::bool AND c.collection_id = @coll::bigint AND c.embedding IS NOT NULL%[2]s
	ORDER BY c.embedding::vector(%[1]d) <=> @vec::vector(%[1]d)
	LIMIT @depth::int
),
vecr AS (
	SELECT doc_id, ordinal, dist, row_number() OVER (ORDER BY dist, doc_id, ordinal) AS rank FROM vec
)`

// chunkColumns are a chunk's and its document's columns (c and d), as
// scanHit reads them after doc_id, ordinal, score and the two ranks.
const chunkColumns = `c.text, c.heading, c.symbol, c.kind, c.start_line, c.end_line, d.path, d.title, d.type, d.mtime`

// The three statements return the same columns:
// doc_id, ordinal, score, keyword rank, vector rank, then the chunk and source.
const hitColumns = `
SELECT r.doc_id, r.ordinal, r.score::float8, r.krank, r.vrank, ` + chunkColumns + `
FROM ranked r
JOIN chunks c ON c.collection_id = @coll::bigint AND c.doc_id = r.doc_id AND c.ordinal = r.ordinal
JOIN documents d ON d.collection_id = @coll::bigint AND d.id = r.doc_id
ORDER BY r.score DESC, r.doc_id, r.ordinal`

const keywordSQL = `WITH` + keywordCTE + `,
ranked AS (SELECT doc_id, ordinal, score, rank AS krank, 0::bigint AS vrank FROM kwr ORDER BY rank LIMIT @k::int)` + hitColumns

const vectorSQL = `WITH` + vectorCTE + `,
ranked AS (SELECT doc_id, ordinal, 1 - dist AS score, 0::bigint AS krank, rank AS vrank FROM vecr ORDER BY rank LIMIT @k::int)` + hitColumns

const hybridSQL = `WITH` + keywordCTE + `,` + vectorCTE + `,
ranked AS (
	SELECT coalesce(k.doc_id, v.doc_id) AS doc_id, coalesce(k.ordinal, v.ordinal) AS ordinal,
	       coalesce(@wk::float8 / (@rrfk::float8 + k.rank), 0) + coalesce(@wv::float8 / (@rrfk::float8 + v.rank), 0) AS score,
	       coalesce(k.rank, 0) AS krank, coalesce(v.rank, 0) AS vrank
	FROM kwr k FULL OUTER JOIN vecr v ON k.doc_id = v.doc_id AND k.ordinal = v.ordinal
	ORDER BY score DESC, doc_id, ordinal
	LIMIT @k::int
)` + hitColumns

// statement returns the SQL of a mode for a collection of dimension dim,
// with or without the filter clauses. Only constants and the dimension (an
// integer from the collections table) are formatted in.
func (s *Store) statement(mode graphrag.SearchMode, dim int, filtered bool) string {
	f := ""
	if filtered {
		f = filterSQL
	}
	switch mode {
	case graphrag.ModeKeyword:
		return fmt.Sprintf(keywordSQL, dim, f)
	case graphrag.ModeVector:
		return fmt.Sprintf(vectorSQL, dim, f)
	default:
		return fmt.Sprintf(hybridSQL, dim, f)
	}
}

// run executes one search statement in a read-only transaction that sets
// the HNSW search width (and pgvector 0.8's iterative scan when filtering).
func (s *Store) run(ctx context.Context, p searchParams, sql string) ([]graphrag.Hit, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	ef := min(max(s.opts.EfSearch, p.depth), 1000)
	iter := "off"
	if p.filtered && s.iterative {
		iter = "relaxed_order"
	}
	settings := `SELECT set_config('hnsw.ef_search', $1, true), set_config('plan_cache_mode', 'force_custom_plan', true)`
	args := []any{strconv.Itoa(ef)}
	if s.iterative {
		settings += `, set_config('hnsw.iterative_scan', $2, true)`
		args = append(args, iter)
	}
	if _, err := tx.Exec(ctx, settings, args...); err != nil {
		return nil, err
	}
	rows, err := tx.Query(ctx, sql, p.args)
	if err != nil {
		return nil, err
	}
	hits, err := pgx.CollectRows(rows, scanHit)
	if err != nil {
		return nil, err
	}
	return hits, tx.Commit(ctx)
}

// scanHit reads a row of a chunk with its document: doc_id, ordinal,
// score, keyword rank, vector rank, then chunkColumns.
func scanHit(r pgx.CollectableRow) (graphrag.Hit, error) {
	var h graphrag.Hit
	var krank, vrank int64
	var mtime *time.Time
	err := r.Scan(&h.Chunk.DocID, &h.Chunk.Ordinal, &h.Score, &krank, &vrank,
		&h.Chunk.Text, &h.Chunk.Heading, &h.Chunk.Symbol, &h.Chunk.Kind, &h.Chunk.StartLine, &h.Chunk.EndLine, &h.Source.Path, &h.Source.Title, &h.Source.Type, &mtime)
	h.Chunk.ID = graphrag.ChunkID(h.Chunk.DocID, h.Chunk.Ordinal)
	h.Source.DocID = h.Chunk.DocID
	h.Ranks = graphrag.Ranks{Keyword: int(krank), Vector: int(vrank)}
	if mtime != nil {
		h.Source.ModTime = mtime.UTC()
	}
	if math.IsNaN(h.Score) {
		h.Score = 0
	}
	return h, err
}
