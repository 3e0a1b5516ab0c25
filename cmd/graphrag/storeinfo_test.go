package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/internal/pgtest"
)

// The file questions of issue 14, through the command: a count says what
// ingest skipped and cites only the files it names, a mention count counts
// documents, and questions about the store are answered from its record
// rather than sent to the web.
func TestFileQuestionsFromTheStore(t *testing.T) {
	fileQuestions(t, newCLI(t))
}

// The same on PostgreSQL, whose keyword search and record differ.
func TestPostgresFileQuestionsFromTheStore(t *testing.T) {
	url := pgtest.URL(t)
	c := newCLI(t)
	c.env["GRAPHRAG_STORE"] = url
	c.env["GRAPHRAG_SCHEMA"] = pgtest.NewSchema(t, url)
	c.env["GRAPHRAG_COLLECTION"] = "file-questions"
	c.ok("migrate", "up")
	fileQuestions(t, c)
}

func fileQuestions(t *testing.T, c *cli) {
	t.Helper()
	notes := t.TempDir()
	files := map[string]string{
		"pg.md":  "# Memory\n\nRaise shared_buffers to a quarter of RAM.\n",
		"pg2.md": "# Start\n\nshared_buffers is read when the server starts.\n",
	}
	for i := range 8 {
		files[filepath.Join("more", "n"+string(rune('a'+i))+".md")] = "# Note\n\nVacuum reclaims space.\n"
	}
	writeTree(t, notes, files)
	if err := os.WriteFile(filepath.Join(notes, "blob.bin"), []byte{0, 1, 2, 0, 0, 0, 7, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	c.ok("ingest", notes)

	out := c.ok("run", "--web", "searxng=http://127.0.0.1:9", "how many files do I have")
	if !strings.Contains(out, "11 files") || !strings.Contains(out, "10 are indexed and 1 is not") {
		t.Errorf("count does not say what was not indexed:\n%s", out)
	}
	if n := strings.Count(out, "\n  ["); n > 5 {
		t.Errorf("count cites %d sources, want at most the 5 it names:\n%s", n, out)
	}

	out = c.ok("run", "how many files mention shared_buffers")
	if !strings.Contains(out, `2 documents mention "shared_buffers"`) {
		t.Errorf("mention count:\n%s", out)
	}

	for _, q := range []string{"when did I last ingest", "which folders have I ingested"} {
		out = c.ok("run", "--web", "searxng=http://127.0.0.1:9", q)
		if !strings.Contains(out, "last ingest") || !strings.Contains(out, filepath.Base(notes)) || !strings.Contains(out, "route filesystem") {
			t.Errorf("%q not answered from the store:\n%s", q, out)
		}
	}
}
