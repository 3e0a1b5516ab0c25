package postgres_test

import (
	"context"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/graph/checkpoint/postgres"
)

// Checkpoints in PostgreSQL, reachable through a transaction-mode pooler:
// the Saver sends every statement on the simple protocol, so the pool needs
// no special settings.
func Example() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL")) // e.g. a PgBouncer address
	if err != nil {
		panic(err)
	}
	defer pool.Close()
	cp := postgres.New(pool)
	if err := cp.Migrate(ctx); err != nil { // or apply postgres.Schema with your migration tool
		panic(err)
	}
	g := graph.NewStateGraph[struct{ N int }]()
	g.AddNode("count", func(_ context.Context, s struct{ N int }) (struct{ N int }, error) { s.N++; return s, nil })
	g.SetEntryPoint("count")
	g.AddEdge("count", graph.END)
	r, err := g.Compile(graph.WithCheckpointer(cp), graph.WithRetention(graph.Retention{KeepLast: 50}))
	if err != nil {
		panic(err)
	}
	_, _ = r.Invoke(ctx, struct{ N int }{}, graph.WithThread("job-1"))
}
