package nodes

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// TestGoDeclarationsAnswer runs the examples of issue 10 over a small tree
// cut from Go's own source (testdata/goroot: the defining files, with the
// code that uses the same names beside them: fmt's mustReadRune for
// io.EOF, os.IsPermission for errors.Is, a method Is that returns
// os.ErrNotExist, sort's IntSlice.Search), and a constant asked for in
// words, ingested and searched as graphrag run does, with no model. The answer starts with the
// declaration asked about and its doc comment.
func TestGoDeclarationsAnswer(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "goroot.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ingest.New(st, ingest.Options{}).Run(ctx, filepath.Join("testdata", "goroot")); err != nil {
		t.Fatal(err)
	}
	g, err := Build(Deps{Searcher: st}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q, file, symbol string
		want, not       []string
	}{
		{"what is io.EOF", "io/io.go", "io.EOF",
			[]string{"// EOF is the error returned by Read when no more input is available.", `var EOF = errors.New("EOF")`}, []string{"mustReadRune"}},
		{"what does context.WithCancel return", "context/context.go", "context.WithCancel",
			[]string{"// WithCancel returns a derived context", "func WithCancel(parent Context) (ctx Context, cancel CancelFunc)"}, []string{"TestWithCancel"}},
		{"how do I use errors.Is", "errors/wrap.go", "errors.Is",
			[]string{"// Is reports whether any error in err's tree matches target."}, []string{"IsPermission", "ErrorList"}},
		{"os.ErrNotExist", "os/error.go", "os.ErrNotExist",
			[]string{"// Portable analogs of some common system call errors.", "ErrNotExist   = fs.ErrNotExist   // \"file does not exist\""}, []string{"vcsNotFoundError"}},
		{"how does sync.WaitGroup work", "sync/waitgroup.go", "sync.WaitGroup",
			[]string{"// A WaitGroup is a counting semaphore"}, []string{"WaitGroup is reused before previous Wait has returned"}},
		{"what does sort.Search return", "sort/search.go", "sort.Search",
			[]string{"smallest index i"}, []string{"IntSlice", "StringSlice"}},
		// A name in words: "block size" is BlockSize; the package the
		// question names is where, not what, it asks.
		{"what is the block size of SHA-256 in crypto/sha256", "crypto/sha256/sha256.go", "sha256.BlockSize",
			[]string{"const BlockSize = 64"}, []string{"package sha256"}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			s, err := g.Invoke(ctx, State{Query: tc.q})
			if err != nil {
				t.Fatal(err)
			}
			a := s.Answer
			if a.Abstained || len(a.Citations) == 0 {
				t.Fatalf("abstained or cited nothing: %q (%s)", a.Text, s.Measured)
			}
			first := a.Citations[0].Hit
			if !strings.HasSuffix(first.Source.Path, "/"+tc.file) || first.Chunk.Symbol != tc.symbol {
				t.Errorf("first citation %s (%s), want %s (%s)", first.Source.Path, first.Chunk.Symbol, tc.file, tc.symbol)
			}
			for _, w := range tc.want {
				if !strings.Contains(a.Text, w) {
					t.Errorf("answer lacks %q:\n%s", w, a.Text)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(a.Text, n) {
					t.Errorf("answer quotes %q, code that only uses the name:\n%s", n, a.Text)
				}
			}
		})
	}
}
