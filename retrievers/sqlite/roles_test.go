package sqlite_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// TestRolesRankDefinitionsFirst: a test file that repeats a definition's
// words ranks below the definition.
func TestRolesRankDefinitionsFirst(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		ranking *sqlite.Ranking
		want    string
	}{
		{"default ranking", nil, "/src/reader.go"},
		{"roles off", func() *sqlite.Ranking { r := sqlite.DefaultRanking(); r.Roles = nil; return &r }(), "/src/reader_test.go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{Ranking: tc.ranking})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			recs := []graphrag.Record{
				{Doc: graphrag.Document{ID: "/src/reader.go", Path: "/src/reader.go", Title: "reader.go", Type: "go"},
					Chunks: []graphrag.Chunk{{Text: "// NewReader returns a new Reader reading from s. It is similar to\n// bytes.NewBufferString but more efficient and non-writable.\nfunc NewReader(s string) *Reader { return &Reader{s, 0, -1} }"}}},
				{Doc: graphrag.Document{ID: "/src/reader_test.go", Path: "/src/reader_test.go", Title: "reader.go", Type: "go",
					Metadata: map[string]string{ingest.RoleKey: ingest.RoleTest}},
					Chunks: []graphrag.Chunk{{Text: "func TestNewReader(t *testing.T) {\n\tr := NewReader(\"x\") // what NewReader returns\n\tif r == nil { t.Fatal(\"NewReader returns nil, want what NewReader does return\") }\n}"}}},
			}
			for i, w := range []string{"river", "market", "garden", "letter", "window", "forest"} {
				id := "/notes/" + w + ".txt"
				recs = append(recs, graphrag.Record{Doc: graphrag.Document{ID: id, Path: id, Title: w, Type: "txt"},
					Chunks: []graphrag.Chunk{{Text: strings.Repeat(w+" ", i+3) + "is written down here for later."}}})
			}
			if err := s.Put(ctx, recs...); err != nil {
				t.Fatal(err)
			}
			res, err := s.Search(ctx, graphrag.Query{Text: "what does NewReader return", Mode: graphrag.ModeKeyword})
			if err != nil || len(res.Hits) == 0 {
				t.Fatalf("hits %v err %v", res.Hits, err)
			}
			for _, h := range res.Hits {
				t.Logf("%s %.4f", h.Source.Path, h.Score)
			}
			if got := res.Hits[0].Source.Path; got != tc.want {
				t.Errorf("top = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestRoleWeightOnGoroot measures Ranking.Roles on a real tree: it ingests
// $(go env GOROOT)/src and reports, for questions about where
// standard-library names are defined (written before the weight was
// chosen), the reciprocal rank of the defining file with and without role
// weights. It takes a minute, so it runs only when asked:
//
//	GRAPHRAG_GOROOT_EVAL=1 go test ./retrievers/sqlite -run RoleWeightOnGoroot -v
func TestRoleWeightOnGoroot(t *testing.T) {
	if os.Getenv("GRAPHRAG_GOROOT_EVAL") == "" {
		t.Skip("set GRAPHRAG_GOROOT_EVAL=1 to ingest GOROOT/src and measure")
	}
	ctx := context.Background()
	src := filepath.Join(goroot(t), "src")
	path := filepath.Join(t.TempDir(), "goroot.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := ingest.New(s, ingest.Options{}).Run(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	t.Logf("ingested %d documents, %d chunks in %v", sum.Added, sum.Chunks, sum.Duration)
	questions := []struct{ q, gold string }{
		{"what does strings.NewReader return", "strings/reader.go"},
		{"what is the value of http.StatusTeapot", "net/http/status.go"},
		{"where is WithCancel defined", "context/context.go"},
		{"how does bytes.Buffer Grow work", "bytes/buffer.go"},
		{"what does json.Unmarshal do with unknown fields", "encoding/json/decode.go"},
		{"sort.Slice less function", "sort/slice.go"},
		{"filepath.WalkDir walk function", "path/filepath/path.go"},
		{"time.ParseDuration valid units", "time/format.go"},
		{"errors.Is unwrap chain", "errors/wrap.go"},
		{"sync.Once Do function", "sync/once.go"},
	}
	off := sqlite.DefaultRanking()
	off.Roles, off.Symbol = nil, 0
	noSymbol := sqlite.DefaultRanking()
	noSymbol.Symbol = 0
	for _, cfg := range []struct {
		name string
		r    *sqlite.Ranking
	}{{"roles, symbols off", &off}, {"roles on, symbols off", &noSymbol}, {"default", nil}} {
		st, err := sqlite.Open(ctx, path, sqlite.Options{Ranking: cfg.r})
		if err != nil {
			t.Fatal(err)
		}
		var mrr float64
		for _, q := range questions {
			res, err := st.Search(ctx, graphrag.Query{Text: q.q, Mode: graphrag.ModeKeyword, K: 10})
			if err != nil {
				t.Fatal(err)
			}
			rank := 0
			for i, h := range res.Hits {
				if strings.HasSuffix(h.Source.Path, "/src/"+q.gold) {
					rank = i + 1
					break
				}
			}
			if rank > 0 {
				mrr += 1 / float64(rank)
			}
			top := ""
			if len(res.Hits) > 0 {
				top = strings.TrimPrefix(res.Hits[0].Source.Path, src+"/")
			}
			t.Logf("%-20s %-48q rank %2d  top %s", cfg.name, q.q, rank, top)
		}
		t.Logf("%s: MRR@10 of the defining file %.3f", cfg.name, mrr/float64(len(questions)))
		st.Close()
	}
}

// goroot is $(go env GOROOT).
func goroot(tb testing.TB) string {
	tb.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Skipf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestSymbolRanksDeclarationFirst: the chunk declaring the name a query
// writes ("sync.Once") ranks above code that uses it more often.
func TestSymbolRanksDeclarationFirst(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		ranking *sqlite.Ranking
		want    string
	}{
		{"default ranking", nil, "/src/sync/once.go"},
		{"symbol boost off", func() *sqlite.Ranking { r := sqlite.DefaultRanking(); r.Symbol = 0; return &r }(), "/src/io/pipe.go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{Ranking: tc.ranking})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			recs := []graphrag.Record{
				{Doc: graphrag.Document{ID: "/src/sync/once.go", Path: "/src/sync/once.go", Title: "once.go", Type: "go"},
					Chunks: []graphrag.Chunk{{Symbol: "sync.Once", Kind: "type", Text: "// Once is an object that will perform exactly one action.\n//\n// A Once must not be copied after first use.\n//\n// In the terminology of the Go memory model, the return from f\n// synchronizes before the return from any call of once.Do(f).\ntype Once struct {\n\t_ noCopy\n\tdone atomic.Bool\n\tm    Mutex\n}"}}},
				{Doc: graphrag.Document{ID: "/src/io/pipe.go", Path: "/src/io/pipe.go", Title: "pipe.go", Type: "go"},
					Chunks: []graphrag.Chunk{{Symbol: "io.pipe", Kind: "type", Text: "type pipe struct {\n\tonce sync.Once // Protects closing done\n\tdone chan struct{}\n}\nvar o sync.Once"}}},
			}
			if err := s.Put(ctx, recs...); err != nil {
				t.Fatal(err)
			}
			res, err := s.Search(ctx, graphrag.Query{Text: "what is sync.Once for", Mode: graphrag.ModeKeyword, K: 2})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) == 0 || res.Hits[0].Chunk.DocID != tc.want {
				var got []string
				for _, h := range res.Hits {
					got = append(got, h.Chunk.DocID)
				}
				t.Errorf("hits %v, want %s first", got, tc.want)
			}
		})
	}
}

// TestEqualScoresInPathOrder: two copies of one file (a package's notice
// shipped again by its -dev package) score the same; they come back in
// the order of their paths, whichever ingest wrote first, as the
// PostgreSQL store returns them.
func TestEqualScoresInPathOrder(t *testing.T) {
	ctx := context.Background()
	notice := "Files: *\nCopyright: 1999 Ann Zorp and Bo Frob\nLicense: Zlib"
	rec := func(pkg string) graphrag.Record {
		id := "/doc/" + pkg + "/copyright"
		return graphrag.Record{Doc: graphrag.Document{ID: id, Path: id, Title: "copyright", Type: "txt"}, Chunks: []graphrag.Chunk{{Text: notice}}}
	}
	for _, order := range [][]string{{"libzorp1", "libzorp-dev"}, {"libzorp-dev", "libzorp1"}} {
		s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, pkg := range order {
			if err := s.Put(ctx, rec(pkg)); err != nil {
				t.Fatal(err)
			}
		}
		res, err := s.Search(ctx, graphrag.Query{Text: "who holds the copyright on zorp", Mode: graphrag.ModeKeyword})
		s.Close()
		if err != nil || len(res.Hits) != 2 {
			t.Fatalf("hits %v err %v", res.Hits, err)
		}
		if res.Hits[0].Score != res.Hits[1].Score || res.Hits[0].Source.Path != "/doc/libzorp-dev/copyright" {
			t.Errorf("ingested %v: got %s (%.4f) first, %.4f second; want equal scores in path order", order, res.Hits[0].Source.Path, res.Hits[0].Score, res.Hits[1].Score)
		}
	}
}
