package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/evals"
)

// eval docs --baseline compares a run with an earlier report of the same
// questions, row by row: the same behaviour shows no change, and a row
// whose score differs is named as gained or lost.
func TestEvalDocsBaseline(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "src", "strings")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "package strings\n\n// ZorpLimit is the most frobs a zorp holds: 42.\nconst ZorpLimit = 42\n"
	if err := os.WriteFile(filepath.Join(pkg, "zorp.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	questions := filepath.Join(t.TempDir(), "q.jsonl")
	rows := `{"id": "z-1", "collection": "go", "question": "how many frobs does a zorp hold at most (ZorpLimit)?", "gold_file": "src/strings/zorp.go", "gold": "42"}
{"id": "z-2", "collection": "go", "question": "how wide does the wibble printer draw its quill lines?", "abstain": true}
`
	if err := os.WriteFile(questions, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newCLI(t)
	args := []string{"eval", "docs", "--quiet", "--root", "go=" + root, "--only", "go", "--questions", questions, "--concurrency", "1"}
	first := c.ok(append(args, "--json")...)
	base := filepath.Join(t.TempDir(), "before.json")
	if err := os.WriteFile(base, []byte(first), 0o644); err != nil {
		t.Fatal(err)
	}

	out := c.ok(append(args, "--baseline", base)...)
	if !strings.Contains(out, "every question scored and answered as before") {
		t.Errorf("the same run against its own report:\n%s\nwant no change", out)
	}

	// A baseline where the first row was scored the other way.
	rep, err := evals.ReadDocsReport(strings.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	rep.Results[0].Correct = !rep.Results[0].Correct
	flipped, _ := json.Marshal(rep)
	if err := os.WriteFile(base, flipped, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "lost:   z-1"
	if !rep.Results[0].Correct {
		want = "gained: z-1"
	}
	out = c.ok(append(args, "--baseline", base)...)
	if !strings.Contains(out, want) {
		t.Errorf("against a baseline scoring z-1 the other way:\n%s\nwant %q", out, want)
	}
	js := c.ok(append(args, "--baseline", base, "--json")...)
	got, err := evals.ReadDocsReport(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	if d := got.SinceBaseline; d == nil || len(d.Gained)+len(d.Lost) != 1 {
		t.Errorf("--json since_baseline = %+v, want one row changed", got.SinceBaseline)
	}

	// A baseline that is no report fails before the run.
	if err := os.WriteFile(base, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := c.run("", append(args, "--baseline", base)...); code == 0 || !strings.Contains(errs, "--baseline") {
		t.Errorf("a baseline that is no report: exit %d, stderr:\n%s\nwant a failure naming --baseline", code, errs)
	}
}
