package sqlite_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
	"github.com/graphrag/graphrag/retrievers/storetest"
)

// FuzzSearch feeds arbitrary text to every search mode: nothing but a
// blank query may fail.
//
//	go test ./retrievers/sqlite -run '^$' -fuzz FuzzSearch -fuzztime 30s
func FuzzSearch(f *testing.F) {
	for _, s := range []string{"river", `"`, "NEAR(a b)", "a* -b ^c", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ǅ ٣ ไทย \u0301", "\xff\xfe", "title:x", "🙂🙂", "ß straße", "x\x00y"} {
		f.Add(s)
	}
	s, err := sqlite.Open(context.Background(), filepath.Join(f.TempDir(), "fuzz.db"), sqlite.Options{Embedder: storetest.NewHashEmbedder(16)})
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	var recs []graphrag.Record
	for i, text := range []string{"The river market opened.", "Straße und Fluss", "ไทย ภาษา", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 text", "Tata Consultancy Services mentioned here"} {
		recs = append(recs, graphrag.Record{Doc: graphrag.Document{ID: string(rune('a' + i)), Title: text[:4], Type: "txt"}, Chunks: []graphrag.Chunk{{Text: text}}})
	}
	if err := s.Put(context.Background(), recs...); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		for _, mode := range []graphrag.SearchMode{graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid} {
			_, err := s.Search(context.Background(), graphrag.Query{Text: q, Mode: mode, Filters: graphrag.Filters{Source: q}})
			if err != nil && !(strings.TrimSpace(q) == "" && errors.Is(err, graphrag.ErrInvalidQuery)) {
				t.Fatalf("%s %q: %v", mode, q, err)
			}
		}
	})
}
