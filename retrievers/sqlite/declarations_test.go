package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// TestQualifiedNameFindsItsDeclaration: a declaration whose long doc
// comment ranks it under the BM25 cut (errors.Is among chunks that say
// "errors" more often, in fewer words) is still a candidate when the query
// names it package-qualified, and the symbol boost puts it first.
func TestQualifiedNameFindsItsDeclaration(t *testing.T) {
	ctx := context.Background()
	shallow := sqlite.DefaultRanking()
	shallow.Depth = 3 // the BM25 cut, as 100 is among GOROOT's 120,000 chunks
	noSymbol := shallow
	noSymbol.Symbol = 0
	for _, tc := range []struct {
		name    string
		ranking sqlite.Ranking
		found   bool
	}{
		{"symbol boost on", shallow, true},
		{"symbol boost off", noSymbol, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{Ranking: &tc.ranking})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			doc := "// Is reports whether any error in err's tree matches target.\n//\n" +
				strings.Repeat("// The tree consists of err itself, followed by what repeatedly calling its Unwrap method gives.\n", 12) +
				"func Is(err, target error) bool {\n\treturn is(err, target, true)\n}"
			recs := []graphrag.Record{{Doc: graphrag.Document{ID: "/src/errors/wrap.go", Path: "/src/errors/wrap.go", Title: "wrap.go", Type: "go"},
				Chunks: []graphrag.Chunk{{Text: doc, Symbol: "errors.Is", Kind: "func"}}}}
			// Short chunks of the same package, in a file whose name says
			// errors, that use errors and say "is".
			for i, name := range []string{"New", "Join", "Unwrap", "As", "ErrUnsupported", "Errorf"} {
				id := fmt.Sprintf("/src/errors/%s.go", strings.ToLower(name))
				recs = append(recs, graphrag.Record{Doc: graphrag.Document{ID: id, Path: id, Title: "errors.go", Type: "go"},
					Chunks: []graphrag.Chunk{{Text: fmt.Sprintf("// %s is one of the errors functions: use it on errors.\nfunc %s%d() error { return errors.New(\"errors\") }", name, name, i),
						Symbol: "errors." + name, Kind: "func"}}})
			}
			for i, w := range []string{"river", "market", "garden", "letter", "window", "forest", "bridge", "castle", "meadow", "harbour", "valley", "island"} {
				id := "/notes/" + w + ".txt"
				recs = append(recs, graphrag.Record{Doc: graphrag.Document{ID: id, Path: id, Title: w, Type: "txt"},
					Chunks: []graphrag.Chunk{{Text: strings.Repeat(w+" ", i+3) + "was written down here for later."}}})
			}
			if err := s.Put(ctx, recs...); err != nil {
				t.Fatal(err)
			}
			res, err := s.Search(ctx, graphrag.Query{Text: "how do I use errors.Is", Mode: graphrag.ModeKeyword, K: 3})
			if err != nil {
				t.Fatal(err)
			}
			found := len(res.Hits) > 0 && res.Hits[0].Chunk.Symbol == "errors.Is"
			if found != tc.found {
				for _, h := range res.Hits {
					t.Logf("%s %s %.3f", h.Source.Path, h.Chunk.Symbol, h.Score)
				}
				t.Errorf("errors.Is first: %v, want %v", found, tc.found)
			}
		})
	}
}

// TestProseSymbolEarnsNoBoost: the symbol of a prose chunk (the page a
// manual's description is about) is searched with its title but is no
// declaration: only code earns the symbol boost.
func TestProseSymbolEarnsNoBoost(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	text := "pg_ctl starts, stops or restarts the server and reports its status."
	recs := []graphrag.Record{
		{Doc: graphrag.Document{ID: "/man/pg_ctl.1", Path: "/man/pg_ctl.1", Title: "pg_ctl", Type: "man"},
			Chunks: []graphrag.Chunk{{Text: text, Symbol: "pg_ctl", Kind: "section"}}},
		{Doc: graphrag.Document{ID: "/src/pg_ctl.c", Path: "/src/pg_ctl.c", Title: "pg_ctl", Type: "c"},
			Chunks: []graphrag.Chunk{{Text: text, Symbol: "pg_ctl", Kind: "func"}}},
	}
	for i, w := range []string{"river", "market", "garden", "letter", "window", "forest"} {
		id := "/notes/" + w + ".txt"
		recs = append(recs, graphrag.Record{Doc: graphrag.Document{ID: id, Path: id, Title: w, Type: "txt"},
			Chunks: []graphrag.Chunk{{Text: strings.Repeat(w+" ", i+3) + "was written down here for later."}}})
	}
	if err := s.Put(ctx, recs...); err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(ctx, graphrag.Query{Text: "how does pg_ctl stop the server", Mode: graphrag.ModeKeyword})
	if err != nil || len(res.Hits) < 2 {
		t.Fatalf("hits %v err %v", res.Hits, err)
	}
	byKind := map[string]float64{}
	for _, h := range res.Hits {
		byKind[h.Chunk.Kind] = h.Score
	}
	if byKind["func"] <= byKind["section"]*1.2 {
		t.Errorf("scores func %.3f section %.3f: want the declaration boosted, the prose not", byKind["func"], byKind["section"])
	}
}

// TestIdentifierFoundByItsWords: a question in words ("the block size")
// finds the declaration whose name joins them (BlockSize), which the index
// holds as one word.
func TestIdentifierFoundByItsWords(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recs := []graphrag.Record{
		{Doc: graphrag.Document{ID: "/src/sha256/sha256.go", Path: "/src/sha256/sha256.go", Title: "sha256.go", Type: "go"},
			Chunks: []graphrag.Chunk{
				{Text: "// The blocksize of SHA256 and SHA224 in bytes.\nconst BlockSize = 64", Symbol: "sha256.BlockSize", Kind: "const"},
				{Text: "// The size of a SHA256 checksum in bytes.\nconst Size = 32", Symbol: "sha256.Size", Kind: "const", Ordinal: 1},
			}},
		{Doc: graphrag.Document{ID: "/notes/disk.txt", Path: "/notes/disk.txt", Title: "disk.txt", Type: "txt"},
			Chunks: []graphrag.Chunk{{Text: "The disk has a block size of 4096 bytes; every block holds a sector's size twice."}}},
	}
	for i, w := range []string{"river", "market", "garden", "letter", "window", "forest"} {
		id := "/notes/" + w + ".txt"
		recs = append(recs, graphrag.Record{Doc: graphrag.Document{ID: id, Path: id, Title: w, Type: "txt"},
			Chunks: []graphrag.Chunk{{Text: strings.Repeat(w+" ", i+3) + "was written down here for later."}}})
	}
	if err := s.Put(ctx, recs...); err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(ctx, graphrag.Query{Text: "what is the block size of sha256", Mode: graphrag.ModeKeyword})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("hits %v err %v", res.Hits, err)
	}
	if got := res.Hits[0].Chunk.Symbol; got != "sha256.BlockSize" {
		for _, h := range res.Hits {
			t.Logf("%s %s %.3f", h.Source.Path, h.Chunk.Symbol, h.Score)
		}
		t.Errorf("first hit %q, want sha256.BlockSize", got)
	}
}
