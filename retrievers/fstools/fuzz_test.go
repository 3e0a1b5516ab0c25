package fstools

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// FuzzResolve checks the sandbox: whatever the path, Resolve either refuses
// it or returns a path whose real location is inside the root.
func FuzzResolve(f *testing.F) {
	root, _ := fixture(f)
	tools := newTools(f, root)
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"docs/report.pdf", "../outside/secret.txt", "/etc/passwd", "link-outside.txt", "escape/secret.txt",
		"hostile/..dotdot.txt", "hostile/...", "docs/./../docs", "./docs//report.pdf", "loop1", "dirlink/report.pdf", "hostile/up-link.txt",
		root + "/docs", root + "/../outside", "..", ".", "", "\x00", "docs/\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		p, err := tools.Resolve(name)
		if err != nil {
			return
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatalf("Resolve(%q) = %q, which does not resolve: %v", name, p, err)
		}
		if !within(realRoot, real) {
			t.Fatalf("Resolve(%q) = %q escapes the root (real path %q)", name, p, real)
		}
	})
}

// FuzzInterpret checks that any question gets a tool and runs without
// failing except with the documented errors.
func FuzzInterpret(f *testing.F) {
	root, _ := fixture(f)
	tools := newTools(f, root)
	for _, s := range []string{"how many pdfs", "show the tree of ../outside folder", "files bigger than 1.5 gb", "when was \"a b.txt\" made",
		"find *[ files", "top 0 newest", "last 99999999999 days", "between 5 and 2 kb", "named", "starting with", "`", "\"\"", "files ending with .",
		"Find all *.c files on the system and feed the output to wc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		in := tools.Interpret(graphrag.Plan{Query: q})
		if in.Tool == "" || in.Reason == "" {
			t.Fatalf("%q: no tool", q)
		}
		_, hits, err := tools.Run(context.Background(), in)
		if err != nil && !errors.Is(err, ErrOutsideRoots) && !errors.Is(err, graphrag.ErrNotFound) && !errors.Is(err, graphrag.ErrInvalidQuery) {
			t.Fatalf("%q: %+v: %v", q, in, err)
		}
		for _, h := range hits {
			if !strings.HasPrefix(h.Source.Path, root) {
				t.Fatalf("%q: hit %q outside the root", q, h.Source.Path)
			}
		}
	})
}
