package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// A question copies code that names a value after its type ("job.Retries"
// for a Job's field): the type's own code holds that name, though no
// package is called "job".
func TestQualifiedNameOfAVariableNamedAfterItsType(t *testing.T) {
	code := func(symbol, text string) graphrag.Hit {
		return graphrag.Hit{
			Source: graphrag.Source{Path: "/src/queue/queue.go", Type: "go"},
			Chunk:  graphrag.Chunk{Symbol: symbol, Text: text},
		}
	}
	job := code("queue.Job", "type Job struct {\n\t// Retries is how often a failed job runs again; the last value set wins.\n\tRetries int\n}")
	method := code("queue.Job.Run", "func (j *Job) Run() error { return j.run(j.Retries) }")
	other := code("queue.Worker", "type Worker struct {\n\tRetries int\n}")
	for _, tc := range []struct {
		q    qualifiedName
		hit  graphrag.Hit
		want bool
	}{
		{qualifiedName{"job", "Retries"}, job, true},
		{qualifiedName{"job", "Retries"}, method, true},
		{qualifiedName{"jo", "Retries"}, job, false}, // too short to name a type
		{qualifiedName{"job", "Retries"}, other, false},
		{qualifiedName{"job", "Timeout"}, job, false},
	} {
		if got := tc.q.heldBy(tc.hit); got != tc.want {
			t.Errorf("%s.%s held by %s = %v, want %v", tc.q.Pkg, tc.q.Name, tc.hit.Chunk.Symbol, got, tc.want)
		}
	}
	// The grading keeps the type's code instead of finding nothing.
	hits := []graphrag.Hit{job, other}
	if _, r, note := gradeByConstraints("if I set job.Retries twice, which value is used", hits, hits, RetrievalGood, 5); r == RetrievalEmpty {
		t.Errorf("graded empty: %s", note)
	}
}

// The answer to a question about a field of a value named after its type
// quotes the field with its comment, not the type's opening lines.
func TestAnswerQuotesTheFieldOfAVariableNamedAfterItsType(t *testing.T) {
	job := graphrag.Hit{
		Source: graphrag.Source{Path: "/src/queue/queue.go", Type: "go"},
		Chunk: graphrag.Chunk{Symbol: "queue.Job", Text: "// Job is a unit of work a Worker runs.\n//\n// A Job cannot be queued twice.\ntype Job struct {\n" +
			"\t// Name names the job in logs.\n\tName string\n\n" +
			"\t// Retries is how often a failed job runs again.\n\t// If Retries is set twice, the last value wins.\n\tRetries int\n}"},
	}
	a := extractive("if I set job.Retries twice, which value does the worker use", []graphrag.Hit{job}, 3)
	if a.Abstained || !strings.Contains(a.Text, "the last value wins") || strings.Contains(a.Text, "unit of work") {
		t.Errorf("answer (abstained %v):\n%s\nwant the Retries field with its comment", a.Abstained, a.Text)
	}
}

// A one-letter qualifier is a variable ("t.Parallel()" of a test's
// *testing.T), not a package: the method is what is asked about, and a
// doc that says "parallel tests" without "t." holds it.
func TestAOneLetterQualifierIsAVariable(t *testing.T) {
	q := "Is frobtest.SetZorp safe once my test has called t.Parallel()?"
	for _, n := range qualifiedNames(q) {
		if n.Pkg == "t" {
			t.Errorf("qualifiedNames(%q) has %v", q, n)
		}
	}
	doc := fileHit("/go/src/testing/frobtest/zorp.go", "go", "// SetZorp sets the global zorp for the test.\n// It cannot be used in parallel tests.\nfunc SetZorp(t *testing.T, z Zorp) {")
	doc.Chunk.Symbol = "frobtest.SetZorp"
	if _, r, why := gradeByConstraints(q, []graphrag.Hit{doc}, []graphrag.Hit{doc}, RetrievalGood, 5); r == RetrievalEmpty {
		t.Errorf("retrieval empty (%s): the doc speaks of parallel tests", why)
	}
}
