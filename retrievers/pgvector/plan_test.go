package pgvector

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/storetest"
	"github.com/jackc/pgx/v5"
)

// TestQueriesCanUseIndexes checks the planner can answer the vector leg from
// the collection's partial HNSW index (the cast and predicate match) and the
// keyword leg from its partial GIN index. Sequential scans are disabled so a tiny
// table does not hide a mismatch behind a cheaper plan.
func TestQueriesCanUseIndexes(t *testing.T) {
	emb := storetest.NewHashEmbedder(32)
	st, _ := openTestStore(t, Options{Embedder: emb})
	ctx := context.Background()
	var recs []graphrag.Record
	for i := range 3000 {
		recs = append(recs, graphrag.Record{
			Doc:    graphrag.Document{ID: fmt.Sprintf("d%d", i), Title: "t", Type: "txt"},
			Chunks: []graphrag.Chunk{{Ordinal: 0, Text: fmt.Sprintf("word%d common text", i)}},
		})
	}
	if err := st.Put(ctx, recs...); err != nil {
		t.Fatal(err)
	}
	if _, err := st.pool.Exec(ctx, `ANALYZE chunks; ANALYZE documents`); err != nil {
		t.Fatal(err)
	}
	c, _, err := st.collection(ctx)
	if err != nil {
		t.Fatal(err)
	}
	vec, _ := emb.Embed(ctx, []string{"word7 common"})
	tests := []struct {
		name    string
		mode    graphrag.SearchMode
		filters graphrag.Filters
		want    []string
	}{
		{"vector", graphrag.ModeVector, graphrag.Filters{}, []string{hnswIndexName(c)}},
		{"vector filtered", graphrag.ModeVector, graphrag.Filters{Types: []string{"txt"}}, []string{hnswIndexName(c)}},
		{"keyword", graphrag.ModeKeyword, graphrag.Filters{}, []string{ginIndexName(c)}},
		{"hybrid", graphrag.ModeHybrid, graphrag.Filters{}, []string{ginIndexName(c), hnswIndexName(c)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// "word7" and "word8" are in one chunk of 3000 each: the GIN
			// index is the cheap way, for the two-word and the any-word step.
			q := graphrag.Query{Text: "word7 word8", Mode: tc.mode, Filters: tc.filters}
			p := st.params(c, q, tc.mode, 10, vec[0])
			p.setWords(q.Text)
			tx, err := st.pool.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			rows, err := tx.Query(ctx, "EXPLAIN "+st.statement(tc.mode, c.dim, p.filtered), p.args)
			if err != nil {
				t.Fatal(err)
			}
			lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				t.Fatal(err)
			}
			plan := strings.Join(lines, "\n")
			for _, idx := range tc.want {
				if !strings.Contains(plan, idx) {
					t.Errorf("plan does not use %s:\n%s", idx, plan)
				}
			}
		})
	}
}

func TestPairQuery(t *testing.T) {
	tests := []struct {
		name  string
		words []string
		want  string
	}{
		{"none", nil, ""},
		{"one word", []string{"a"}, ""},
		{"two words", []string{"a", "b"}, "'a' & ('b')"},
		{"three words", []string{"a", "b", "c"}, "'a' & ('b' | 'c') | 'b' & ('c')"},
		{"unicode", []string{"東京", "café"}, "'東京' & ('café')"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := pairQuery(tc.words); got != tc.want {
				t.Errorf("pairQuery(%q) = %q, want %q", tc.words, got, tc.want)
			}
		})
	}
}

// TestKeywordCandidates checks the two-step keyword leg: when enough chunks
// hold at least two of the query's words, a chunk holding one of them (even
// one that ts_rank_cd alone would rank first) is left out; when too few do,
// every chunk holding any word is ranked, the one-word chunk last (its word
// is in every chunk: it weighs little against the rarer second word).
func TestKeywordCandidates(t *testing.T) {
	st, _ := openTestStore(t, Options{})
	ctx := context.Background()
	var recs []graphrag.Record
	for i := range 12 {
		recs = append(recs, graphrag.Record{
			Doc:    graphrag.Document{ID: fmt.Sprintf("both%02d", i), Title: "t", Type: "txt"},
			Chunks: []graphrag.Chunk{{Text: "alpha beta and other words"}},
		})
	}
	recs = append(recs, graphrag.Record{
		Doc:    graphrag.Document{ID: "one", Title: "alpha", Type: "txt"},
		Chunks: []graphrag.Chunk{{Text: "alpha alpha alpha alpha alpha"}},
	})
	if err := st.Put(ctx, recs...); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		text    string
		k       int
		wantOne bool // the single-word chunk is among the hits
		rank    int  // its rank (from 1) when it is
	}{
		{"enough two-word matches", "alpha beta", 10, false, 0},
		{"too few two-word matches", "alpha beta", 13, true, 13},
		{"one word", "alpha", 10, true, 1},
		{"no two-word match", "alpha gamma", 10, true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := st.Search(ctx, graphrag.Query{Text: tc.text, Mode: graphrag.ModeKeyword, K: tc.k})
			if err != nil {
				t.Fatal(err)
			}
			gotOne := false
			for i, h := range res.Hits {
				if h.Chunk.DocID == "one" {
					gotOne = true
					if i+1 != tc.rank {
						t.Errorf("the single-word chunk ranks %d, want %d", i+1, tc.rank)
					}
				}
			}
			if gotOne != tc.wantOne {
				t.Errorf("single-word chunk among %d hits: %v, want %v", len(res.Hits), gotOne, tc.wantOne)
			}
		})
	}
}
