package fstools

import (
	"context"
	"errors"
	"fmt"
	"github.com/graphrag/graphrag/internal/unprivileged"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
)

func TestNew(t *testing.T) {
	root, _ := fixture(t)
	tests := []struct {
		name    string
		roots   []string
		wantErr error
		want    []string
	}{
		{name: "no roots", roots: nil, wantErr: ErrNoRoots},
		{name: "blank roots", roots: []string{"", "  "}, wantErr: ErrNoRoots},
		{name: "missing root", roots: []string{filepath.Join(root, "nope")}, wantErr: os.ErrNotExist},
		{name: "nested roots merge", roots: []string{filepath.Join(root, "docs"), root}, want: []string{root}},
		{name: "unclean root", roots: []string{root + "/./docs/../photos/"}, want: []string{filepath.Join(root, "photos")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tools, err := New(tc.roots, Options{})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if tc.want == nil {
				if err == nil {
					t.Fatalf("New(%v) = nil error, want one", tc.roots)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tools.Roots(); len(got) != len(tc.want) || got[0] != tc.want[0] {
				t.Fatalf("Roots() = %v, want %v", got, tc.want)
			}
		})
	}
}

// A file given as a root is all the tools see of its directory: ingesting
// one file must not let them list its neighbours or anything below.
func TestFileRootShowsThatFileAlone(t *testing.T) {
	root, _ := fixture(t)
	readme, notes := filepath.Join(root, "README"), filepath.Join(root, "docs", "notes.md")
	tools, err := New([]string{readme, notes, filepath.Join(root, "code")}, Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	res, err := tools.List(context.Background(), ListRequest{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Path)
	}
	sort.Strings(got)
	want := []string{filepath.Join(root, "README"), filepath.Join(root, "code", "main.go"), filepath.Join(root, "code", "util.py"), notes}
	sort.Strings(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("listed %q\nwant %q", got, want)
	}
	for _, p := range []string{"empty.log", filepath.Join(root, "docs", "report.pdf"), "photos/cat.jpg", filepath.Join(root, "photos")} {
		if _, err := tools.Resolve(p); !errors.Is(err, ErrOutsideRoots) && !errors.Is(err, graphrag.ErrNotFound) {
			t.Errorf("Resolve(%q) = %v, want it refused", p, err)
		}
	}
	for _, p := range []string{readme, "README", notes, "main.go"} {
		if _, err := tools.Resolve(p); err != nil {
			t.Errorf("Resolve(%q): %v", p, err)
		}
	}
	tree, err := tools.Tree(context.Background(), TreeRequest{Depth: 5})
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, n := range tree.Trees {
		files += n.Files
	}
	if files != 4 {
		t.Errorf("the trees count %d files, want 4", files)
	}
	// A whole directory given too replaces the single files in it.
	whole, err := New([]string{notes, filepath.Join(root, "docs")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := whole.Roots(); len(r) != 1 || r[0] != filepath.Join(root, "docs") {
		t.Errorf("Roots() = %q", r)
	}
}

func TestResolve(t *testing.T) {
	root, outside := fixture(t)
	tools := newTools(t, root)
	tests := []struct {
		name    string
		path    string
		want    string // relative to root; "" when an error is expected
		wantErr error
	}{
		{name: "relative file", path: "docs/report.pdf", want: "docs/report.pdf"},
		{name: "absolute inside", path: filepath.Join(root, "docs", "notes.md"), want: "docs/notes.md"},
		{name: "link inside roots", path: "link-inside.pdf", want: "link-inside.pdf"},
		{name: "directory", path: "photos", want: "photos"},
		{name: "dot dot", path: "../outside/secret.txt", wantErr: ErrOutsideRoots},
		{name: "dot dot that stays inside is still refused", path: "docs/../docs/report.pdf", wantErr: ErrOutsideRoots},
		{name: "absolute outside", path: filepath.Join(outside, "secret.txt"), wantErr: ErrOutsideRoots},
		{name: "system file", path: "/etc/passwd", wantErr: ErrOutsideRoots},
		{name: "root's parent", path: filepath.Dir(root), wantErr: ErrOutsideRoots},
		{name: "link to a file outside", path: "link-outside.txt", wantErr: ErrOutsideRoots},
		{name: "link to a directory outside", path: "escape/secret.txt", wantErr: ErrOutsideRoots},
		{name: "relative link climbing out", path: "hostile/up-link.txt", wantErr: ErrOutsideRoots},
		{name: "missing", path: "docs/missing.pdf", wantErr: graphrag.ErrNotFound},
		{name: "broken link", path: "broken.txt", wantErr: graphrag.ErrNotFound},
		{name: "empty", path: "", wantErr: graphrag.ErrInvalidQuery},
		{name: "dot-dot look-alike file", path: "hostile/..dotdot.txt", want: "hostile/..dotdot.txt"},
		{name: "three dots", path: "hostile/...", want: "hostile/..."},
		{name: "dot-dot look-alike dir", path: "hostile/..looks/inside.txt", want: "hostile/..looks/inside.txt"},
		{name: "newline in name", path: "hostile/new\nline.txt", want: "hostile/new\nline.txt"},
		{name: "leading dash", path: "hostile/-leading-dash.txt", want: "hostile/-leading-dash.txt"},
		{name: "quotes", path: "hostile/quote\"d'.txt", want: "hostile/quote\"d'.txt"},
		{name: "unicode and space", path: "hostile/ünïcödé 文件.txt", want: "hostile/ünïcödé 文件.txt"},
		{name: "glob characters", path: "hostile/*glob?[x].txt", want: "hostile/*glob?[x].txt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tools.Resolve(tc.path)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Resolve(%q) err = %v, want %v", tc.path, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tc.path, err)
			}
			if want := filepath.Join(root, filepath.FromSlash(tc.want)); got != want {
				t.Fatalf("Resolve(%q) = %q, want %q", tc.path, got, want)
			}
		})
	}
	t.Run("symlink loop is an error, not a hang", func(t *testing.T) {
		_, err := tools.Resolve("loop1")
		if err == nil || errors.Is(err, ErrOutsideRoots) {
			t.Fatalf("Resolve(loop1) err = %v, want a loop error", err)
		}
	})
	t.Run("refusal says what to do", func(t *testing.T) {
		_, err := tools.Resolve("/etc/passwd")
		if err == nil || !contains(err.Error(), root) {
			t.Fatalf("error %v should name the readable roots", err)
		}
	})
}

func TestWalkSkipsAndBounds(t *testing.T) {
	root, _ := fixture(t)
	ctx := context.Background()
	t.Run("links leaving the roots, loops and broken links are skipped and reported", func(t *testing.T) {
		res, err := newTools(t, root).Count(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		reasons := map[string]string{}
		for _, s := range res.Skipped {
			rel, _ := filepath.Rel(root, s.Path)
			reasons[filepath.ToSlash(rel)] = s.Reason
		}
		for _, name := range []string{"link-outside.txt", "escape", "hostile/up-link.txt", "loop1", "loop2", "broken.txt"} {
			if _, ok := reasons[name]; !ok {
				t.Errorf("%s not reported as skipped; skipped: %v", name, reasons)
			}
		}
		if res.SkippedCount != 6 {
			t.Errorf("SkippedCount = %d, want 6", res.SkippedCount)
		}
		if r := reasons["link-outside.txt"]; !contains(r, "leaves") {
			t.Errorf("reason for link-outside.txt = %q", r)
		}
	})
	t.Run("hidden entries are skipped unless asked for", func(t *testing.T) {
		res, err := newTools(t, root).Count(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Files != 19 {
			t.Errorf("visible files = %d, want 19", res.Files)
		}
		all, err := New([]string{root}, Options{IncludeHidden: true})
		if err != nil {
			t.Fatal(err)
		}
		res, err = all.Count(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Files != 24 {
			t.Errorf("files with hidden = %d, want 24", res.Files)
		}
	})
	t.Run("max files truncates", func(t *testing.T) {
		small, err := New([]string{root}, Options{MaxFiles: 5})
		if err != nil {
			t.Fatal(err)
		}
		res, err := small.Count(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Truncated || res.Visited != 5 || res.Files > 5 {
			t.Fatalf("got %+v, want truncated after 5 entries", res.Walk)
		}
		text, _, err := small.Answer(ctx, graphrag.Plan{Query: "how many files"})
		if err != nil || !contains(text, "lower bounds") {
			t.Fatalf("answer %q (err %v) should say it stopped early", text, err)
		}
	})
	t.Run("cancelled context stops the walk", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := newTools(t, root).Count(cctx, Filter{})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
	t.Run("unreadable directory is skipped", func(t *testing.T) {
		if unprivileged.Rerun(t) {
			return
		}
		locked := filepath.Join(root, "locked")
		if err := os.MkdirAll(filepath.Join(locked, "inner"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(locked, "inner", "x.txt"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(locked, 0o755) })
		res, err := newTools(t, root).Count(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, s := range res.Skipped {
			if s.Path == locked && s.Reason == "permission denied" {
				found = true
			}
		}
		if !found || res.Files != 19 {
			t.Fatalf("skipped %v, files %d: want locked reported and 19 files", res.Skipped, res.Files)
		}
	})
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
