package nodes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExemplarsAreOwnRows: graphrag's exemplars repeat no row of the public
// training data (a copy would let the leave-one-source-out run train on the
// rows it scores) and no row of the evaluation data, nor a near copy of one
// (most words shared): a figure measured on rows the router was trained on
// says nothing about new questions.
func TestExemplarsAreOwnRows(t *testing.T) {
	rows, err := loadTrainingRows()
	if err != nil {
		t.Fatal(err)
	}
	public := map[string]bool{}
	for _, r := range rows {
		if r.Source != SourceGraphrag {
			public[normalise(r.Query)] = true
		}
	}
	var eval []string
	read := func(path string, field func(routingRow, ragQuestion) string) {
		if _, err := os.Stat(path); err != nil {
			return
		}
		for _, r := range readJSONL[struct {
			routingRow
			ragQuestion
		}](t, path) {
			if q := field(r.routingRow, r.ragQuestion); q != "" {
				eval = append(eval, q)
			}
		}
	}
	query := func(r routingRow, _ ragQuestion) string { return r.Query }
	question := func(_ routingRow, q ragQuestion) string { return q.Question }
	datasets := filepath.Join("..", "evals", "datasets")
	read(filepath.Join(datasets, "routing.dev.jsonl"), query)
	read(filepath.Join(datasets, "routing.extra.jsonl"), query)
	read(filepath.Join("testdata", "routing.heldout.jsonl"), query)
	read(filepath.Join(datasets, "rag_questions.dev.jsonl"), question)
	read(filepath.Join(datasets, "negative.dev.jsonl"), question)
	read(filepath.Join(datasets, "docs", "questions.jsonl"), question)
	if dir := evalDir(t); dir != "" {
		read(filepath.Join(dir, "routing.dev.jsonl"), query)
		read(filepath.Join(dir, "rag_questions.dev.jsonl"), question)
		read(filepath.Join(dir, "negative.dev.jsonl"), question)
	}
	if len(eval) == 0 {
		t.Fatal("no evaluation rows found under ../evals/datasets")
	}
	evalWords := make([]map[string]bool, len(eval))
	for i, q := range eval {
		evalWords[i] = lowerWords(q)
	}
	for _, r := range rows {
		if r.Source != SourceGraphrag {
			continue
		}
		if public[normalise(r.Query)] {
			t.Errorf("exemplar %q is a row of the public training data", r.Query)
		}
		w := lowerWords(r.Query)
		for i, e := range evalWords {
			if j := jaccard(w, e); j >= nearCopy {
				t.Errorf("exemplar %q is a near copy (%.2f of its words) of the evaluation row %q", r.Query, j, eval[i])
			}
		}
	}
}

// nearCopy is the share of words (Jaccard) from which an exemplar counts as
// a copy of an evaluation row: "what is the latest version of python"
// against "what is the latest stable version of Python" is 0.88.
const nearCopy = 0.7

func normalise(q string) string { return strings.Join(strings.Fields(strings.ToLower(q)), " ") }

func lowerWords(q string) map[string]bool {
	set := map[string]bool{}
	for _, t := range tokenize(q) {
		set[t.Lower] = true
	}
	return set
}

func jaccard(a, b map[string]bool) float64 {
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}
