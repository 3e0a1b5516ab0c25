package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/ingest"
)

// writeTree writes files (path relative to root -> content).
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// searchPaths returns the paths `graphrag search --json` finds for q.
func searchPaths(t *testing.T, c *cli, q string) []string {
	t.Helper()
	out := c.ok("search", "--json", "--k", "50", q)
	var hits []searchHit
	if err := json.Unmarshal([]byte(out), &hits); err != nil {
		t.Fatalf("search --json: %v\n%s", err, out)
	}
	var paths []string
	for _, h := range hits {
		paths = append(paths, h.Path)
	}
	return paths
}

func sources(t *testing.T, c *cli) sourcesReport {
	t.Helper()
	var rep sourcesReport
	out := c.ok("sources", "--json")
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("sources --json: %v\n%s", err, out)
	}
	return rep
}

func anyUnder(paths []string, dir string) bool {
	for _, p := range paths {
		if within(dir, p) {
			return true
		}
	}
	return false
}

// The example: a deleted folder must stop being answerable.
func TestDeletedFolderIsForgotten(t *testing.T) {
	c := newCLI(t)
	notes := t.TempDir()
	writeTree(t, notes, map[string]string{
		"a/kayak.md":    "# Kayak\n\nThe kayak trip starts at the pier at dawn.\n",
		"b/quokka.md":   "# Quokka\n\nThe quokka lives on Rottnest Island.\n",
		"b/sub/more.md": "# More\n\nQuokka pictures are in the album.\n",
	})
	a, b := filepath.Join(notes, "a"), filepath.Join(notes, "b")
	c.ok("ingest", a, b)
	if paths := searchPaths(t, c, "quokka"); !anyUnder(paths, b) {
		t.Fatalf("quokka not found after ingest: %v", paths)
	}
	if err := os.RemoveAll(b); err != nil {
		t.Fatal(err)
	}
	out := c.ok("ingest", a)
	if !strings.Contains(out, "no longer exists: forgot its 2 documents") {
		t.Errorf("ingest after rm -r b should say it forgot b:\n%s", out)
	}
	if paths := searchPaths(t, c, "quokka"); len(paths) > 0 {
		t.Errorf("deleted folder still answerable: %v", paths)
	}
	rep := sources(t, c)
	if len(rep.Roots) != 1 || rep.Roots[0].Files != 1 {
		t.Errorf("sources after the prune = %+v, want only a with 1 file", rep.Roots)
	}
	// Naming the vanished folder is no longer a stat error.
	if _, errs, code := c.run("", "ingest", b); code == 0 || !strings.Contains(errs, "no such file") {
		t.Errorf("ingest of a never-known missing path: exit %d, %s", code, errs)
	}
}

func TestRescanKeepMissingAndForget(t *testing.T) {
	c := newCLI(t)
	notes := t.TempDir()
	writeTree(t, notes, map[string]string{
		"a/kayak.md":       "# Kayak\n\nThe kayak trip starts at the pier at dawn.\n",
		"a/old/walrus.md":  "# Walrus\n\nThe walrus sleeps on the ice floe.\n",
		"a/loose.txt":      "A loose note about the lighthouse keeper.\n",
		"a/blob.bin":       "\x00\x01\x02binary\x00",
		"b/quokka.md":      "# Quokka\n\nThe quokka lives on Rottnest Island.\n",
		"empty/.hidden.md": "hidden",
	})
	a, b := filepath.Join(notes, "a"), filepath.Join(notes, "b")
	c.ok("ingest", a, b)

	t.Run("sources lists roots with counts and skipped files", func(t *testing.T) {
		rep := sources(t, c)
		if len(rep.Roots) != 2 {
			t.Fatalf("roots = %+v", rep.Roots)
		}
		ra := rep.Roots[0]
		if ra.Path != a || ra.Files != 3 || ra.Chunks < 3 || ra.LastIngest == nil || ra.Skipped["binary"] != 1 {
			t.Errorf("root a = %+v; want 3 files, a last ingest and 1 binary skipped", ra)
		}
		out := c.ok("ls")
		if !strings.Contains(out, "2 folders") || !strings.Contains(out, "skipped: 1 binary") {
			t.Errorf("ls:\n%s", out)
		}
	})
	t.Run("plain ingest re-scans the known roots", func(t *testing.T) {
		writeTree(t, notes, map[string]string{"b/quokka.md": "# Quokka\n\nThe quokka eats leaves at night.\n"})
		out := c.ok("ingest")
		if !strings.Contains(out, "1 updated") {
			t.Errorf("re-scan after an edit:\n%s", out)
		}
	})
	t.Run("forget a path inside a root", func(t *testing.T) {
		out := c.ok("forget", filepath.Join(a, "old"))
		if !strings.Contains(out, "1 document") {
			t.Errorf("forget output: %s", out)
		}
		if paths := searchPaths(t, c, "walrus"); len(paths) > 0 {
			t.Errorf("forgotten path still answerable: %v", paths)
		}
		// A re-scan leaves it out, and still sees files removed beside it.
		if err := os.Remove(filepath.Join(a, "loose.txt")); err != nil {
			t.Fatal(err)
		}
		c.ok("ingest")
		if paths := searchPaths(t, c, "walrus"); len(paths) > 0 {
			t.Errorf("re-scan brought the forgotten path back: %v", paths)
		}
		if paths := searchPaths(t, c, "lighthouse"); len(paths) > 0 {
			t.Errorf("file deleted beside a forgotten path still answerable: %v", paths)
		}
		// Ingesting it by name brings it back.
		c.ok("ingest", filepath.Join(a, "old"))
		if paths := searchPaths(t, c, "walrus"); len(paths) != 1 {
			t.Errorf("ingest by name did not bring it back: %v", paths)
		}
		if rep := sources(t, c); len(rep.Roots) != 2 || len(rep.Roots[0].Excluded) != 0 {
			t.Errorf("roots after re-ingest = %+v", rep.Roots)
		}
	})
	t.Run("a folder that lists no file now keeps its documents", func(t *testing.T) {
		// What an unmounted disk leaves: its mount point, empty.
		if err := os.Rename(b, b+".away"); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(b, 0o755); err != nil {
			t.Fatal(err)
		}
		_, errs, code := c.run("", "ingest", b)
		if code != 1 || !strings.Contains(errs, "lists no file now") || !strings.Contains(errs, "graphrag forget") {
			t.Errorf("exit %d, stderr: %s", code, errs)
		}
		if paths := searchPaths(t, c, "quokka"); len(paths) != 1 {
			t.Errorf("an emptied folder lost its document: %v", paths)
		}
		if err := os.Remove(b); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(b+".away", b); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("keep-missing", func(t *testing.T) {
		if err := os.Rename(b, b+".unplugged"); err != nil {
			t.Fatal(err)
		}
		out := c.ok("ingest", "--keep-missing")
		if !strings.Contains(out, "is missing; kept") {
			t.Errorf("--keep-missing says nothing:\n%s", out)
		}
		if paths := searchPaths(t, c, "quokka"); len(paths) != 1 {
			t.Errorf("--keep-missing lost b: %v", paths)
		}
		if rep := sources(t, c); len(rep.Roots) != 2 || rep.Roots[1].Exists {
			t.Errorf("sources should list b as missing: %+v", rep.Roots)
		}
		out = c.ok("ingest")
		if !strings.Contains(out, "no longer exists: forgot its 1 document ") {
			t.Errorf("plain ingest should prune b:\n%s", out)
		}
	})
	t.Run("forget a root", func(t *testing.T) {
		out := c.ok("forget", a)
		if !strings.Contains(out, "forgot") {
			t.Errorf("forget: %s", out)
		}
		if rep := sources(t, c); len(rep.Roots) != 0 || rep.Documents != 0 {
			t.Errorf("after forgetting every root: %+v", rep)
		}
		if _, errs, code := c.run("", "forget", a); code == 0 || !strings.Contains(errs, "nothing ingested under") {
			t.Errorf("forget twice: exit %d, %s", code, errs)
		}
		if _, errs, code := c.run("", "ingest"); code == 0 || !strings.Contains(errs, "graphrag ingest PATH") {
			t.Errorf("re-scan with no roots: exit %d, %s", code, errs)
		}
	})
	t.Run("a folder with nothing to ingest exits non-zero", func(t *testing.T) {
		out, errs, code := c.run("", "ingest", filepath.Join(notes, "empty"))
		if code != 1 || !strings.Contains(errs, "nothing ingested: no supported files") || !strings.Contains(out, "skipped: 1 hidden file") {
			t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, out, errs)
		}
		if rep := sources(t, c); len(rep.Roots) != 0 {
			t.Errorf("an empty folder was recorded: %+v", rep.Roots)
		}
	})
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 images", 1: "1 image", 2: "2 images"} {
		if got := plural(n, "image", "images"); got != want {
			t.Errorf("plural(%d) = %q", n, got)
		}
	}
	a := &app{}
	notes := a.imageNotices(ingestSummaryWithImages(1), false)
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "1 image skipped") {
		t.Errorf("notice = %q", notes)
	}
}

func ingestSummaryWithImages(n int) ingest.Summary {
	return ingest.Summary{Files: n, Skipped: map[string]int{ingest.ReasonNoCaptioner: n}}
}
