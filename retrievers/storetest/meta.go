package storetest

import (
	"context"
	"testing"

	"github.com/graphrag/graphrag"
)

// MetaStore is the optional ability to keep small facts beside the
// documents (graphrag's CLI records the ingested folders there) and to count
// each document's chunks. Both graphrag stores have it; the suite fails a
// store that does not.
type MetaStore interface {
	Meta(ctx context.Context, key string) (string, error)
	SetMeta(ctx context.Context, key, value string) error
	ChunkCounts(ctx context.Context) (map[string]int, error)
}

func (s suite) meta(t *testing.T) {
	st := s.fresh(t, nil)
	ms, ok := st.(MetaStore)
	if !ok {
		t.Fatalf("%T does not implement storetest.MetaStore (Meta, SetMeta, ChunkCounts)", st)
	}
	ctx := context.Background()
	if v, err := ms.Meta(ctx, "sources"); err != nil || v != "" {
		t.Fatalf("Meta of a missing key = %q, %v; want \"\", nil", v, err)
	}
	counts, err := ms.ChunkCounts(ctx)
	if err != nil || len(counts) != 0 {
		t.Fatalf("ChunkCounts of an empty store = %v, %v", counts, err)
	}
	// Keys of the store's own bookkeeping must not be reachable.
	for _, k := range []string{"sources", "embedder", "dimension"} {
		if err := ms.SetMeta(ctx, k, `{"v":"`+k+`"}`); err != nil {
			t.Fatalf("SetMeta(%q): %v", k, err)
		}
	}
	if err := ms.SetMeta(ctx, "sources", `{"v":2}`); err != nil {
		t.Fatalf("SetMeta overwrite: %v", err)
	}
	if v, err := ms.Meta(ctx, "sources"); err != nil || v != `{"v":2}` {
		t.Errorf("Meta after overwrite = %q, %v", v, err)
	}
	put(t, st, doc("two", "Two", "txt", t0, "first part", "second part"), doc("none", "None", "txt", t0))
	counts, err = ms.ChunkCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if counts["two"] != 2 || counts["none"] != 0 || len(counts) != 2 {
		t.Errorf("ChunkCounts = %v, want two:2 none:0", counts)
	}
	if stats, err := st.Stats(ctx); err != nil || stats.Documents != 2 {
		t.Errorf("Stats after SetMeta of store-like keys = %+v, %v", stats, err)
	}
	// The facts survive with the documents (and an embedder key written by
	// a program did not unsettle the store's own).
	if err := ms.SetMeta(ctx, "embedder", ""); err != nil {
		t.Fatalf("SetMeta delete: %v", err)
	}
	if v, _ := ms.Meta(ctx, "embedder"); v != "" {
		t.Errorf("Meta after delete = %q, want \"\"", v)
	}
	res := search(t, st, graphrag.Query{Text: "second", Mode: graphrag.ModeKeyword})
	if len(res.Hits) != 1 {
		t.Errorf("search after meta writes = %v", ids(res))
	}
}
