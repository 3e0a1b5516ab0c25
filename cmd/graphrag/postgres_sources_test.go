package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/internal/pgtest"
)

// TestPostgresSourcesAndForget runs the daily commands on PostgreSQL: the
// record of ingested folders lives in the collection's meta there.
func TestPostgresSourcesAndForget(t *testing.T) {
	url := pgtest.URL(t)
	c := newCLI(t)
	c.env["GRAPHRAG_STORE"] = url
	c.env["GRAPHRAG_SCHEMA"] = pgtest.NewSchema(t, url)
	c.env["GRAPHRAG_COLLECTION"] = "daily-test"
	c.ok("migrate", "up")
	notes := t.TempDir()
	writeTree(t, notes, map[string]string{
		"a/kayak.md":  "# Kayak\n\nThe kayak trip starts at the pier at dawn.\n",
		"b/quokka.md": "# Quokka\n\nThe quokka lives on Rottnest Island.\n",
	})
	a, b := filepath.Join(notes, "a"), filepath.Join(notes, "b")
	c.ok("ingest", a, b)
	if rep := sources(t, c); len(rep.Roots) != 2 || rep.Documents != 2 || rep.Chunks < 2 || rep.Roots[0].LastIngest == nil {
		t.Fatalf("sources = %+v", rep)
	}
	if err := os.RemoveAll(b); err != nil {
		t.Fatal(err)
	}
	if out := c.ok("ingest"); !strings.Contains(out, "no longer exists: forgot its 1 document") {
		t.Errorf("re-scan after rm -r b:\n%s", out)
	}
	if paths := searchPaths(t, c, "quokka"); len(paths) > 0 {
		t.Errorf("deleted folder still answerable: %v", paths)
	}
	c.ok("forget", a)
	if rep := sources(t, c); len(rep.Roots) != 0 || rep.Documents != 0 {
		t.Errorf("after forget: %+v", rep)
	}
}
