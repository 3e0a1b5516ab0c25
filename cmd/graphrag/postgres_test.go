package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/internal/pgtest"
	"github.com/graphrag/graphrag/server"
)

// TestPostgresStore runs the user's path on PostgreSQL: migrate, ingest
// (twice: incremental), run, doctor, all against a real server.
func TestPostgresStore(t *testing.T) {
	url := pgtest.URL(t)
	c := newCLI(t)
	c.env["GRAPHRAG_STORE"] = url
	c.env["GRAPHRAG_SCHEMA"] = pgtest.NewSchema(t, url)
	c.env["GRAPHRAG_COLLECTION"] = "cli-test"

	if _, errs, code := c.run("", "ingest", sampleDir(t)); code == 0 || !strings.Contains(errs, "graphrag migrate up") {
		t.Fatalf("ingest into an unmigrated schema: exit %d, %q: want a failure that says to migrate", code, errs)
	}
	if out := c.ok("migrate", "up"); !strings.Contains(out, "applied") {
		t.Fatalf("migrate up: %s", out)
	}
	if out := c.ok("migrate", "up"); !strings.Contains(out, "up to date") {
		t.Fatalf("second migrate up: %s", out)
	}
	dir := sampleDir(t)
	if out := c.ok("ingest", dir); !strings.Contains(out, "8 added") {
		t.Fatalf("ingest: %s", out)
	}
	if out := c.ok("ingest", dir); !strings.Contains(out, "8 unchanged") {
		t.Fatalf("second ingest: %s", out)
	}
	var r server.QueryResponse
	if err := json.Unmarshal([]byte(c.ok("run", "--json", "When does the nightly backup run?")), &r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Answer, "02:30") {
		t.Errorf("answer: %q", r.Answer)
	}
	out := c.ok("doctor")
	if !strings.Contains(out, "8 documents") {
		t.Errorf("doctor: %s", out)
	}
	if strings.Contains(out, ":graphrag@") || strings.Contains(out, "password") {
		t.Errorf("doctor prints the password: %s", out)
	}
}
