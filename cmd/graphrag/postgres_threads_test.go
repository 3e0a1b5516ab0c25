package main

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag/internal/pgtest"
)

// On PostgreSQL a thread lives in graphrag's schema and belongs to its
// collection: another collection's thread of the same name is another
// conversation.
func TestPostgresRunThread(t *testing.T) {
	url := pgtest.URL(t)
	c := newCLI(t)
	c.env["GRAPHRAG_STORE"] = url
	c.env["GRAPHRAG_SCHEMA"] = pgtest.NewSchema(t, url)
	c.ok("migrate", "up")
	notes := vacuumNotes(t)
	for _, coll := range []string{"one", "two"} {
		c.env["GRAPHRAG_COLLECTION"] = coll
		c.ok("ingest", notes)
	}
	c.env["GRAPHRAG_COLLECTION"] = "one"
	c.ok("run", "--thread", "vac", "what does VACUUM FULL do?")
	_, errs, code := c.run("", "run", "--thread", "vac", "does it lock the table?")
	if code != 0 || !strings.Contains(errs, "(taking it as: does VACUUM FULL lock the table?)") {
		t.Errorf("the second run did not see the first's turn: exit %d\n%s", code, errs)
	}
	c.env["GRAPHRAG_COLLECTION"] = "two"
	if _, errs, _ := c.run("", "run", "--thread", "vac", "does it lock the table?"); strings.Contains(errs, "taking it as") {
		t.Errorf("collection two saw collection one's thread:\n%s", errs)
	}
	if out := c.ok("threads", "show", "vac"); strings.Count(out, "\n[") != 0 || !strings.HasPrefix(out, "[1] does it lock the table?") {
		t.Errorf("collection two's thread vac:\n%s", out)
	}
	c.env["GRAPHRAG_COLLECTION"] = "one"
	if out := c.ok("threads"); !strings.Contains(out, "vac ") || !strings.Contains(out, "does VACUUM FULL lock the table?") {
		t.Errorf("threads on PostgreSQL:\n%s", out)
	}
	c.ok("threads", "rm", "vac")
	c.env["GRAPHRAG_COLLECTION"] = "two"
	if out := c.ok("threads"); !strings.Contains(out, "vac ") {
		t.Errorf("rm in collection one deleted collection two's thread:\n%s", out)
	}
}
