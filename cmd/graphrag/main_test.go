package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/server"
)

// cli runs graphrag in-process with a private environment and returns its
// stdout, stderr and exit code.
type cli struct {
	t   *testing.T
	env map[string]string
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	home := t.TempDir()
	return &cli{t: t, env: map[string]string{"HOME": home, "XDG_DATA_HOME": filepath.Join(home, "data"), "XDG_CONFIG_HOME": filepath.Join(home, "config")}}
}

func (c *cli) run(stdin string, args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, stdio{in: strings.NewReader(stdin), out: &out, err: &errb}, func(k string) string { return c.env[k] })
	return out.String(), errb.String(), code
}

func (c *cli) ok(args ...string) string {
	c.t.Helper()
	out, errs, code := c.run("", args...)
	if code != 0 {
		c.t.Fatalf("graphrag %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// sampleDir copies examples/sample into a temporary directory, so tests may
// change it.
func sampleDir(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "sample")
	if err := os.CopyFS(dst, os.DirFS("../../examples/sample")); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestIngestRunOnSample(t *testing.T) {
	c := newCLI(t)
	dir := sampleDir(t)
	out := c.ok("ingest", dir)
	if !strings.Contains(out, "8 files: 8 added, 0 updated, 0 unchanged, 0 deleted") {
		t.Fatalf("first ingest summary:\n%s", out)
	}

	t.Run("incremental", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(dir, "notes", "sourdough.md"), []byte("# Sourdough\n\nBake at 240 °C for 40 minutes.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(dir, "homelab", "network.txt")); err != nil {
			t.Fatal(err)
		}
		out := c.ok("ingest", dir)
		if !strings.Contains(out, "7 files: 0 added, 1 updated, 6 unchanged, 1 deleted") {
			t.Fatalf("second ingest summary:\n%s", out)
		}
	})

	cases := []struct {
		query string
		route string   // wanted route, "" for any
		want  []string // each must appear in the answer (case-insensitive)
		cite  string   // a cited file's base name
	}{
		{"When does the nightly backup run?", "", []string{"02:30"}, "backup-runbook.md"},
		{"What is the RPO of the order service?", "", []string{"15 minutes"}, "glossary.html"},
		{"how many markdown files do I have", "filesystem", []string{"4 files"}, ""},
		{"Where does the nightly backup go?", "", []string{"atlas-restic"}, "backup-runbook.md"},
		{"How much was invoice INV-2024-0117?", "hybrid", []string{"648.55"}, "INV-2024-0117.txt"},
		{"What did we decide about the database migration?", "", []string{"PostgreSQL 16"}, "2024-03-12-architecture-meeting.md"},
		{"How do I restore a file from the backup?", "", []string{"restic"}, "backup-runbook.md"},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			out := c.ok("run", "--json", tc.query)
			var r server.QueryResponse
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("--json output is not one JSON object: %v\n%s", err, out)
			}
			if tc.route != "" && r.Route != tc.route {
				t.Errorf("route = %s (%s: %s), want %s", r.Route, r.Plan.By, r.Plan.Reason, tc.route)
			}
			for _, w := range tc.want {
				if !strings.Contains(strings.ToLower(r.Answer), strings.ToLower(w)) {
					t.Errorf("answer lacks %q:\n%s", w, r.Answer)
				}
			}
			if tc.cite != "" {
				found := false
				for _, ci := range r.Citations {
					found = found || filepath.Base(ci.Path) == tc.cite
				}
				if !found {
					t.Errorf("no citation of %s: %+v", tc.cite, r.Citations)
				}
			}
		})
	}

	t.Run("text output says it runs without a model", func(t *testing.T) {
		out, errs, code := c.run("", "run", "When does the nightly backup run?")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !strings.Contains(errs, "No language model configured") {
			t.Errorf("stderr does not say there is no model:\n%s", errs)
		}
		if !strings.Contains(out, "Sources") || !strings.Contains(out, "backup-runbook.md") {
			t.Errorf("text output lacks its sources:\n%s", out)
		}
	})

	t.Run("trace shows the path", func(t *testing.T) {
		out := c.ok("run", "--quiet", "--trace", "When does the nightly backup run?")
		for _, w := range []string{"Trace", "route", "retrieve", "evaluate", "generate", "validate", "budget left"} {
			if !strings.Contains(out, w) {
				t.Errorf("trace lacks %q:\n%s", w, out)
			}
		}
	})

	t.Run("unanswerable questions abstain", func(t *testing.T) {
		out := c.ok("run", "--json", "Who won the 1974 chess olympiad in Nice?")
		var r server.QueryResponse
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if !r.Abstained {
			t.Errorf("answered an unanswerable question: %q (route %s)", r.Answer, r.Route)
		}
	})
}

func TestRunWithoutStoreSaysToIngest(t *testing.T) {
	c := newCLI(t)
	_, errs, code := c.run("", "run", "anything")
	if code == 0 || !strings.Contains(errs, "graphrag ingest") {
		t.Fatalf("exit %d, stderr %q: want a failure that says to ingest first", code, errs)
	}
}

func TestVizIsValidAndStable(t *testing.T) {
	c := newCLI(t)
	mmd := c.ok("viz")
	for _, w := range []string{"flowchart", "route", "retrieve", "evaluate", "generate", "validate", "retries"} {
		if !strings.Contains(mmd, w) {
			t.Errorf("mermaid lacks %q:\n%s", w, mmd)
		}
	}
	if again := c.ok("viz"); again != mmd {
		t.Error("viz output differs between runs")
	}
	dot := c.ok("viz", "--format", "dot")
	if !strings.HasPrefix(dot, "digraph") {
		t.Errorf("dot output:\n%s", dot)
	}
	if path, err := exec.LookPath("dot"); err == nil {
		cmd := exec.Command(path, "-Tsvg")
		cmd.Stdin = strings.NewReader(dot)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("graphviz rejects the DOT: %v\n%s", err, out)
		}
	}
	if _, errs, code := c.run("", "viz", "--format", "png"); code == 0 || !strings.Contains(errs, "mermaid or dot") {
		t.Errorf("bad --format: exit %d, %q", code, errs)
	}
}

func TestChat(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", sampleDir(t))
	out, errs, code := c.run("When does the nightly backup run?\n/sources\n/trace\n/bogus\n/quit\n", "chat", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{"02:30", "[1]", "Trace", "unknown command /bogus"} {
		if !strings.Contains(out, w) {
			t.Errorf("chat output lacks %q:\n%s", w, out)
		}
	}
}

func TestConfigPrecedence(t *testing.T) {
	c := newCLI(t)
	cfgDir := filepath.Join(c.env["XDG_CONFIG_HOME"], "graphrag")
	if err := os.MkdirAll(cfgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	fileStore := filepath.Join(t.TempDir(), "from-file.db")
	if err := os.WriteFile(filepath.Join(cfgDir, "config"), []byte("# comment\nGRAPHRAG_STORE="+fileStore+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.ok("ingest", sampleDir(t))
	if _, err := os.Stat(fileStore); err != nil {
		t.Fatalf("config file's store not used: %v", err)
	}
	envStore := filepath.Join(t.TempDir(), "from-env.db")
	c.env["GRAPHRAG_STORE"] = envStore
	c.ok("ingest", sampleDir(t))
	if _, err := os.Stat(envStore); err != nil {
		t.Fatalf("environment's store not used: %v", err)
	}
	flagStore := filepath.Join(t.TempDir(), "from-flag.db")
	c.ok("ingest", "--store", flagStore, sampleDir(t))
	if _, err := os.Stat(flagStore); err != nil {
		t.Fatalf("flag's store not used: %v", err)
	}

	if err := os.WriteFile(filepath.Join(cfgDir, "config"), []byte("STORE=x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := c.run("", "version"); code == 0 || !strings.Contains(errs, "GRAPHRAG_NAME=value") {
		t.Errorf("bad config line: exit %d, %q", code, errs)
	}
}

func TestServeStdio(t *testing.T) {
	c := newCLI(t)
	dir := sampleDir(t)
	c.ok("ingest", dir)
	in := `{"id": 1, "method": "ping"}
{"id": 2, "method": "query", "params": {"query": "When does the nightly backup run?"}}
not json
{"id": 3, "method": "ingest", "params": {}}
`
	out, errs, code := c.run(in, "serve", "--stdio", "--ingest-root", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	results := map[string]json.RawMessage{}
	events := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
			Event  json.RawMessage `json:"event"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("stdout line is not JSON: %q", line)
		}
		switch {
		case msg.Event != nil:
			events++
		case string(msg.ID) == "null":
			if msg.Error == nil {
				t.Errorf("message with id null is neither an event nor an error: %s", line)
			}
		default:
			results[string(msg.ID)] = msg.Result
		}
	}
	if events == 0 {
		t.Error("no streamed events")
	}
	if !strings.Contains(string(results["2"]), "02:30") {
		t.Errorf("query result: %s", results["2"])
	}
	if !strings.Contains(string(results["3"]), `"unchanged":8`) {
		t.Errorf("ingest result: %s", results["3"])
	}
	if _, ok := results["1"]; !ok {
		t.Error("no answer to ping")
	}
}
