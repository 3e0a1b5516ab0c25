package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "sqlite-example")
	defer os.RemoveAll(dir)

	// No embedder: keyword (BM25) search only.
	store, err := sqlite.Open(ctx, filepath.Join(dir, "graphrag.db"), sqlite.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()

	err = store.Put(ctx,
		graphrag.Record{
			Doc:    graphrag.Document{ID: "notes/meeting.md", Path: "notes/meeting.md", Title: "Meeting notes", Type: "md"},
			Chunks: []graphrag.Chunk{{Text: "The launch moved to Tuesday."}, {Ordinal: 1, Text: "Budget approved by finance."}},
		},
		graphrag.Record{
			Doc:    graphrag.Document{ID: "notes/todo.txt", Path: "notes/todo.txt", Title: "To do", Type: "txt"},
			Chunks: []graphrag.Chunk{{Text: "Book the venue for the launch party."}},
		},
	)
	if err != nil {
		fmt.Println(err)
		return
	}

	res, err := store.Search(ctx, graphrag.Query{Text: "When is the launch?", Mode: graphrag.ModeHybrid, K: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("mode:", res.Mode, "-", res.Note)
	for _, h := range res.Hits {
		fmt.Printf("%s (keyword rank %d): %s\n", h.Chunk.ID, h.Ranks.Keyword, h.Chunk.Text)
	}
	// Output:
	// mode: keyword - no embedder configured: hybrid search ran as keyword (BM25) search
	// notes/meeting.md#0 (keyword rank 1): The launch moved to Tuesday.
	// notes/todo.txt#0 (keyword rank 2): Book the venue for the launch party.
}
