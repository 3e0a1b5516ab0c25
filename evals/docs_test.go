package evals

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
)

func TestDocsBenchmarkLoads(t *testing.T) {
	cols, qs, err := LoadDocsBenchmark()
	if err != nil {
		t.Fatal(err)
	}
	if len(cols) != 3 {
		t.Errorf("collections = %d, want 3", len(cols))
	}
	answerable, unanswerable := 0, 0
	seen := map[string]bool{}
	for _, q := range qs {
		if seen[q.ID] {
			t.Errorf("duplicate id %s", q.ID)
		}
		seen[q.ID] = true
		if q.Abstain {
			unanswerable++
		} else {
			answerable++
		}
	}
	if answerable < 50 || unanswerable < 20 {
		t.Errorf("answerable %d, unanswerable %d: want at least 50 and 20", answerable, unanswerable)
	}
}

func TestReadDocsQuestionsRejectsRowsWithoutGold(t *testing.T) {
	_, err := ReadDocsQuestions(strings.NewReader(`{"id":"x","question":"what is x","gold_file":"a.txt"}`))
	if err == nil {
		t.Fatal("a row with no gold string was accepted")
	}
}

func TestScoreDocsNeedsGoldStringAndGoldFile(t *testing.T) {
	q := DocsQuestion{ID: "q", Collection: "c", Question: "what license is jq under", GoldFile: "jq/copyright", Gold: "MIT"}
	hit := func(path string) graphrag.Hit { return graphrag.Hit{Source: graphrag.Source{Path: path}} }
	run := func(text string, cited ...string) Run {
		var cs []graphrag.Citation
		for _, p := range cited {
			cs = append(cs, graphrag.Citation{Hit: hit(p)})
		}
		return Run{State: nodes.State{Answer: graphrag.Answer{Text: text, Citations: cs}}}
	}
	for _, tc := range []struct {
		name string
		run  Run
		want bool
	}{
		{"string and file", run("License:\n  MIT [1]", "/usr/share/doc/jq/copyright"), true},
		{"string, other file", run("License: MIT [1]", "/usr/share/doc/curl/copyright"), false},
		{"file, no string", run("License: BSD [1]", "/usr/share/doc/jq/copyright"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := scoreDocs(q, tc.run, "/usr/share/doc").Correct; got != tc.want {
				t.Errorf("correct = %v, want %v", got, tc.want)
			}
		})
	}
}
