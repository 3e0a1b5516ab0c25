package pgvector_test

import (
	"context"
	"fmt"
	"log"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/pgvector"
)

// Migrate once (graphrag migrate up does this), then open the store on a
// collection, ingest and search. The example needs a PostgreSQL server with
// pgvector, so it is compiled but not run by go test.
func Example() {
	ctx := context.Background()
	url := "postgres://graphrag:graphrag@localhost:5432/graphrag?sslmode=disable"

	pool, err := pgvector.Connect(ctx, url, pgvector.Options{})
	if err != nil {
		log.Fatal(err)
	}
	applied, err := pgvector.Migrate(ctx, pool, pgvector.DefaultSchema)
	pool.Close()
	if err != nil {
		log.Fatal(err) // e.g. the superuser step for the vector extension
	}
	fmt.Println("applied", len(applied), "migrations")

	// With an embedder (Options.Embedder) searches are hybrid; without one, keyword.
	st, err := pgvector.Open(ctx, url, pgvector.Options{Collection: "notes"})
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	err = st.Put(ctx, graphrag.Record{
		Doc:    graphrag.Document{ID: "/notes/backup.md", Path: "/notes/backup.md", Title: "Backups", Type: "md"},
		Chunks: []graphrag.Chunk{{Ordinal: 0, Text: "The nightly backup runs at 02:00 and goes to the NAS."}},
	})
	if err != nil {
		log.Fatal(err)
	}
	res, err := st.Search(ctx, graphrag.Query{Text: "when does the backup run?", K: 5})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range res.Hits {
		fmt.Println(h.Chunk.ID, h.Ranks.Keyword, h.Source.Title)
	}
}
