package pgvector

import (
	"context"
	"slices"
	"testing"

	"github.com/graphrag/graphrag/internal/pgtest"
	"github.com/pgvector/pgvector-go"
)

// TestDatabaseHasPgvector is the smallest real check that the test database is
// usable: the vector extension is installed, and a vector survives a round trip
// through pgx with pgvector-go's types registered in AfterConnect.
func TestDatabaseHasPgvector(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.NewSchema(t, url)
	pool := pgtest.Pool(t, url, schema)
	ctx := context.Background()

	var version string
	err := pool.QueryRow(ctx, `SELECT extversion FROM pg_extension WHERE extname = 'vector'`).Scan(&version)
	if err != nil {
		t.Fatalf("vector extension is not installed in the test database (run scripts/db-up.sh): %v", err)
	}
	t.Logf("pgvector %s", version)

	if _, err := pool.Exec(ctx, `CREATE TABLE items (id int PRIMARY KEY, embedding vector(3))`); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		id   int
		vec  []float32
	}{
		{"simple", 1, []float32{1, 2, 3}},
		{"negative and fractional", 2, []float32{-0.5, 0.25, -1e-3}},
		{"zeros", 3, []float32{0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := pool.Exec(ctx, `INSERT INTO items (id, embedding) VALUES ($1, $2)`, tt.id, pgvector.NewVector(tt.vec)); err != nil {
				t.Fatal(err)
			}
			var got pgvector.Vector
			if err := pool.QueryRow(ctx, `SELECT embedding FROM items WHERE id = $1`, tt.id).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Slice(), tt.vec) {
				t.Fatalf("round trip: got %v, want %v", got.Slice(), tt.vec)
			}
		})
	}

	// The nearest neighbour by cosine distance of (1,2,3) among the rows is itself.
	var nearest int
	err = pool.QueryRow(ctx, `SELECT id FROM items WHERE id <> 3 ORDER BY embedding <=> $1 LIMIT 1`,
		pgvector.NewVector([]float32{1, 2, 3.1})).Scan(&nearest)
	if err != nil {
		t.Fatal(err)
	}
	if nearest != 1 {
		t.Fatalf("nearest to (1,2,3.1) = %d, want 1", nearest)
	}
}
