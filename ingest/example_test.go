package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "ingest-example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# Notes\n\nThe meeting moved to Tuesday."), 0o644)
	os.WriteFile(filepath.Join(dir, "logo.png"), []byte("\x89PNG\r\n\x1a\n\x00\x00"), 0o644)

	storeDir, _ := os.MkdirTemp("", "ingest-example-store")
	defer os.RemoveAll(storeDir)
	store, err := sqlite.Open(ctx, filepath.Join(storeDir, "store.db"), sqlite.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()
	in := ingest.New(store, ingest.Options{})

	sum, err := in.Run(ctx, dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("files:", sum.Files, "added:", sum.Added, "images skipped:", sum.Skipped[ingest.ReasonNoCaptioner])

	sum, _ = in.Run(ctx, dir)
	fmt.Println("second run unchanged:", sum.Unchanged, "added:", sum.Added)
	// Output:
	// files: 2 added: 1 images skipped: 1
	// second run unchanged: 1 added: 0
}
