package ingest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/graphrag/graphrag"
)

// memStore keeps what ingest writes, for tests that look at chunks.
type memStore struct {
	mu   sync.Mutex
	recs map[string]graphrag.Record
}

func (m *memStore) Put(_ context.Context, recs ...graphrag.Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recs == nil {
		m.recs = map[string]graphrag.Record{}
	}
	for _, r := range recs {
		m.recs[r.Doc.ID] = r
	}
	return nil
}

func (m *memStore) Delete(_ context.Context, ids ...string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		delete(m.recs, id)
	}
	return nil
}

func (m *memStore) Manifest(context.Context) ([]graphrag.DocState, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []graphrag.DocState
	for _, r := range m.recs {
		out = append(out, graphrag.DocState{ID: r.Doc.ID, Path: r.Doc.Path, Hash: r.Doc.Hash})
	}
	return out, nil
}

// byBase returns the stored record of the file with this base name.
func (m *memStore) byBase(t *testing.T, base string) graphrag.Record {
	t.Helper()
	for _, r := range m.recs {
		if filepath.Base(r.Doc.Path) == base {
			return r
		}
	}
	var have []string
	for _, r := range m.recs {
		have = append(have, filepath.Base(r.Doc.Path))
	}
	sort.Strings(have)
	t.Fatalf("%s not stored; have %v", base, have)
	return graphrag.Record{}
}

func ingestDir(t *testing.T, dir string, opts Options) (*memStore, Summary) {
	t.Helper()
	st := &memStore{}
	sum, err := New(st, opts).Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return st, sum
}

// symbols maps each symbol of a record's chunks to its first chunk; when
// two chunks name one symbol (Rust's struct Queue and impl Queue), the
// one that is not an impl. A build constraint declares nothing.
func symbols(r graphrag.Record) map[string]graphrag.Chunk {
	out := map[string]graphrag.Chunk{}
	for _, c := range r.Chunks {
		if c.Kind == KindBuild {
			continue
		}
		if prev, ok := out[c.Symbol]; c.Symbol != "" && (!ok || prev.Kind == "impl") {
			out[c.Symbol] = c
		}
	}
	return out
}

// TestGoDeclarations: Go source is cut into one chunk per declaration with
// its doc comment, newlines kept, named pkg.Name (pkg.Type.Method), with its
// kind and lines; the licence header and imports are not in any chunk, the
// build constraint is a chunk of its own; a test file is marked as such.
func TestGoDeclarations(t *testing.T) {
	st, _ := ingestDir(t, "testdata/code", Options{})
	r := st.byBase(t, "reader.go")
	syms := symbols(r)
	tests := []struct {
		symbol, kind, heading string
		start, end            int
		contains              string
	}{
		{"strs", KindPackage, "package strs", 7, 8, "// Package strs holds a small string reader"},
		{"strs.ErrNegative", "var", "var ErrNegative", 15, 16, `errors.New("strs: negative position")`},
		{"strs.CodeContinue", "const", "const (CodeContinue … CodeTeapot)", 18, 23, "CodeTeapot   = 418 // RFC 9110, 15.5.19"},
		{"strs.Reader", "type", "type Reader struct", 25, 29, "\ts string\n\ti int64"},
		{"strs.NewReader", "func", "func NewReader(s string) *Reader", 31, 35, "// NewReader returns a new Reader reading from s.\n// It is like"},
		{"strs.Reader.Len", "method", "func (r *Reader) Len() int", 37, 43, "return int(int64(len(r.s)) - r.i)"},
		{"strs.Reader.Read", "method", "func (r *Reader) Read(b []byte) (n int, err error)", 45, 53, "n = copy(b, r.s[r.i:])"},
	}
	for _, tc := range tests {
		t.Run(tc.symbol, func(t *testing.T) {
			c, ok := syms[tc.symbol]
			if !ok {
				t.Fatalf("no chunk for %s; have %v", tc.symbol, keys(syms))
			}
			if c.Kind != tc.kind || c.Heading != tc.heading || c.StartLine != tc.start || c.EndLine != tc.end {
				t.Errorf("kind %q heading %q lines %d-%d, want %q %q %d-%d", c.Kind, c.Heading, c.StartLine, c.EndLine, tc.kind, tc.heading, tc.start, tc.end)
			}
			if !strings.Contains(c.Text, tc.contains) {
				t.Errorf("text %q does not hold %q", c.Text, tc.contains)
			}
		})
	}
	if len(r.Chunks) != len(tests)+1 {
		t.Errorf("%d chunks, want one per declaration (%d) and the build constraint", len(r.Chunks), len(tests))
	}
	build := slices.IndexFunc(r.Chunks, func(c graphrag.Chunk) bool { return c.Kind == KindBuild })
	if build < 0 {
		t.Fatal("no chunk for the build constraint")
	}
	if c := r.Chunks[build]; c.Text != "//go:build !plan9" || c.Heading != "build constraint" || c.StartLine != 5 || c.EndLine != 5 {
		t.Errorf("build constraint chunk %q heading %q lines %d-%d, want the //go:build line alone, line 5", c.Text, c.Heading, c.StartLine, c.EndLine)
	}
	for i, c := range r.Chunks {
		for _, bad := range []string{"Copyright", "made-up licence", "go:build", `"io"`} {
			if strings.Contains(c.Text, bad) && (i != build || bad != "go:build") {
				t.Errorf("chunk %s holds %q: licence header, build line or imports are searched", c.Symbol, bad)
			}
		}
	}
	if role := r.Doc.Metadata[RoleKey]; role != "" {
		t.Errorf("reader.go role = %q, want none", role)
	}
	if role := st.byBase(t, "reader_test.go").Doc.Metadata[RoleKey]; role != RoleTest {
		t.Errorf("reader_test.go role = %q, want %q", role, RoleTest)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestGoLargeDeclarations: a declaration longer than a chunk is cut into
// several, each with the declaration as its heading; a long const group is
// cut between its specs, each part named by its first one.
func TestGoLargeDeclarations(t *testing.T) {
	var b strings.Builder
	b.WriteString("package big\n\n// Codes are many.\nconst (\n")
	for i := 0; i < 120; i++ {
		b.WriteString("\t// Code" + strings.Repeat("x", i%7) + " is documented.\n\tCode" + itoa(i) + " = " + itoa(i) + "\n")
	}
	b.WriteString(")\n\n// Long does a lot.\nfunc Long() {\n")
	for i := 0; i < 200; i++ {
		b.WriteString("\tstep(" + itoa(i) + ")\n")
		if i%20 == 19 {
			b.WriteString("\n")
		}
	}
	b.WriteString("}\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := ingestDir(t, dir, Options{ChunkSize: 600})
	r := st.byBase(t, "big.go")
	var consts, longs []graphrag.Chunk
	for _, c := range r.Chunks {
		if len([]rune(c.Text)) > 600 {
			t.Errorf("chunk %d has %d runes, over the size", c.Ordinal, len([]rune(c.Text)))
		}
		switch c.Kind {
		case "const":
			consts = append(consts, c)
		case "func":
			longs = append(longs, c)
		}
	}
	if len(consts) < 3 || len(longs) < 3 {
		t.Fatalf("%d const and %d func chunks, want both cut in several", len(consts), len(longs))
	}
	for i, c := range consts {
		if c.Heading != "const (Code0 … Code119)" {
			t.Errorf("const part %d heading %q", i, c.Heading)
		}
		first := regexp.MustCompile(`(?m)^\t(Code\d+) = `).FindStringSubmatch(c.Text)
		if first == nil {
			t.Fatalf("const part %d holds no spec: %q", i, c.Text)
		}
		if want := "big." + first[1]; c.Symbol != want {
			t.Errorf("const part %d symbol %q, want %q (its first spec)", i, c.Symbol, want)
		}
		if i > 0 && c.StartLine != consts[i-1].EndLine+1 {
			t.Errorf("const part %d starts at line %d, previous ended at %d", i, c.StartLine, consts[i-1].EndLine)
		}
	}
	for i, c := range longs {
		if c.Heading != "func Long()" || c.Symbol != "big.Long" {
			t.Errorf("func part %d heading %q symbol %q", i, c.Heading, c.Symbol)
		}
		if !strings.Contains(c.Text, "\n\tstep(") {
			t.Errorf("func part %d lost its newlines or indentation: %q", i, c.Text[:min(60, len(c.Text))])
		}
	}
	if !strings.HasPrefix(longs[0].Text, "// Long does a lot.\nfunc Long() {") {
		t.Errorf("first part of Long does not start with its doc comment: %q", longs[0].Text[:40])
	}
}

func itoa(i int) string {
	return strings.TrimLeft(string([]byte{byte('0' + i/100), byte('0' + i/10%10), byte('0' + i%10)}), "0") + map[bool]string{true: "0"}[i == 0]
}

// TestOtherLanguages: the light heuristic finds the top-level definitions
// of Python, TypeScript, C, Rust, Java and shell, with the comments above
// them, and drops licence headers.
func TestOtherLanguages(t *testing.T) {
	st, _ := ingestDir(t, "testdata/code", Options{})
	tests := []struct {
		file   string
		want   map[string]string // symbol -> kind
		holds  map[string]string // symbol -> text it holds
		absent string            // text no chunk holds
	}{
		{"tools.py", map[string]string{"tools.count_marmots": "func", "tools.Burrow": "class"},
			map[string]string{"tools.count_marmots": "@cached\ndef count_marmots(field):\n    \"\"\"Return"}, "Licensed under"},
		{"shapes.ts", map[string]string{"shapes.circleArea": "func", "shapes.Shape": "interface", "shapes.UNIT": "const"},
			map[string]string{"shapes.circleArea": "/** Area of a circle. */\nexport function"}, ""},
		{"list.c", map[string]string{"LIST_MAX": "macro", "node": "struct", "list_push": "func"},
			map[string]string{"list_push": "/* list_push adds v at the front. */\nstatic struct node *\nlist_push("}, "SPDX"},
		{"lib.rs", map[string]string{"lib.Queue": "struct", "lib.new_queue": "func"},
			map[string]string{"lib.Queue": "/// A first-in first-out queue.\n#[derive(Debug)]\npub struct Queue"}, ""},
		{"Stack.java", map[string]string{"Stack": "class", "Stack.push": "method", "Stack.pop": "method"},
			map[string]string{"Stack.push": "/** Pushes v on top. */\n    public void push(int v) {"}, ""},
		{"deploy.sh", map[string]string{"build_site": "func", "upload": "func"}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			r := st.byBase(t, tc.file)
			syms := symbols(r)
			for sym, kind := range tc.want {
				c, ok := syms[sym]
				if !ok {
					t.Errorf("no chunk for %s; have %v", sym, keys(syms))
					continue
				}
				if c.Kind != kind || c.StartLine == 0 || c.EndLine < c.StartLine || c.Heading == "" {
					t.Errorf("%s: kind %q lines %d-%d heading %q, want kind %q and a place", sym, c.Kind, c.StartLine, c.EndLine, c.Heading, kind)
				}
			}
			for sym, text := range tc.holds {
				if c := syms[sym]; !strings.Contains(c.Text, text) {
					t.Errorf("%s: text %q does not hold %q", sym, c.Text, text)
				}
			}
			if tc.absent != "" {
				for _, c := range r.Chunks {
					if strings.Contains(c.Text, tc.absent) {
						t.Errorf("chunk %q holds the licence header", c.Text)
					}
				}
			}
		})
	}
}
