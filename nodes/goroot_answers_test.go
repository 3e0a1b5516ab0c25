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

// TestLongDocKeepsWhatIsAsked: a doc comment longer than a quote may be is
// cut to the lines around the one that answers, as many as the cap
// allows: "how does ParseInt pick the base when base is 0" keeps the
// paragraph on base 0 with the doc's first lines.
func TestLongDocKeepsWhatIsAsked(t *testing.T) {
	doc := "// ParseInt interprets a string s in the given base (0, 2 to 36) and\n" +
		"// bit size (0 to 64) and returns the corresponding value i.\n//\n" +
		"// The string may begin with a leading sign: \"+\" or \"-\".\n//\n" +
		"// If the base argument is 0, the true base is implied by the string's\n" +
		"// prefix following the sign (if present): 2 for \"0b\", 8 for \"0\" or \"0o\",\n" +
		"// 16 for \"0x\", and 10 otherwise. Also, for argument base 0 only,\n" +
		"// underscore characters are permitted as defined by the Go syntax for\n// [integer literals].\n//\n" +
		"// The bitSize argument specifies the integer type\n// that the result must fit into. Bit sizes 0, 8, 16, 32, and 64\n" +
		"// correspond to int, int8, int16, int32, and int64.\n// If bitSize is below 0 or above 64, an error is returned.\n//\n" +
		"// The errors that ParseInt returns have concrete type [*NumError]\n// and include err.Num = s. If s is empty or contains invalid\n" +
		"// digits, err.Err = [ErrSyntax] and the returned value is 0;\n" +
		"func ParseInt(s string, base int, bitSize int) (i int64, err error) {\n\tconst fnParseInt = \"ParseInt\"\n\treturn 0, nil\n}"
	a := declAnswer(t, "/go/src/strconv/number.go", "strconv.ParseInt", "func", doc, "how does strconv.ParseInt pick the base when base is 0")
	if !strings.Contains(a, "the true base is implied by the string's") || !strings.Contains(a, "// ParseInt interprets a string s") {
		t.Errorf("answer:\n%s\nwant the doc's first line and its paragraph on base 0", a)
	}
}
