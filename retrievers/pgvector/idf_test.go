package pgvector

import (
	"context"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestLexemeFrequenciesFollowWrites checks that Put (new and replaced
// documents) and Delete keep lexeme_df and chunk_count equal to what the
// chunks hold, in two collections of one schema.
func TestLexemeFrequenciesFollowWrites(t *testing.T) {
	ctx := context.Background()
	a, schema := openTestStore(t, Options{Collection: "a"})
	b, _ := openTestStore(t, Options{Schema: schema, Collection: "b"})
	doc := func(id string, texts ...string) graphrag.Record {
		r := graphrag.Record{Doc: graphrag.Document{ID: id, Title: "Title " + id}}
		for i, s := range texts {
			r.Chunks = append(r.Chunks, graphrag.Chunk{Ordinal: i, Text: s})
		}
		return r
	}
	// check compares the maintained counts with counts recomputed from the chunks.
	check := func(t *testing.T, st *Store, wantChunks int) {
		t.Helper()
		c, found, err := st.collection(ctx)
		if err != nil || !found {
			t.Fatalf("collection: found %v, %v", found, err)
		}
		var n int
		if err := st.pool.QueryRow(ctx, `SELECT chunk_count FROM collections WHERE id = $1`, c.id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != wantChunks {
			t.Errorf("chunk_count = %d, want %d", n, wantChunks)
		}
		var diff int
		err = st.pool.QueryRow(ctx, `
			WITH want AS (SELECT u.lexeme, count(*) AS df FROM chunks c, unnest(c.tsv) u WHERE c.collection_id = $1 GROUP BY u.lexeme),
			     got AS (SELECT lexeme, df FROM lexeme_df WHERE collection_id = $1 AND df > 0)
			SELECT count(*) FROM want FULL JOIN got USING (lexeme) WHERE want.df IS DISTINCT FROM got.df`, c.id).Scan(&diff)
		if err != nil {
			t.Fatal(err)
		}
		if diff != 0 {
			t.Errorf("%d lexemes have a document frequency other than their chunks'", diff)
		}
	}
	steps := []struct {
		name  string
		run   func() error
		wantA int
		wantB int
	}{
		{"first put", func() error {
			return a.Put(ctx, doc("1", "apple banana", "banana cherry"), doc("2", "cherry date"))
		}, 3, 0},
		{"other collection", func() error { return b.Put(ctx, doc("1", "apple elder fig")) }, 3, 1},
		{"replace a document", func() error { return a.Put(ctx, doc("1", "grape")) }, 2, 1},
		{"delete a document", func() error { return a.Delete(ctx, "2", "missing") }, 1, 1},
		{"put again", func() error { return a.Put(ctx, doc("3", "apple apple banana"), doc("2", "date")) }, 3, 1},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if err := s.run(); err != nil {
				t.Fatal(err)
			}
			check(t, a, s.wantA)
			if s.wantB > 0 {
				check(t, b, s.wantB)
			}
		})
	}
}
