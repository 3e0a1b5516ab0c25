package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
)

// Store is the method set every graphrag store provides.
type Store interface {
	Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error)
	Put(ctx context.Context, recs ...graphrag.Record) error
	Delete(ctx context.Context, ids ...string) error
	Manifest(ctx context.Context) ([]graphrag.DocState, error)
	Stats(ctx context.Context) (graphrag.StoreStats, error)
	// Openings returns the first passage (ordinal 0) of each document of
	// ids the store holds, in the order of ids, each document once.
	Openings(ctx context.Context, ids []string) ([]graphrag.Hit, error)
	// Copies returns the passages whose text is text, word for word, in
	// the documents whose IDs begin with one of prefixes, ordered by
	// document ID (bytewise) and place, each passage once.
	Copies(ctx context.Context, text string, prefixes []string) ([]graphrag.Hit, error)
	Close() error
}

// OpenFunc opens a fresh, empty store built with embedder e (nil for none).
// It fails the test itself if the store cannot be opened, and registers any
// cleanup (t.Cleanup) it needs; the suite closes the stores it gets.
type OpenFunc func(t *testing.T, e graphrag.Embedder) Store

// ReopenFunc opens again the store that prev was opened on (same file, same
// database and schema), this time with embedder e, and returns the error of
// that open. The suite has closed prev before it calls ReopenFunc. An
// implementation typically remembers where each store it opened lives, in
// a map keyed by the Store value.
type ReopenFunc func(t *testing.T, prev Store, e graphrag.Embedder) (Store, error)

// Run runs the conformance suite as subtests of t. reopen may be nil, in
// which case the subtests that need it are skipped with a message.
func Run(t *testing.T, open OpenFunc, reopen ReopenFunc) {
	t.Helper()
	s := suite{open: open, reopen: reopen}
	tests := []struct {
		name string
		fn   func(t *testing.T)
	}{
		{"put and get via search", s.putAndGet},
		{"ids and chunk ids stable", s.idsStable},
		{"chunk heading, symbol, kind and lines", s.chunkPlace},
		{"openings", s.openings},
		{"copies", s.copies},
		{"replace by id leaves no stale chunks", s.replace},
		{"delete", s.delete},
		{"manifest", s.manifest},
		{"stats", s.stats},
		{"keyword ranking semantics", s.keywordRanking},
		{"definitions above tests and copies", s.definitionsFirst},
		{"vector search", s.vectorSearch},
		{"hybrid returns both ranks", s.hybrid},
		{"hybrid legs fuse to the hybrid search", s.legs},
		{"filters", s.filters},
		{"k default 10", s.kDefault},
		{"empty query", s.emptyQuery},
		{"invalid query", s.invalidQuery},
		{"hostile input", s.hostile},
		{"no embedder runs keyword and says so", s.noEmbedder},
		{"embedder computes missing embeddings", s.embedsOnPut},
		{"embedder mismatch on reopen", s.mismatch},
		{"put atomicity", s.atomicity},
		{"document ids both stores keep or refuse", s.docIDs},
		{"cancelled context", s.cancelled},
		{"concurrent search and put", s.concurrent},
		{"large put and delete", s.large},
		{"meta and chunk counts", s.meta},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.fn)
	}
}

type suite struct {
	open   OpenFunc
	reopen ReopenFunc
}

var (
	t0  = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	dim = 64
)

// doc builds a record with one chunk per text.
func doc(id, title, typ string, mod time.Time, texts ...string) graphrag.Record {
	r := graphrag.Record{Doc: graphrag.Document{
		ID: id, Path: "/corpus/" + id + "." + typ, Title: title, Type: typ,
		Hash: "h-" + id + fmt.Sprint(len(texts)), Size: int64(len(strings.Join(texts, ""))), ModTime: mod,
		Metadata: map[string]string{"source": "storetest"},
	}}
	for i, tx := range texts {
		r.Chunks = append(r.Chunks, graphrag.Chunk{ID: graphrag.ChunkID(id, i), DocID: id, Ordinal: i, Text: tx})
	}
	return r
}

func (s suite) fresh(t *testing.T, e graphrag.Embedder) Store {
	t.Helper()
	st := s.open(t, e)
	t.Cleanup(func() { _ = st.Close() })
	return st
}

func put(t *testing.T, st Store, recs ...graphrag.Record) {
	t.Helper()
	if err := st.Put(context.Background(), recs...); err != nil {
		t.Fatalf("Put: %v", err)
	}
}

func search(t *testing.T, st Store, q graphrag.Query) graphrag.SearchResult {
	t.Helper()
	res, err := st.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search(%+v): %v", q, err)
	}
	checkHits(t, res)
	return res
}

// checkHits asserts the invariants every result has.
func checkHits(t *testing.T, res graphrag.SearchResult) {
	t.Helper()
	seen := map[string]bool{}
	for i, h := range res.Hits {
		if seen[h.Chunk.ID] {
			t.Errorf("hit %d: chunk %q returned twice", i, h.Chunk.ID)
		}
		seen[h.Chunk.ID] = true
		if i > 0 && h.Score > res.Hits[i-1].Score+1e-9 {
			t.Errorf("hit %d: score %v above previous %v: hits not best first", i, h.Score, res.Hits[i-1].Score)
		}
		if math.IsNaN(h.Score) || math.IsInf(h.Score, 0) {
			t.Errorf("hit %d: score %v", i, h.Score)
		}
	}
}

func ids(res graphrag.SearchResult) []string {
	out := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = h.Chunk.ID
	}
	return out
}

func docIDs(res graphrag.SearchResult) []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range res.Hits {
		if !seen[h.Chunk.DocID] {
			seen[h.Chunk.DocID] = true
			out = append(out, h.Chunk.DocID)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// filler is a small corpus of unrelated documents so BM25 has statistics.
func filler(n int) []graphrag.Record {
	words := []string{"river", "market", "engine", "garden", "letter", "window", "forest", "silver",
		"harbor", "planet", "violin", "pepper", "castle", "ticket", "meadow", "copper"}
	var recs []graphrag.Record
	for i := 0; i < n; i++ {
		var b strings.Builder
		for j := 0; j < 12; j++ {
			b.WriteString(words[(i*7+j*3)%len(words)])
			b.WriteString(" ")
		}
		b.WriteString("the report was written in the spring and kept for later use.")
		recs = append(recs, doc(fmt.Sprintf("filler-%02d", i), fmt.Sprintf("Filler %d", i), "txt", t0.Add(-time.Duration(i)*time.Hour), b.String()))
	}
	return recs
}

func (s suite) putAndGet(t *testing.T) {
	st := s.fresh(t, nil)
	put(t, st, filler(5)...)
	r := doc("alpha", "Alpha notes", "md", t0, "The aardvark sleeps in a burrow during the day.", "At night the aardvark eats termites.")
	put(t, st, r)
	res := search(t, st, graphrag.Query{Text: "aardvark termites", Mode: graphrag.ModeKeyword})
	if res.Mode != graphrag.ModeKeyword {
		t.Errorf("Mode = %q, want keyword", res.Mode)
	}
	if len(res.Hits) != 2 {
		t.Fatalf("hits = %v, want both aardvark chunks", ids(res))
	}
	top := res.Hits[0]
	if top.Chunk.ID != "alpha#1" {
		t.Errorf("top = %q, want alpha#1 (it has both words)", top.Chunk.ID)
	}
	if top.Chunk.Text != r.Chunks[1].Text {
		t.Errorf("text = %q, want %q", top.Chunk.Text, r.Chunks[1].Text)
	}
	want := graphrag.Source{DocID: "alpha", Path: "/corpus/alpha.md", Title: "Alpha notes", Type: "md", ModTime: t0}
	got := top.Source
	if got.DocID != want.DocID || got.Path != want.Path || got.Title != want.Title || got.Type != want.Type || !got.ModTime.Equal(want.ModTime) {
		t.Errorf("source = %+v, want %+v", got, want)
	}
	if top.Score <= 0 {
		t.Errorf("keyword score = %v, want positive BM25", top.Score)
	}
	for i, h := range res.Hits {
		if h.Ranks.Keyword != i+1 || h.Ranks.Vector != 0 {
			t.Errorf("hit %d ranks = %+v, want keyword %d, vector 0", i, h.Ranks, i+1)
		}
	}
	if res := search(t, st, graphrag.Query{Text: "xylophone", Mode: graphrag.ModeKeyword}); len(res.Hits) != 0 {
		t.Errorf("unknown word found %v", ids(res))
	}
}

func (s suite) idsStable(t *testing.T) {
	st := s.fresh(t, nil)
	weird := "dir/sub dir/Résumé \"final\" 'v2'; DROP TABLE x;--#1.md"
	r := doc(weird, "Résumé", "md", t0, "first part about pelicans", "second part about pelicans")
	r.Chunks[1].ID, r.Chunks[1].DocID = "", "" // filled in by the store
	put(t, st, r)
	for _, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeHybrid} {
		res := search(t, st, graphrag.Query{Text: "pelicans", Mode: mode})
		got := ids(res)
		sort.Strings(got)
		want := []string{graphrag.ChunkID(weird, 0), graphrag.ChunkID(weird, 1)}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("%s: chunk ids = %q, want %q", mode, got, want)
		}
		for _, h := range res.Hits {
			if h.Chunk.DocID != weird || h.Source.DocID != weird {
				t.Errorf("doc id = %q / %q, want %q", h.Chunk.DocID, h.Source.DocID, weird)
			}
			if h.Chunk.ID != graphrag.ChunkID(weird, h.Chunk.Ordinal) {
				t.Errorf("chunk %q has ordinal %d", h.Chunk.ID, h.Chunk.Ordinal)
			}
		}
	}
	// Putting the same record again changes nothing.
	put(t, st, r)
	st2, err := st.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st2.Documents != 1 || st2.Chunks != 2 {
		t.Errorf("after re-put stats = %+v, want 1 doc 2 chunks", st2)
	}
}

// chunkPlace: a chunk's heading, symbol, kind and line range come back from
// every search mode as they were put, "unknown" (empty and 0) stays so, and
// replacing the document replaces them.
func (s suite) chunkPlace(t *testing.T) {
	st := s.fresh(t, NewHashEmbedder(dim))
	put(t, st, filler(5)...)
	r := doc("reader", "reader.go", "go", t0,
		"// NewReader returns a new Reader reading from s.\nfunc NewReader(s string) *Reader {\n\treturn &Reader{s, 0, -1}\n}",
		"Readers of quokka strings keep no heading.")
	c := &r.Chunks[0]
	c.Heading, c.Symbol, c.Kind, c.StartLine, c.EndLine = "func NewReader(s string) *Reader", "strs.NewReader", "func", 158, 161
	put(t, st, r)
	for _, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid} {
		res := search(t, st, graphrag.Query{Text: "NewReader returns a new Reader reading quokka", Mode: mode})
		got := map[string]graphrag.Chunk{}
		for _, h := range res.Hits {
			got[h.Chunk.ID] = h.Chunk
		}
		for _, want := range r.Chunks {
			h, ok := got[want.ID]
			if !ok {
				t.Errorf("%s: %s not found in %v", mode, want.ID, ids(res))
				continue
			}
			if h.Heading != want.Heading || h.Symbol != want.Symbol || h.Kind != want.Kind || h.StartLine != want.StartLine || h.EndLine != want.EndLine {
				t.Errorf("%s: %s = heading %q symbol %q kind %q lines %d-%d, want %q %q %q %d-%d", mode, want.ID,
					h.Heading, h.Symbol, h.Kind, h.StartLine, h.EndLine, want.Heading, want.Symbol, want.Kind, want.StartLine, want.EndLine)
			}
			if h.Text != want.Text {
				t.Errorf("%s: %s text = %q, want %q (newlines kept)", mode, want.ID, h.Text, want.Text)
			}
		}
	}
	// The symbol is searched with the title: its package name is not in
	// the text.
	if res := search(t, st, graphrag.Query{Text: "strs", Mode: graphrag.ModeKeyword}); len(res.Hits) != 1 || res.Hits[0].Chunk.ID != "reader#0" {
		t.Errorf("keyword search for the symbol's package = %v, want reader#0", ids(res))
	}
	if res := search(t, st, graphrag.Query{Text: "strs", Mode: graphrag.ModeKeyword}); len(res.Hits) == 1 && res.Hits[0].Source.Title != "reader.go" {
		t.Errorf("source title = %q, want the document's title only", res.Hits[0].Source.Title)
	}
	// A new version of the document replaces the place of its chunks.
	r2 := doc("reader", "reader.go", "go", t0, "// NewReader is gone; quokka remains.")
	r2.Chunks[0].Heading, r2.Chunks[0].Kind, r2.Chunks[0].StartLine, r2.Chunks[0].EndLine = "Notes", "section", 1, 1
	put(t, st, r2)
	res := search(t, st, graphrag.Query{Text: "quokka", Mode: graphrag.ModeKeyword})
	if len(res.Hits) != 1 {
		t.Fatalf("after replace hits = %v, want reader#0 only", ids(res))
	}
	if h := res.Hits[0].Chunk; h.Heading != "Notes" || h.Symbol != "" || h.Kind != "section" || h.StartLine != 1 || h.EndLine != 1 {
		t.Errorf("after replace chunk = heading %q symbol %q kind %q lines %d-%d, want Notes, none, section, 1-1", h.Heading, h.Symbol, h.Kind, h.StartLine, h.EndLine)
	}
}

func (s suite) openings(t *testing.T) {
	st := s.fresh(t, nil)
	ctx := context.Background()
	if got, err := st.Openings(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("Openings of no documents on an empty store = %v, %v; want none, no error", got, err)
	}
	put(t, st, filler(5)...)
	log := doc("zorp", "changelog", "txt", t0,
		"zorp (3.4.1-2) unstable; urgency=medium\n\n  * Fix the frob.",
		"zorp (3.4.1-1) unstable; urgency=low\n\n  * New upstream release.")
	log.Chunks[0].Heading, log.Chunks[0].StartLine, log.Chunks[0].EndLine = "Releases", 1, 3
	notes := doc("quux", "notes", "md", t0, "Quux keeps one passage.")
	put(t, st, log, notes)
	got, err := st.Openings(ctx, []string{"quux", "missing", "zorp", "quux"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Chunk.ID != "quux#0" || got[1].Chunk.ID != "zorp#0" {
		t.Fatalf("Openings(quux, missing, zorp, quux) = %v, want quux#0 and zorp#0 in that order", hitKeys(got))
	}
	h, want := got[1], log.Chunks[0]
	if h.Chunk.Text != want.Text || h.Chunk.DocID != "zorp" || h.Chunk.Ordinal != 0 || h.Chunk.Heading != want.Heading || h.Chunk.StartLine != 1 || h.Chunk.EndLine != 3 {
		t.Errorf("opening of zorp = %+v, want its first chunk %+v", h.Chunk, want)
	}
	if h.Source.DocID != "zorp" || h.Source.Path != log.Doc.Path || h.Source.Title != "changelog" || !h.Source.ModTime.Equal(t0) {
		t.Errorf("opening of zorp's source = %+v, want the document's", h.Source)
	}
	if err := st.Delete(ctx, "zorp"); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Openings(ctx, []string{"zorp"}); err != nil || len(got) != 0 {
		t.Errorf("Openings of a deleted document = %v, %v; want none", hitKeys(got), err)
	}
}

func (s suite) copies(t *testing.T) {
	st := s.fresh(t, nil)
	ctx := context.Background()
	entry := "zorp (3.4.1-2) unstable; urgency=medium\n\n  * Fix the frob."
	if got, err := st.Copies(ctx, entry, []string{"pkg/zorp"}); err != nil || len(got) != 0 {
		t.Errorf("Copies on an empty store = %v, %v; want none, no error", hitKeys(got), err)
	}
	put(t, st, filler(5)...)
	put(t, st,
		doc("pkg/zorp2/changelog", "changelog", "txt", t0, "zorp (3.4.2-1) unstable; urgency=low", entry),
		doc("pkg/zorp-utils/changelog", "changelog", "txt", t0, entry, "zorp (3.4.1-1) unstable; urgency=low"),
		doc("pkg/libzorp7/changelog", "changelog", "txt", t0, entry),
		doc("pkg/zorp-doc/changelog", "changelog", "txt", t0, entry+"\n"),           // not word for word
		doc("pkg/quux/changelog", "changelog", "txt", t0, entry),                    // under no prefix
		doc("other/zorp/changelog", "changelog", "txt", t0, entry),                  // under no prefix
		doc("pkg/zorp-utils/NEWS", "NEWS", "txt", t0, "Zorp 3.4.1 fixes the frob."), // another text
	)
	got, err := st.Copies(ctx, entry, []string{"pkg/zorp", "pkg/libzorp", "pkg/zorp-u"})
	if err != nil {
		t.Fatal(err)
	}
	// Bytewise, "-" sorts before "2": a collation that ignores
	// punctuation would put zorp2 before zorp-utils.
	want := []string{"pkg/libzorp7/changelog#0", "pkg/zorp-utils/changelog#0", "pkg/zorp2/changelog#1"}
	var ids []string
	for _, h := range got {
		ids = append(ids, h.Chunk.ID)
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("Copies(entry, pkg/zorp pkg/libzorp pkg/zorp-u) = %q, want %q", ids, want)
	}
	h := got[2]
	if h.Chunk.Text != entry || h.Chunk.DocID != "pkg/zorp2/changelog" || h.Chunk.Ordinal != 1 || h.Source.DocID != "pkg/zorp2/changelog" || h.Source.Path != "/corpus/pkg/zorp2/changelog.txt" || h.Source.Title != "changelog" || !h.Source.ModTime.Equal(t0) {
		t.Errorf("copy in pkg/zorp2 = %+v, want its second chunk and its document", h)
	}
	if _, err := st.Copies(ctx, entry, []string{"pkg/zorp", ""}); !errors.Is(err, graphrag.ErrInvalidQuery) {
		t.Errorf("Copies with an empty prefix: err = %v, want ErrInvalidQuery", err)
	}
	if err := st.Delete(ctx, "pkg/libzorp7/changelog"); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Copies(ctx, entry, []string{"pkg/libzorp"}); err != nil || len(got) != 0 {
		t.Errorf("Copies in a deleted document = %v, %v; want none", hitKeys(got), err)
	}
}

func (s suite) replace(t *testing.T) {
	for _, emb := range []graphrag.Embedder{nil, NewHashEmbedder(dim)} {
		t.Run(fmt.Sprintf("embedder=%v", emb != nil), func(t *testing.T) {
			st := s.fresh(t, emb)
			put(t, st, filler(3)...)
			put(t, st, doc("d", "Old title", "txt", t0, "walrus one", "walrus two narwhal", "walrus three narwhal"))
			put(t, st, doc("d", "New title", "md", t0.Add(time.Hour), "walrus renewed"))
			for _, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid} {
				res := search(t, st, graphrag.Query{Text: "walrus narwhal", Mode: mode, K: 50})
				for _, h := range res.Hits {
					if h.Chunk.DocID == "d" && (h.Chunk.ID != "d#0" || h.Chunk.Text != "walrus renewed") {
						t.Errorf("%s: stale chunk %q %q", mode, h.Chunk.ID, h.Chunk.Text)
					}
					if h.Chunk.DocID == "d" && (h.Source.Title != "New title" || h.Source.Type != "md") {
						t.Errorf("%s: stale source %+v", mode, h.Source)
					}
				}
				if !contains(docIDs(res), "d") {
					t.Errorf("%s: replaced doc not found: %v", mode, ids(res))
				}
			}
			if res := search(t, st, graphrag.Query{Text: "narwhal", Mode: graphrag.ModeKeyword}); len(res.Hits) != 0 {
				t.Errorf("old chunk text still indexed: %v", ids(res))
			}
			stats, err := st.Stats(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if stats.Documents != 4 || stats.Chunks != 4 {
				t.Errorf("stats = %+v, want 4 docs, 4 chunks", stats)
			}
		})
	}
}

func (s suite) delete(t *testing.T) {
	st := s.fresh(t, NewHashEmbedder(dim))
	put(t, st, filler(3)...)
	put(t, st, doc("gone", "Gone", "txt", t0, "platypus facts", "more platypus"), doc("kept", "Kept", "txt", t0, "platypus too"))
	if err := st.Delete(context.Background(), "gone", "never-existed"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := st.Delete(context.Background()); err != nil {
		t.Fatalf("Delete(): %v", err)
	}
	for _, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid} {
		res := search(t, st, graphrag.Query{Text: "platypus", Mode: mode, K: 50})
		if contains(docIDs(res), "gone") {
			t.Errorf("%s: deleted doc still found", mode)
		}
		if !contains(docIDs(res), "kept") {
			t.Errorf("%s: kept doc not found: %v", mode, ids(res))
		}
	}
	m, err := st.Manifest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range m {
		if d.ID == "gone" {
			t.Errorf("deleted doc in manifest")
		}
	}
	stats, _ := st.Stats(context.Background())
	if stats.Documents != 4 || stats.Chunks != 4 {
		t.Errorf("stats = %+v, want 4 docs and 4 chunks", stats)
	}
}

func (s suite) manifest(t *testing.T) {
	st := s.fresh(t, nil)
	m, err := st.Manifest(context.Background())
	if err != nil || len(m) != 0 {
		t.Fatalf("empty store manifest = %v, %v", m, err)
	}
	a := doc("b-doc", "B", "txt", t0, "x")
	a.Doc.Hash, a.Doc.Path = "hash-b", "/data/b.txt"
	b := doc("a-doc", "A", "md", t0, "y")
	b.Doc.Hash, b.Doc.Path = "hash-a", "/data/a.md"
	c := doc("c-doc", "C", "jsonl", t0) // a document with no chunks is still a document
	c.Doc.Hash, c.Doc.Path = "hash-c", "/data/corpus.jsonl"
	put(t, st, a, b, c)
	m, err = st.Manifest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []graphrag.DocState{{ID: "a-doc", Path: "/data/a.md", Hash: "hash-a"}, {ID: "b-doc", Path: "/data/b.txt", Hash: "hash-b"}, {ID: "c-doc", Path: "/data/corpus.jsonl", Hash: "hash-c"}}
	if fmt.Sprint(m) != fmt.Sprint(want) {
		t.Errorf("manifest = %v, want %v", m, want)
	}
}

func (s suite) stats(t *testing.T) {
	for _, tc := range []struct {
		name string
		emb  graphrag.Embedder
		want graphrag.StoreStats
	}{
		{"no embedder", nil, graphrag.StoreStats{Documents: 2, Chunks: 3}},
		{"hash embedder", NewHashEmbedder(dim), graphrag.StoreStats{Documents: 2, Chunks: 3, Embedder: "hash-64", Dimension: 64}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := s.fresh(t, tc.emb)
			put(t, st, doc("1", "One", "txt", t0, "a", "b"), doc("2", "Two", "txt", t0, "c"))
			got, err := st.Stats(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("stats = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func (s suite) keywordRanking(t *testing.T) {
	st := s.fresh(t, nil)
	put(t, st, filler(10)...)
	put(t, st,
		doc("some-1", "Notes", "txt", t0, "The zebra crossed the road near the station before dawn."),
		doc("some-2", "Notes", "txt", t0, "A quantum computer was shown at the station before dawn."),
		doc("all", "Notes", "txt", t0, "The zebra saw a quantum computer at the station before dawn."),
		doc("titled", "Marsupial habits", "txt", t0, "They carry their young in a pouch for months on end."),
		doc("body", "Notes", "txt", t0, "A marsupial carries its young in a pouch for months on end."),
	)
	tests := []struct {
		name, query, wantTop string
		wantIn               []string
	}{
		{"all terms above some", "zebra quantum", "all", []string{"some-1", "some-2"}},
		{"stop words ignored", "what is the zebra and the quantum", "all", []string{"some-1", "some-2"}},
		{"case folded", "ZEBRA Quantum", "all", nil},
		{"title match counts", "habits", "titled", nil},
		{"title outranks body", "marsupial", "titled", []string{"body"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := search(t, st, graphrag.Query{Text: tc.query, Mode: graphrag.ModeKeyword})
			got := docIDs(res)
			if len(got) == 0 || got[0] != tc.wantTop {
				t.Fatalf("docs = %v, want %q first", got, tc.wantTop)
			}
			for _, w := range tc.wantIn {
				if !contains(got, w) {
					t.Errorf("docs = %v, want %q among them", got, w)
				}
			}
		})
	}
}

// definitionsFirst: a document with a role (a test, test data or vendored
// code: Document.Metadata[graphrag.MetaRole]) ranks below one without
// that holds the same words. Generated code is no copy: it keeps its
// place.
func (s suite) definitionsFirst(t *testing.T) {
	st := s.fresh(t, nil)
	put(t, st, filler(10)...)
	text := "NewReader returns a new Reader reading from s. It is similar to bytes.NewBufferString but more efficient and non-writable."
	for _, role := range []string{graphrag.RoleTest, graphrag.RoleTestdata, graphrag.RoleVendor} {
		// The role's copy has the definition's words; its id sorts first.
		copied := doc("copy-"+role, "reader.go", "go", t0, text)
		copied.Doc.Metadata[graphrag.MetaRole] = role
		put(t, st, copied)
	}
	put(t, st, doc("definition", "reader.go", "go", t0, text))
	res := search(t, st, graphrag.Query{Text: "NewReader reading", Mode: graphrag.ModeKeyword})
	if got := docIDs(res); len(got) == 0 || got[0] != "definition" {
		t.Errorf("docs = %v, want the definition above the test, test data and vendored copies", got)
	}
	// A generated document with the words ranks as the definition does:
	// with equal scores, the first by id.
	gen := doc("a-generated", "reader.go", "go", t0, text)
	gen.Doc.Metadata[graphrag.MetaRole] = graphrag.RoleGenerated
	put(t, st, gen)
	res = search(t, st, graphrag.Query{Text: "NewReader reading", Mode: graphrag.ModeKeyword})
	if got := docIDs(res); len(got) < 2 || got[0] != "a-generated" || got[1] != "definition" {
		t.Errorf("docs = %v, want the generated document beside the definition, first by id", got)
	}
}

func (s suite) vectorSearch(t *testing.T) {
	emb := NewHashEmbedder(dim)
	st := s.fresh(t, emb)
	put(t, st, filler(8)...)
	target := "lighthouse keeper logbook entries from the winter storm"
	put(t, st, doc("lh", "Log", "txt", t0, target), doc("other", "Other", "txt", t0, "completely different words entirely"))
	res := search(t, st, graphrag.Query{Text: target, Mode: graphrag.ModeVector, K: 3})
	if res.Mode != graphrag.ModeVector {
		t.Errorf("Mode = %q, want vector", res.Mode)
	}
	if len(res.Hits) != 3 {
		t.Fatalf("hits = %v, want 3", ids(res))
	}
	if res.Hits[0].Chunk.ID != "lh#0" || math.Abs(res.Hits[0].Score-1) > 1e-4 {
		t.Errorf("top = %q score %v, want lh#0 with cosine 1", res.Hits[0].Chunk.ID, res.Hits[0].Score)
	}
	for i, h := range res.Hits {
		if h.Ranks.Vector != i+1 || h.Ranks.Keyword != 0 {
			t.Errorf("hit %d ranks = %+v, want vector %d keyword 0", i, h.Ranks, i+1)
		}
		if h.Score < -1-1e-6 || h.Score > 1+1e-6 {
			t.Errorf("cosine %v out of range", h.Score)
		}
	}
	// A precomputed query vector is used as given.
	v, _ := emb.Embed(context.Background(), []string{"completely different words entirely"})
	res = search(t, st, graphrag.Query{Text: "lighthouse", Vector: v[0], Mode: graphrag.ModeVector, K: 1})
	if len(res.Hits) != 1 || res.Hits[0].Chunk.ID != "other#0" {
		t.Errorf("with Query.Vector: hits = %v, want other#0", ids(res))
	}
	// Filters apply to vector search too.
	res = search(t, st, graphrag.Query{Text: target, Mode: graphrag.ModeVector, K: 5, Filters: graphrag.Filters{DocIDs: []string{"other"}}})
	if fmt.Sprint(docIDs(res)) != "[other]" {
		t.Errorf("filtered vector search = %v, want only other", ids(res))
	}
}

func (s suite) hybrid(t *testing.T) {
	st := s.fresh(t, NewHashEmbedder(dim))
	put(t, st, filler(8)...)
	put(t, st, doc("both", "Kestrel", "txt", t0, "kestrel hovering over the meadow hunting voles"),
		doc("kw", "Kestrel facts", "txt", t0, "a kestrel is a small falcon"))
	res := search(t, st, graphrag.Query{Text: "kestrel hovering over the meadow hunting voles", Mode: graphrag.ModeHybrid, K: 5})
	if res.Mode != graphrag.ModeHybrid {
		t.Errorf("Mode = %q, want hybrid", res.Mode)
	}
	if len(res.Hits) == 0 || res.Hits[0].Chunk.ID != "both#0" {
		t.Fatalf("hits = %v, want both#0 first", ids(res))
	}
	if r := res.Hits[0].Ranks; r.Keyword != 1 || r.Vector != 1 {
		t.Errorf("top ranks = %+v, want 1 and 1", r)
	}
	for i, h := range res.Hits {
		want := 0.0
		if h.Ranks.Keyword > 0 {
			want += 1 / float64(60+h.Ranks.Keyword)
		}
		if h.Ranks.Vector > 0 {
			want += 1 / float64(60+h.Ranks.Vector)
		}
		if h.Ranks.Keyword == 0 && h.Ranks.Vector == 0 {
			t.Errorf("hit %d in neither list", i)
		}
		if math.Abs(h.Score-want) > 1e-9 {
			t.Errorf("hit %d score %v, want RRF %v from ranks %+v", i, h.Score, want, h.Ranks)
		}
	}
}

// LegSearcher is what a store may also do (nodes.LegSearcher): run the
// keyword and vector lists of a hybrid search one at a time, so that the
// RAG graph runs them as parallel branches and fuses them with
// graphrag.FuseRRF. The suite checks that the fused legs are exactly the
// store's own hybrid search.
type LegSearcher interface {
	HybridLegs() bool
	SearchLeg(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error)
}

func (s suite) legs(t *testing.T) {
	st := s.fresh(t, NewHashEmbedder(dim))
	ls, ok := st.(LegSearcher)
	if !ok {
		t.Skipf("%T runs hybrid search in one call (no SearchLeg)", st)
	}
	if !ls.HybridLegs() {
		t.Fatal("HybridLegs() = false for a store with an embedder")
	}
	put(t, st, filler(60)...)
	put(t, st, doc("both", "Kestrel", "txt", t0, "kestrel hovering over the meadow hunting voles"),
		doc("kw", "Kestrel facts", "txt", t0, "a kestrel is a small falcon"),
		doc("vec", "Meadow", "md", t0.Add(-48*time.Hour), "voles in the meadow grass, hunted from above"))
	ctx := context.Background()
	for _, q := range []graphrag.Query{
		{Text: "kestrel hovering over the meadow hunting voles", K: 5},
		{Text: "small falcon", K: 3},
		{Text: "meadow voles", K: 10, Filters: graphrag.Filters{Types: []string{"md"}}},
		{Text: "filler words that match many chunks", K: 20},
	} {
		q.Mode = graphrag.ModeHybrid
		want := search(t, st, q)
		var lists [][]graphrag.Hit
		for _, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector} {
			lq := q
			lq.Mode = mode
			res, err := ls.SearchLeg(ctx, lq)
			if err != nil {
				t.Fatalf("SearchLeg(%s, %q): %v", mode, q.Text, err)
			}
			if res.Mode != mode {
				t.Errorf("SearchLeg(%s).Mode = %q", mode, res.Mode)
			}
			lists = append(lists, res.Hits)
		}
		got := graphrag.FuseRRF(q.K, lists...)
		if fmt.Sprint(hitKeys(got)) != fmt.Sprint(hitKeys(want.Hits)) {
			t.Errorf("%q: fused legs\n %v\nhybrid search\n %v", q.Text, hitKeys(got), hitKeys(want.Hits))
		}
	}
	if _, err := ls.SearchLeg(ctx, graphrag.Query{Text: "kestrel", Mode: graphrag.ModeHybrid}); !errors.Is(err, graphrag.ErrInvalidQuery) {
		t.Errorf("SearchLeg(hybrid) = %v, want ErrInvalidQuery", err)
	}
	bare := s.fresh(t, nil).(LegSearcher)
	if bare.HybridLegs() {
		t.Error("HybridLegs() = true for a store without an embedder")
	}
}

// hitKeys describes hits by chunk id, ranks and score, for comparisons.
func hitKeys(hits []graphrag.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = fmt.Sprintf("%s k%d v%d %.9f", h.Chunk.ID, h.Ranks.Keyword, h.Ranks.Vector, h.Score)
	}
	return out
}

func (s suite) filters(t *testing.T) {
	st := s.fresh(t, NewHashEmbedder(dim))
	recs := []graphrag.Record{
		doc("old-pdf", "Quarterly report", "pdf", t0.Add(-48*time.Hour), "ocelot report text"),
		doc("new-md", "Meeting notes", "md", t0, "ocelot meeting text"),
		doc("newer-go", "main.go", "go", t0.Add(24*time.Hour), "ocelot code text"),
		doc("pct", "100% done", "txt", t0, "ocelot percent text"),
	}
	recs[1].Doc.Path = "/home/me/Projects/notes.md"
	put(t, st, recs...)
	tests := []struct {
		name string
		f    graphrag.Filters
		want string
	}{
		{"none", graphrag.Filters{}, "[new-md newer-go old-pdf pct]"},
		{"types", graphrag.Filters{Types: []string{"pdf", "go"}}, "[newer-go old-pdf]"},
		{"types case-insensitive", graphrag.Filters{Types: []string{"PDF"}}, "[old-pdf]"},
		{"type absent", graphrag.Filters{Types: []string{"docx"}}, "[]"},
		{"source in path", graphrag.Filters{Source: "projects"}, "[new-md]"},
		{"source in title", graphrag.Filters{Source: "QUARTERLY"}, "[old-pdf]"},
		{"source is literal", graphrag.Filters{Source: "%"}, "[pct]"},
		{"source underscore literal", graphrag.Filters{Source: "_"}, "[]"},
		{"since inclusive", graphrag.Filters{Since: t0}, "[new-md newer-go pct]"},
		{"until exclusive", graphrag.Filters{Until: t0}, "[old-pdf]"},
		{"window", graphrag.Filters{Since: t0.Add(-time.Second), Until: t0.Add(time.Second)}, "[new-md pct]"},
		{"doc ids", graphrag.Filters{DocIDs: []string{"pct", "old-pdf", "missing"}}, "[old-pdf pct]"},
		{"combined", graphrag.Filters{Types: []string{"md", "pdf"}, Since: t0.Add(-time.Hour)}, "[new-md]"},
	}
	for _, tc := range tests {
		for _, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid} {
			t.Run(tc.name+"/"+string(mode), func(t *testing.T) {
				res := search(t, st, graphrag.Query{Text: "ocelot text", Mode: mode, Filters: tc.f})
				got := docIDs(res)
				sort.Strings(got)
				if fmt.Sprint(got) != tc.want {
					t.Errorf("docs = %v, want %s", got, tc.want)
				}
			})
		}
	}
}

func (s suite) kDefault(t *testing.T) {
	st := s.fresh(t, NewHashEmbedder(dim))
	var recs []graphrag.Record
	for i := 0; i < 15; i++ {
		recs = append(recs, doc(fmt.Sprintf("d%02d", i), "Heron", "txt", t0, fmt.Sprintf("heron sighting number %d", i)))
	}
	put(t, st, recs...)
	for _, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid} {
		for _, tc := range []struct{ k, want int }{{0, 10}, {-1, 10}, {3, 3}, {100, 15}} {
			res := search(t, st, graphrag.Query{Text: "heron sighting", Mode: mode, K: tc.k})
			if len(res.Hits) != tc.want {
				t.Errorf("%s K=%d: %d hits, want %d", mode, tc.k, len(res.Hits), tc.want)
			}
		}
	}
}

func (s suite) emptyQuery(t *testing.T) {
	st := s.fresh(t, NewHashEmbedder(dim))
	put(t, st, filler(3)...)
	for _, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid} {
		for _, text := range []string{"", "   ", "\n\t"} {
			_, err := st.Search(context.Background(), graphrag.Query{Text: text, Mode: mode})
			if !errors.Is(err, graphrag.ErrInvalidQuery) {
				t.Errorf("%s %q: err = %v, want ErrInvalidQuery", mode, text, err)
			}
		}
		// No searchable word: no hits, no error.
		res := search(t, st, graphrag.Query{Text: "?! -- ...", Mode: graphrag.ModeKeyword})
		if len(res.Hits) != 0 {
			t.Errorf("punctuation-only query found %v", ids(res))
		}
	}
}

func (s suite) invalidQuery(t *testing.T) {
	st := s.fresh(t, NewHashEmbedder(dim))
	put(t, st, filler(3)...)
	tests := []struct {
		name string
		q    graphrag.Query
	}{
		{"unknown mode", graphrag.Query{Text: "river", Mode: "telepathy"}},
		{"vector of wrong dimension", graphrag.Query{Text: "river", Mode: graphrag.ModeVector, Vector: []float32{1, 2, 3}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := st.Search(context.Background(), tc.q); !errors.Is(err, graphrag.ErrInvalidQuery) {
				t.Errorf("err = %v, want ErrInvalidQuery", err)
			}
		})
	}
	t.Run("empty mode picks the best", func(t *testing.T) {
		res := search(t, st, graphrag.Query{Text: "river"})
		if res.Mode != graphrag.ModeHybrid {
			t.Errorf("Mode = %q, want hybrid for a store with an embedder", res.Mode)
		}
	})
}

func (s suite) hostile(t *testing.T) {
	st := s.fresh(t, NewHashEmbedder(dim))
	put(t, st, filler(5)...)
	nasty := "bad\xff\xfe utf8 and a NUL\x00 byte; ' \" ) NEAR( * okapi"
	put(t, st, doc("nasty", "ti\xfftle\x00 \"q\"", "txt", t0, nasty))
	before, _ := st.Stats(context.Background())
	queries := []string{
		`"`, `""`, `"unbalanced`, `NEAR(river market`, `NEAR(river, market)`, `river*`, `*`, `-river`, `- -`,
		`river AND market`, `OR`, `NOT river`, `AND`, `title:river`, `text:river`, `{title text}: river`,
		`^river`, `river + market`, `(river`, `)`, `'`, `'; DROP TABLE chunks; --`, `1' OR '1'='1`,
		`%`, `_`, `\`, `\x00`, "okapi\x00", "\xff\xfe\xfd", "caf\xe9", `$1`, `?`, `:`, `;`, `[river]`,
		`river NEAR/3 market`, `MATCH`, `bm25(chunks)`, "river\nmarket\ttab",
		strings.Repeat("river market ", 100*1024/13),
		strings.Repeat("x", 100*1024),
	}
	for i, q := range queries {
		for _, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid} {
			name := q
			if len(name) > 30 {
				name = name[:30]
			}
			res, err := st.Search(context.Background(), graphrag.Query{Text: q, Mode: mode, Filters: graphrag.Filters{Source: q, Types: []string{q}}})
			if err != nil {
				t.Errorf("query %d %q (%s) with hostile filters: %v", i, name, mode, err)
			}
			_ = res
			res, err = st.Search(context.Background(), graphrag.Query{Text: q, Mode: mode})
			if err != nil && !(strings.TrimSpace(q) == "" && errors.Is(err, graphrag.ErrInvalidQuery)) {
				t.Errorf("query %d %q (%s): %v", i, name, mode, err)
				continue
			}
			checkHits(t, res)
		}
	}
	// Words are still found as words.
	res := search(t, st, graphrag.Query{Text: `"river" OR -market*`, Mode: graphrag.ModeKeyword})
	if len(res.Hits) == 0 {
		t.Errorf("quoted/operator query found nothing; words should be searched as words")
	}
	res = search(t, st, graphrag.Query{Text: "okapi", Mode: graphrag.ModeKeyword})
	if fmt.Sprint(docIDs(res)) != "[nasty]" {
		t.Errorf("doc with invalid UTF-8 and NUL: found %v, want [nasty]", ids(res))
	}
	after, _ := st.Stats(context.Background())
	if before != after {
		t.Errorf("stats changed by searches: %+v -> %+v", before, after)
	}
}

func (s suite) noEmbedder(t *testing.T) {
	st := s.fresh(t, nil)
	put(t, st, filler(5)...)
	put(t, st, doc("ibis", "Ibis", "txt", t0, "the sacred ibis wades"))
	for _, mode := range []graphrag.SearchMode{graphrag.ModeVector, graphrag.ModeHybrid, ""} {
		res := search(t, st, graphrag.Query{Text: "sacred ibis", Mode: mode})
		if res.Mode != graphrag.ModeKeyword {
			t.Errorf("%q: Mode = %q, want keyword", mode, res.Mode)
		}
		if mode != "" && res.Note == "" {
			t.Errorf("%q: no Note explains the keyword fallback", mode)
		}
		if len(res.Hits) == 0 || res.Hits[0].Chunk.ID != "ibis#0" || res.Hits[0].Ranks.Keyword != 1 {
			t.Errorf("%q: hits = %v, want ibis#0 ranked by keyword", mode, ids(res))
		}
	}
	// Embeddings handed to a store without an embedder are ignored.
	r := doc("vec", "Vec", "txt", t0, "spoonbill")
	r.Chunks[0].Embedding = []float32{1, 2, 3}
	put(t, st, r)
	if res := search(t, st, graphrag.Query{Text: "spoonbill", Mode: graphrag.ModeKeyword}); len(res.Hits) != 1 {
		t.Errorf("hits = %v, want the spoonbill chunk", ids(res))
	}
}

func (s suite) embedsOnPut(t *testing.T) {
	emb := NewHashEmbedder(dim)
	st := s.fresh(t, emb)
	given, _ := emb.Embed(context.Background(), []string{"totally unrelated vocabulary"})
	r := doc("pre", "Pre", "txt", t0, "crane migration")
	r.Chunks[0].Embedding = given[0] // a given embedding is stored as is
	put(t, st, r, doc("auto", "Auto", "txt", t0, "stork migration"))
	res := search(t, st, graphrag.Query{Text: "stork migration", Mode: graphrag.ModeVector, K: 1})
	if fmt.Sprint(ids(res)) != "[auto#0]" || math.Abs(res.Hits[0].Score-1) > 1e-4 {
		t.Errorf("hits = %v, want auto#0 with cosine 1 (embedded by Put)", ids(res))
	}
	res = search(t, st, graphrag.Query{Text: "totally unrelated vocabulary", Mode: graphrag.ModeVector, K: 1})
	if fmt.Sprint(ids(res)) != "[pre#0]" {
		t.Errorf("hits = %v, want pre#0 (its given embedding kept)", ids(res))
	}
}

func (s suite) mismatch(t *testing.T) {
	if s.reopen == nil {
		t.Skip("storetest: no ReopenFunc given; embedder mismatch not checked")
	}
	h64 := NewHashEmbedder(dim)
	tests := []struct {
		name     string
		built    graphrag.Embedder
		reopened graphrag.Embedder
		wantErr  bool
	}{
		{"same embedder", h64, NewHashEmbedder(dim), false},
		{"other dimension", h64, NewHashEmbedder(32), true},
		{"other name same dimension", h64, &HashEmbedder{Dim: dim, Salt: "b"}, true},
		{"none after one", h64, nil, true},
		{"one after none", nil, h64, true},
		{"none after none", nil, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := s.open(t, tc.built)
			put(t, st, doc("gull", "Gull", "txt", t0, "herring gull on the pier"))
			if err := st.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			st2, err := s.reopen(t, st, tc.reopened)
			if tc.wantErr {
				if !errors.Is(err, graphrag.ErrEmbedderMismatch) {
					t.Fatalf("reopen err = %v, want ErrEmbedderMismatch", err)
				}
				if !strings.Contains(err.Error(), "hash-64") && tc.built != nil {
					t.Errorf("error %q does not name the embedder that built the store", err)
				}
				if st2 != nil {
					_ = st2.Close()
				}
				return
			}
			if err != nil {
				t.Fatalf("reopen: %v", err)
			}
			defer st2.Close()
			res := search(t, st2, graphrag.Query{Text: "herring gull"})
			if fmt.Sprint(ids(res)) != "[gull#0]" {
				t.Errorf("after reopen hits = %v, want gull#0", ids(res))
			}
		})
	}
	t.Run("empty store adopts embedder", func(t *testing.T) {
		st := s.open(t, nil)
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		st2, err := s.reopen(t, st, h64)
		if err != nil {
			t.Fatalf("reopen empty store with an embedder: %v", err)
		}
		defer st2.Close()
		put(t, st2, doc("tern", "Tern", "txt", t0, "arctic tern"))
		res := search(t, st2, graphrag.Query{Text: "arctic tern", Mode: graphrag.ModeVector})
		if res.Mode != graphrag.ModeVector || len(res.Hits) != 1 {
			t.Errorf("mode %q hits %v, want vector search of tern#0", res.Mode, ids(res))
		}
	})
}

func (s suite) atomicity(t *testing.T) {
	good := doc("good", "Good", "txt", t0, "albatross glides")
	dup := doc("dup", "Dup", "txt", t0, "a", "b")
	dup.Chunks[1].Ordinal = 0
	dup.Chunks[1].ID = "dup#0"
	wrongID := doc("wid", "W", "txt", t0, "a")
	wrongID.Chunks[0].ID = "something-else"
	otherDoc := doc("od", "O", "txt", t0, "a")
	otherDoc.Chunks[0].DocID = "good"
	badDim := doc("dim", "D", "txt", t0, "a")
	badDim.Chunks[0].Embedding = []float32{1, 2}
	badLines := doc("lines", "L", "go", t0, "a")
	badLines.Chunks[0].StartLine, badLines.Chunks[0].EndLine = 9, 3
	halfLines := doc("half", "H", "go", t0, "a")
	halfLines.Chunks[0].EndLine = 3
	tests := []struct {
		name string
		bad  []graphrag.Record
	}{
		{"empty doc id", []graphrag.Record{doc("", "Empty", "txt", t0, "albatross")}},
		{"duplicate ordinal", []graphrag.Record{dup}},
		{"chunk id not derived", []graphrag.Record{wrongID}},
		{"chunk of another doc", []graphrag.Record{otherDoc}},
		{"embedding of wrong dimension", []graphrag.Record{badDim}},
		{"line range ends before it starts", []graphrag.Record{badLines}},
		{"line range without a start", []graphrag.Record{halfLines}},
		{"same doc twice", []graphrag.Record{doc("twice", "T", "txt", t0, "a"), doc("twice", "T", "txt", t0, "b")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := s.fresh(t, NewHashEmbedder(dim))
			prev := doc("good", "Prev", "txt", t0, "previous version survives")
			put(t, st, prev)
			err := st.Put(context.Background(), append([]graphrag.Record{good}, tc.bad...)...)
			if err == nil {
				t.Fatal("Put with an invalid record succeeded")
			}
			if res := search(t, st, graphrag.Query{Text: "albatross", Mode: graphrag.ModeKeyword}); len(res.Hits) != 0 {
				t.Errorf("part of a failed Put was written: %v", ids(res))
			}
			if res := search(t, st, graphrag.Query{Text: "previous version survives", Mode: graphrag.ModeKeyword}); len(res.Hits) != 1 {
				t.Errorf("failed Put damaged the previous version: %v", ids(res))
			}
			stats, _ := st.Stats(context.Background())
			if stats.Documents != 1 || stats.Chunks != 1 {
				t.Errorf("stats = %+v, want the 1 previous doc", stats)
			}
		})
	}
}

// docIDs checks that a store keeps exactly the document IDs that
// graphrag.CheckDocID accepts, unchanged, and refuses the others with
// graphrag.ErrInvalidDocID, writing nothing of that Put: every store agrees,
// so a corpus that ingests into one ingests into the other.
func (s suite) docIDs(t *testing.T) {
	long := "/" + strings.Repeat("d", graphrag.MaxDocIDBytes-1)
	kept := []string{
		"/home/ana/Müller – notes ☕.txt",
		"corpus.jsonl#row-1",
		"tab\tand 'quotes' \"and\" back\\slash; DROP TABLE chunks; --",
		long,
	}
	t.Run("kept unchanged", func(t *testing.T) {
		st := s.fresh(t, nil)
		for i, id := range kept {
			if err := graphrag.CheckDocID(id); err != nil {
				t.Fatalf("CheckDocID(%.40q): %v", id, err)
			}
			put(t, st, doc(id, "T", "txt", t0, fmt.Sprintf("kittiwake number%d", i)))
		}
		m, err := st.Manifest(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range m {
			got = append(got, d.ID)
		}
		sort.Strings(got)
		want := append([]string(nil), kept...)
		sort.Strings(want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("manifest ids %.200q, want %.200q", got, want)
		}
		res := search(t, st, graphrag.Query{Text: "kittiwake", Mode: graphrag.ModeKeyword})
		if len(res.Hits) != len(kept) {
			t.Errorf("%d hits, want %d", len(res.Hits), len(kept))
		}
		for _, h := range res.Hits {
			if !contains(kept, h.Chunk.DocID) || h.Chunk.ID != graphrag.ChunkID(h.Chunk.DocID, 0) {
				t.Errorf("hit %.60q of document %.60q", h.Chunk.ID, h.Chunk.DocID)
			}
		}
		if err := st.Delete(context.Background(), kept...); err != nil {
			t.Fatal(err)
		}
		if stats, _ := st.Stats(context.Background()); stats.Documents != 0 {
			t.Errorf("%d documents left after deleting them all", stats.Documents)
		}
	})
	refused := map[string]string{
		"latin-1 file name": "/home/ana/M\xfcller.txt",
		"NUL in a row id":   "rows.jsonl#a\x00b",
		"too long":          long + "x",
	}
	for name, id := range refused {
		t.Run("refused: "+name, func(t *testing.T) {
			if graphrag.CheckDocID(id) == nil {
				t.Fatalf("CheckDocID accepts %.40q", id)
			}
			st := s.fresh(t, nil)
			err := st.Put(context.Background(), doc("fine", "F", "txt", t0, "kittiwake"), doc(id, "Bad", "txt", t0, "kittiwake"))
			if !errors.Is(err, graphrag.ErrInvalidDocID) {
				t.Fatalf("Put = %v, want graphrag.ErrInvalidDocID", err)
			}
			if stats, _ := st.Stats(context.Background()); stats.Documents != 0 {
				t.Errorf("%d documents written by the refused Put", stats.Documents)
			}
		})
	}
}

func (s suite) cancelled(t *testing.T) {
	st := s.fresh(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := st.Put(ctx, doc("c", "C", "txt", t0, "cormorant")); !errors.Is(err, context.Canceled) {
		t.Errorf("Put with cancelled ctx: err = %v, want context.Canceled", err)
	}
	if _, err := st.Search(ctx, graphrag.Query{Text: "cormorant"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Search with cancelled ctx: err = %v, want context.Canceled", err)
	}
	if res := search(t, st, graphrag.Query{Text: "cormorant"}); len(res.Hits) != 0 {
		t.Errorf("cancelled Put wrote %v", ids(res))
	}
}

func (s suite) concurrent(t *testing.T) {
	st := s.fresh(t, NewHashEmbedder(dim))
	put(t, st, filler(5)...)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				id := fmt.Sprintf("w%d-%d", w, i)
				if err := st.Put(context.Background(), doc(id, "Puffin", "txt", t0, "puffin colony count")); err != nil {
					errs <- fmt.Errorf("put %s: %w", id, err)
					return
				}
				mode := []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid}[i%3]
				if _, err := st.Search(context.Background(), graphrag.Query{Text: "puffin colony", Mode: mode}); err != nil {
					errs <- fmt.Errorf("search: %w", err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	stats, _ := st.Stats(context.Background())
	if stats.Documents != 45 || stats.Chunks != 45 {
		t.Errorf("stats = %+v, want 45 docs", stats)
	}
}

func (s suite) large(t *testing.T) {
	st := s.fresh(t, NewHashEmbedder(dim))
	var recs []graphrag.Record
	var ids []string
	for i := 0; i < 400; i++ {
		id := fmt.Sprintf("big-%03d", i)
		ids = append(ids, id)
		texts := make([]string, 10)
		for j := range texts {
			texts[j] = fmt.Sprintf("gannet colony report %d part %d", i, j)
		}
		recs = append(recs, doc(id, "Gannet", "txt", t0, texts...))
	}
	put(t, st, recs...) // 4,000 chunks in one call
	stats, _ := st.Stats(context.Background())
	if stats.Documents != 400 || stats.Chunks != 4000 {
		t.Fatalf("stats = %+v, want 400 docs, 4000 chunks", stats)
	}
	res := search(t, st, graphrag.Query{Text: "gannet colony", Mode: graphrag.ModeHybrid, K: 20, Filters: graphrag.Filters{DocIDs: ids[:300]}})
	if len(res.Hits) != 20 {
		t.Errorf("%d hits, want 20", len(res.Hits))
	}
	if err := st.Delete(context.Background(), ids[:399]...); err != nil {
		t.Fatalf("Delete of 399 ids: %v", err)
	}
	stats, _ = st.Stats(context.Background())
	if stats.Documents != 1 || stats.Chunks != 10 {
		t.Errorf("after delete stats = %+v, want 1 doc, 10 chunks", stats)
	}
}
