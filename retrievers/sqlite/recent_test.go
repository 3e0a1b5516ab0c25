package sqlite_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// TestRecentListsForgetOnWrite: a repeated keyword query gives the same
// hits, and a write in between is seen: the remembered list is dropped.
func TestRecentListsForgetOnWrite(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	doc := func(id, text string) graphrag.Record {
		return graphrag.Record{Doc: graphrag.Document{ID: id, Path: id, Title: id, Type: "txt"}, Chunks: []graphrag.Chunk{{Text: text}}}
	}
	ids := func(k int, f graphrag.Filters) []string {
		t.Helper()
		res, err := s.Search(ctx, graphrag.Query{Text: "nightly backup", Mode: graphrag.ModeKeyword, K: k, Filters: f})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range res.Hits {
			out = append(out, h.Chunk.DocID)
		}
		return out
	}
	if err := s.Put(ctx, doc("/a.txt", "The nightly backup runs at two."), doc("/b.txt", "The backup goes to the NAS.")); err != nil {
		t.Fatal(err)
	}
	first := ids(10, graphrag.Filters{})
	if again := ids(10, graphrag.Filters{}); !slices.Equal(first, again) {
		t.Fatalf("repeated query: %v, then %v", first, again)
	}
	if got := ids(1, graphrag.Filters{}); !slices.Equal(got, first[:1]) {
		t.Errorf("K=1 after K=10: %v, want %v", got, first[:1])
	}
	if got := ids(10, graphrag.Filters{Source: "b.txt"}); !slices.Equal(got, []string{"/b.txt"}) {
		t.Errorf("filtered query answered from the unfiltered list: %v", got)
	}
	if err := s.Put(ctx, doc("/c.txt", "Nightly backup, nightly backup: the nightly backup log.")); err != nil {
		t.Fatal(err)
	}
	if got := ids(10, graphrag.Filters{}); len(got) != 3 || got[0] != "/c.txt" {
		t.Errorf("after a Put: %v, want /c.txt first of three", got)
	}
	if err := s.Delete(ctx, "/c.txt"); err != nil {
		t.Fatal(err)
	}
	if got := ids(10, graphrag.Filters{}); slices.Contains(got, "/c.txt") {
		t.Errorf("after a Delete: %v still holds /c.txt", got)
	}
}
