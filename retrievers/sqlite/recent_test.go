package sqlite_test

import (
	"context"
	"fmt"
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
	s := tempStore(t)
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

// The probe's list of chunks holding any word is kept for the search of
// the same text that follows it; a write in between makes the search rank
// the chunks afresh, and a probe's short list is the start of the
// search's.
func TestProbeListServesTheSearchUntilAWrite(t *testing.T) {
	ctx := context.Background()
	s := tempStore(t)
	doc := func(id, text string) graphrag.Record {
		return graphrag.Record{
			Doc:    graphrag.Document{ID: id, Path: "/notes/" + id + ".txt", Title: id, Type: "txt", Hash: id},
			Chunks: []graphrag.Chunk{{ID: graphrag.ChunkID(id, 0), DocID: id, Text: text}},
		}
	}
	var recs []graphrag.Record
	for i := range 30 {
		recs = append(recs, doc(fmt.Sprintf("n%02d", i), "the quill was sharpened once"))
	}
	if err := s.Put(ctx, recs...); err != nil {
		t.Fatal(err)
	}
	q := graphrag.Query{Text: "which quill holds the zorp ink", K: 3, Mode: graphrag.ModeKeyword}
	probe, err := s.Probe(ctx, q)
	if err != nil || len(probe.Hits) != 3 {
		t.Fatalf("probe: %d hits, %v", len(probe.Hits), err)
	}
	search, err := s.Search(ctx, graphrag.Query{Text: q.Text, K: 10, Mode: graphrag.ModeKeyword})
	if err != nil || len(search.Hits) < 3 {
		t.Fatalf("search: %d hits, %v", len(search.Hits), err)
	}
	for i, h := range probe.Hits {
		if search.Hits[i].Chunk.ID != h.Chunk.ID {
			t.Errorf("search hit %d is %s, probe's is %s: equal scores are taken in one order", i, search.Hits[i].Chunk.ID, h.Chunk.ID)
		}
	}
	if err := s.Put(ctx, doc("ink", "the zorp ink fills the quill")); err != nil {
		t.Fatal(err)
	}
	after, err := s.Search(ctx, graphrag.Query{Text: q.Text, K: 3, Mode: graphrag.ModeKeyword})
	if err != nil || len(after.Hits) == 0 || after.Hits[0].Chunk.DocID != "ink" {
		t.Fatalf("search after a write: %v, %v; want the new chunk first", after.Hits, err)
	}
}

// tempStore opens a new store in a temporary folder, closed when the test
// ends.
func tempStore(t *testing.T) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
