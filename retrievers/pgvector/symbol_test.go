package pgvector

import (
	"context"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestSymbolBoostRanksDeclarationFirst: with the symbol boost (as the
// SQLite store has it), the chunk declaring sync.Once ranks above notes
// titled with its words; without it, below them.
func TestSymbolBoostRanksDeclarationFirst(t *testing.T) {
	for _, tc := range []struct {
		name  string
		boost float64
		want  string
	}{
		{"default", 0, "once"},
		{"off", -1, "notes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := openTestStore(t, Options{SymbolBoost: tc.boost})
			ctx := context.Background()
			once := rec("once", "once.go", "Once is an object that will perform exactly one action.")
			once.Chunks[0].Symbol, once.Chunks[0].Kind = "sync.Once", "type"
			notes := rec("notes", "Notes on sync Once", "A sync Once runs its function once, and only once.")
			if err := st.Put(ctx, once, notes); err != nil {
				t.Fatal(err)
			}
			res, err := st.Search(ctx, graphrag.Query{Text: "what is sync.Once for", Mode: graphrag.ModeKeyword})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) < 2 || res.Hits[0].Chunk.DocID != tc.want {
				var got []string
				for _, h := range res.Hits {
					got = append(got, h.Chunk.DocID)
				}
				t.Errorf("hits %v, want %s first", got, tc.want)
			}
		})
	}
}

// TestSymbolBoostFindsBlockEntries: a const block's chunk is named by its
// first entry (time.ANSIC); the query's RFC3339, declared further down the
// block, still counts as declared there. (The boost is set high enough to
// decide this fixture: what is tested is that the entry is found.)
func TestSymbolBoostFindsBlockEntries(t *testing.T) {
	for _, tc := range []struct {
		name  string
		boost float64
		want  string
	}{
		{"on", 2, "format"},
		{"off", -1, "notes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := openTestStore(t, Options{SymbolBoost: tc.boost})
			ctx := context.Background()
			format := rec("format", "format.go", "\tANSIC       = \"Mon Jan _2 15:04:05 2006\"\n\tRFC822      = \"02 Jan 06 15:04 MST\"\n\tRFC3339     = \"2006-01-02T15:04:05Z07:00\"\n\tKitchen     = \"3:04PM\"")
			format.Chunks[0].Symbol, format.Chunks[0].Kind = "time.ANSIC", "const"
			notes := rec("notes", "Notes", "Times are written in the RFC3339 layout.")
			if err := st.Put(ctx, format, notes); err != nil {
				t.Fatal(err)
			}
			res, err := st.Search(ctx, graphrag.Query{Text: "what is the RFC3339 layout in the time package", Mode: graphrag.ModeKeyword})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) < 2 || res.Hits[0].Chunk.DocID != tc.want {
				var got []string
				for _, h := range res.Hits {
					got = append(got, h.Chunk.DocID)
				}
				t.Errorf("hits %v, want %s first", got, tc.want)
			}
		})
	}
}
