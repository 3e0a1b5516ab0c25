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
			// "word7" is in one chunk of 3000: the GIN index is the cheap way.
			q := graphrag.Query{Text: "word7", Mode: tc.mode, Filters: tc.filters}
			p := st.params(c, q, tc.mode, 10, vec[0])
			p.args["q"] = orQuery(queryWords(q.Text))
			p.args["kwok"] = true
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
