package fstools

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// clock is the fixed "now" of the tests: Wednesday 18 November 2026, noon
// UTC, so "this week" starts Monday the 16th and "this month" the 1st.
var clock = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

type fixtureFile struct {
	rel  string
	size int
	age  time.Duration // modified this long before clock
}

// fixtureFiles are the regular files of the generated tree.
var fixtureFiles = []fixtureFile{
	{"docs/report.pdf", 2000, time.Hour},
	{"docs/old-report.pdf", 500, 40 * 24 * time.Hour},
	{"docs/notes.md", 100, 2 * 24 * time.Hour},
	{"docs/budget.xlsx", 3000, 10 * 24 * time.Hour},
	{"docs/archive/2025/summary.pdf", 700, 300 * 24 * time.Hour},
	{"photos/cat.jpg", 50_000, 3 * time.Hour},
	{"photos/dog.PNG", 20_000, 20 * 24 * time.Hour},
	{"photos/2025/beach.jpeg", 100_000, 400 * 24 * time.Hour},
	{"code/main.go", 300, 5 * time.Hour},
	{"code/util.py", 200, 30 * time.Minute},
	{"README", 50, 24 * time.Hour},
	{"empty.log", 0, 6 * 24 * time.Hour},
	// Hostile names.
	{"hostile/with space.txt", 11, 50 * time.Hour},
	{"hostile/ünïcödé 文件.txt", 12, 51 * time.Hour},
	{"hostile/new\nline.txt", 13, 52 * time.Hour},
	{"hostile/-leading-dash.txt", 14, 53 * time.Hour},
	{"hostile/quote\"d'.txt", 15, 54 * time.Hour},
	{"hostile/..dotdot.txt", 16, 55 * time.Hour},
	{"hostile/...", 17, 56 * time.Hour},
	{"hostile/..looks/inside.txt", 18, 57 * time.Hour},
	{"hostile/*glob?[x].txt", 19, 58 * time.Hour},
	// Hidden: skipped by default.
	{".hidden/secret.txt", 999, time.Hour},
	{".hiddenfile.txt", 999, time.Hour},
}

// fixture builds the tree under a temp dir and returns the ingested root
// and a sibling directory outside it. Links: a file link inside the root,
// a link leaving the root, a directory link, a loop and a broken link.
func fixture(t testing.TB) (rootDir, outside string) {
	t.Helper()
	base := t.TempDir()
	rootDir = filepath.Join(base, "data")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{rootDir, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range fixtureFiles {
		p := filepath.Join(rootDir, filepath.FromSlash(f.rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, f.size), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := clock.Add(-f.age)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"link-inside.pdf":     "docs/report.pdf",
		"link-outside.txt":    filepath.Join(outside, "secret.txt"),
		"escape":              "../outside",
		"dirlink":             "docs",
		"loop1":               "loop2",
		"loop2":               "loop1",
		"broken.txt":          "does-not-exist.txt",
		"hostile/up-link.txt": "../../outside/secret.txt",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(rootDir, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	return rootDir, outside
}

func newTools(t testing.TB, roots ...string) *Tools {
	t.Helper()
	tools, err := New(roots, Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	return tools
}
