package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// labelCaptioner stands in for a vision model (llm.Captioner in a real
// program): it "sees" the text the example images hold.
type labelCaptioner struct{ calls int }

func (c *labelCaptioner) Name() string { return "label/v1" }

func (c *labelCaptioner) Caption(_ context.Context, _ string, data []byte) (string, error) {
	c.calls++
	return "A photo of " + string(data) + ".", nil
}

func ExampleOptions_captioner() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "ingest-caption-example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "IMG_0042.jpg"), []byte("a heron standing in a pond"), 0o644)

	cache, err := ingest.OpenCaptionFile(filepath.Join(dir, ".captions.jsonl"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cache.Close()
	vision := &labelCaptioner{}
	opts := ingest.Options{Captioner: vision, CaptionCache: cache}

	for i := range 2 { // two new stores: the second is captioned from the cache
		store, err := sqlite.Open(ctx, filepath.Join(dir, fmt.Sprintf(".store-%d.db", i)), sqlite.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		sum, err := ingest.New(store, opts).Run(ctx, dir)
		if err != nil {
			fmt.Println(err)
			return
		}
		res, _ := store.Search(ctx, graphrag.Query{Text: "heron", K: 1})
		fmt.Printf("run %d: captioned %d, from cache %d, found %s\n", i+1, sum.Captioned, sum.CaptionsCached, res.Hits[0].Source.Title)
		store.Close()
	}
	fmt.Println("vision model calls:", vision.calls)
	// Output:
	// run 1: captioned 1, from cache 0, found IMG_0042.jpg
	// run 2: captioned 0, from cache 1, found IMG_0042.jpg
	// vision model calls: 1
}
