package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEndToEndSession drives the built binary through a day's use over a
// fixture tree: ingest, search, edit and re-scan, delete, forget, a chat
// with a follow-up typed on stdin, and sources.
func TestEndToEndSession(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "graphrag")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config")}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "PATH" || k == "TMPDIR" || k == "SYSTEMROOT" {
			env = append(env, kv)
		}
	}
	notes := t.TempDir()
	writeTree(t, notes, map[string]string{
		"db/vacuum.md": "# VACUUM\n\nPlain VACUUM reclaims dead row versions for reuse. It does not lock the table: " +
			"reads and writes go on while it runs.\n",
		"db/vacuum-full.md": "# VACUUM FULL\n\nVACUUM FULL rewrites the whole table into a new file and returns the space to the " +
			"operating system. It takes an ACCESS EXCLUSIVE lock, so the table is locked until it finishes.\n",
		"trips/kayak.md":   "# Kayak\n\nThe kayak trip starts at the pier at dawn.\n",
		"trips/walrus.txt": "The walrus colony is north of the fjord.\n",
		"recipes/bread.md": "# Bread\n\nBake the sourdough at 240 degrees for 40 minutes.\n",
	})
	gr := func(stdin string, args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Dir = notes
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("graphrag %v: %v", args, err)
		}
		return out.String(), errb.String(), code
	}
	ok := func(stdin string, args ...string) string {
		t.Helper()
		out, errs, code := gr(stdin, args...)
		if code != 0 {
			t.Fatalf("graphrag %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out, errs)
		}
		return out
	}
	has := func(out string, wants ...string) {
		t.Helper()
		for _, w := range wants {
			if !strings.Contains(out, w) {
				t.Errorf("output lacks %q:\n%s", w, out)
			}
		}
	}
	lacks := func(out string, nots ...string) {
		t.Helper()
		for _, w := range nots {
			if strings.Contains(out, w) {
				t.Errorf("output has %q:\n%s", w, out)
			}
		}
	}

	has(ok("", "ingest", "db", "trips", "recipes"), "5 files: 5 added")
	has(ok("", "search", "--color", "never", "kayak pier"), "1. trips/kayak.md", "score", "pier")

	// Edit, then a plain ingest re-scans the known folders.
	writeTree(t, notes, map[string]string{"trips/kayak.md": "# Kayak\n\nThe kayak trip starts at the lighthouse at noon.\n"})
	has(ok("", "ingest"), "1 updated")
	has(ok("", "search", "lighthouse"), "trips/kayak.md")

	// Delete a file and re-scan.
	if err := os.Remove(filepath.Join(notes, "trips", "walrus.txt")); err != nil {
		t.Fatal(err)
	}
	has(ok("", "ingest"), "1 deleted")
	has(ok("", "search", "walrus"), "no passages match")

	// Forget a folder.
	has(ok("", "forget", "recipes"), "forgot recipes: 1 document")
	has(ok("", "search", "sourdough"), "no passages match")

	// A chat with a follow-up, typed on stdin.
	out, errs, code := gr("what does VACUUM FULL do?\ndoes it lock the table?\n/quit\n", "chat")
	if code != 0 {
		t.Fatalf("chat: exit %d\n%s", code, errs)
	}
	has(errs, "(taking it as: does VACUUM FULL lock the table?)")
	has(out, "ACCESS EXCLUSIVE", "db/vacuum-full.md")

	// Sources.
	var rep sourcesReport
	if err := json.Unmarshal([]byte(ok("", "sources", "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Roots) != 2 || rep.Documents != 3 {
		t.Errorf("sources = %+v; want db and trips with 3 documents", rep)
	}
	text := ok("", "ls")
	has(text, "2 folders", "3 documents", "db", "trips")
	lacks(text, "recipes")

	// Small things: a clear error for --k 0, and the version.
	if _, errs, code := gr("", "run", "--k", "0", "vacuum"); code == 0 || !strings.Contains(errs, "1 or more") {
		t.Errorf("run --k 0: exit %d, %s", code, errs)
	}
	has(ok("", "version"), "graphrag ")
}
