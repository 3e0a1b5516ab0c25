package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/internal/pgtest"
)

// badIDCorpus writes a directory whose files include one with a Latin-1
// name and a JSONL corpus with a row whose id holds a NUL: two documents no
// store can keep, among good ones.
func badIDCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"a-notes.txt":     "The kittiwake nests on sea cliffs.",
		"M\xfcller.txt":   "Latin-1 file name about puffins.",
		"rows.jsonl":      `{"id": "good", "text": "Gannets dive for fish."}` + "\n" + `{"id": "bad\u0000id", "text": "Shags are cormorants."}` + "\n",
		"z-more-notes.md": "# Terns\n\nArctic terns migrate from pole to pole.",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// One bad document id is skipped with its reason and the rest is written,
// on every run, on both stores.
func TestIngestSkipsInvalidDocumentIDs(t *testing.T) {
	stores := map[string]func(t *testing.T, c *cli){
		"sqlite": func(*testing.T, *cli) {},
		"postgres": func(t *testing.T, c *cli) {
			url := pgtest.URL(t)
			c.env["GRAPHRAG_STORE"] = url
			c.env["GRAPHRAG_SCHEMA"] = pgtest.NewSchema(t, url)
			c.ok("migrate", "up")
		},
	}
	for name, setup := range stores {
		t.Run(name, func(t *testing.T) {
			c := newCLI(t)
			setup(t, c)
			dir := badIDCorpus(t)
			out := c.ok("ingest", "--problems", dir)
			if !strings.Contains(out, "3 added") || !strings.Contains(out, "2 invalid document id") ||
				!strings.Contains(out, "not valid UTF-8") || !strings.Contains(out, "NUL") {
				t.Fatalf("first ingest:\n%s", out)
			}
			// The next run goes on past them too: deletions happen.
			if err := os.Remove(filepath.Join(dir, "z-more-notes.md")); err != nil {
				t.Fatal(err)
			}
			out = c.ok("ingest", dir)
			if !strings.Contains(out, "0 added, 0 updated, 2 unchanged, 1 deleted") || !strings.Contains(out, "2 invalid document id") {
				t.Fatalf("second ingest:\n%s", out)
			}
			if out := c.ok("run", "where does the kittiwake nest?"); !strings.Contains(out, "cliffs") {
				t.Errorf("run after ingest:\n%s", out)
			}
		})
	}
}
