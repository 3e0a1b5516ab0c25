package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to write from the watch goroutine while
// the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// eventually polls cond until it holds or a generous deadline passes: the
// watcher's speed is not what is tested, only that the store follows.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestWatchFollowsEditsRenamesAndDeletes(t *testing.T) {
	c := newCLI(t)
	notes := t.TempDir()
	writeTree(t, notes, map[string]string{
		"kayak.md":       "# Kayak\n\nThe kayak trip starts at the pier at dawn.\n",
		"sub/walrus.md":  "# Walrus\n\nThe walrus sleeps on the ice floe.\n",
		"sub/quokka.txt": "The quokka lives on Rottnest Island.\n",
	})
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	done := make(chan int)
	go func() {
		done <- Run(ctx, []string{"watch", "--debounce", "50ms", notes}, stdio{in: strings.NewReader(""), out: &out, err: &errb}, func(k string) string { return c.env[k] })
	}()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("watch exited %d after Ctrl-C:\n%s", code, errb.String())
		}
	}()
	eventually(t, "watch is ready", func() bool { return strings.Contains(errb.String(), "watching") })
	found := func(q, base string) func() bool {
		return func() bool {
			return slices.ContainsFunc(searchPaths(t, c, q), func(p string) bool { return filepath.Base(p) == base })
		}
	}
	lost := func(q string) func() bool {
		return func() bool { return len(searchPaths(t, c, q)) == 0 }
	}
	if !found("kayak", "kayak.md")() {
		t.Fatal("the first ingest did not happen")
	}

	// An edit, saved the way editors do: written to a temporary file, then
	// renamed over the old one.
	tmp := filepath.Join(notes, ".kayak.md.swp")
	if err := os.WriteFile(tmp, []byte("# Kayak\n\nThe kayak trip starts at the lighthouse at noon.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(notes, "kayak.md")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the edit is searchable", found("lighthouse", "kayak.md"))
	eventually(t, "the old text is gone", lost("pier"))

	// A new file in a new folder.
	writeTree(t, notes, map[string]string{"new/dir/osprey.md": "# Osprey\n\nThe osprey dives for fish.\n"})
	eventually(t, "a file in a new folder is searchable", found("osprey", "osprey.md"))

	// A rename.
	if err := os.Rename(filepath.Join(notes, "sub", "walrus.md"), filepath.Join(notes, "sub", "seal.md")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the renamed file is found under its new name", found("walrus", "seal.md"))
	eventually(t, "the old name is gone", func() bool { return !found("walrus", "walrus.md")() })

	// A renamed folder: its files move with it, and later edits inside it
	// are followed under the new name.
	if err := os.Rename(filepath.Join(notes, "new"), filepath.Join(notes, "moved")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the moved folder's file is found under the new path", func() bool {
		return slices.ContainsFunc(searchPaths(t, c, "osprey"), func(p string) bool { return strings.Contains(p, "moved") })
	})
	eventually(t, "the old folder's path is gone", func() bool {
		return !slices.ContainsFunc(searchPaths(t, c, "osprey"), func(p string) bool {
			return strings.Contains(p, string(filepath.Separator)+"new"+string(filepath.Separator))
		})
	})
	writeTree(t, notes, map[string]string{"moved/dir/osprey.md": "# Osprey\n\nThe osprey dives for trout.\n"})
	eventually(t, "an edit inside the moved folder is followed", found("trout", "osprey.md"))
	if err := os.Rename(filepath.Join(notes, "moved"), filepath.Join(notes, "new")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the folder moved back is found", func() bool {
		return slices.ContainsFunc(searchPaths(t, c, "trout"), func(p string) bool {
			return strings.Contains(p, string(filepath.Separator)+"new"+string(filepath.Separator))
		})
	})

	// A deleted file and a deleted folder.
	if err := os.Remove(filepath.Join(notes, "sub", "quokka.txt")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the deleted file is gone", lost("quokka"))
	if err := os.RemoveAll(filepath.Join(notes, "new")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the deleted folder is gone", lost("osprey"))

	// Hidden files are ignored, as ingest ignores them.
	writeTree(t, notes, map[string]string{".secret.md": "The zebra password is hunter2.\n"})
	writeTree(t, notes, map[string]string{"marker.md": "The marmot marks the end of the test.\n"})
	eventually(t, "a later change is taken", found("marmot", "marker.md"))
	if paths := searchPaths(t, c, "zebra"); len(paths) > 0 {
		t.Errorf("a hidden file was ingested: %v", paths)
	}
}

func TestWatchIgnores(t *testing.T) {
	w := &watcher{plan: &ingestPlan{paths: []string{"/n"}, rec: sourcesRecord{Roots: []sourceRoot{{Path: "/n", Excluded: []string{"/n/old"}}}}}}
	for p, want := range map[string]bool{
		"/n/a.md":              false,
		"/n":                   false,
		"/n/.a.md.swp":         true,
		"/n/a.md~":             true,
		"/n/4913":              true,
		"/n/.git/index":        true,
		"/n/node_modules/x.js": true,
		"/n/old/x.md":          true,
		"/elsewhere/x.md":      true,
	} {
		if got := w.ignored(p); got != want {
			t.Errorf("ignored(%s) = %v, want %v", p, got, want)
		}
	}
}
