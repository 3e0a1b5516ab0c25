package evals

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
)

func TestDocsSetsLoad(t *testing.T) {
	for _, tc := range []struct {
		set                        string
		minAnswer, minUnanswerable int
	}{
		{"dev", 50, 20},
		{"heldout", 45, 15},
		{"test", 45, 15},
		{"test2", 45, 15},
		{"test3", 55, 18},
		{"tune1", 65, 20},
		{"tune2", 55, 18},
		{"tune3", 50, 18},
		{"test4", 70, 22},
		{"test5", 70, 21},
		{"test6", 70, 22},
		{"test7", 70, 22},
		{"test8", 70, 22},
		{"test9", 70, 22},
		{"test10", 70, 22},
		{"test11", 70, 22},
		{"test12", 70, 22},
		{"test13", 70, 22},
		{"test14", 70, 22},
		{"test15", 70, 22},
		{"test16", 70, 22},
		{"test17", 70, 22},
		{"test18", 70, 22},
		{"test19", 70, 22},
		{"test20", 70, 22},
		{"test21", 70, 22},
		{"test22", 70, 22},
		{"test23", 70, 22},
		{"test24", 70, 22},
		{"test25", 70, 22},
		{"test26", 70, 22},
		{"test27", 70, 22},
		{"test28", 70, 22},
		{"test29", 70, 22},
		{"test30", 70, 22},
		{"test31", 70, 22},
		{"test32", 70, 22},
		{"test33", 70, 22},
		{"test34", 70, 22},
		{"test35", 70, 22},
		{"test36", 70, 22},
		{"test37", 70, 22},
		{"test38", 70, 22},
		{"test39", 70, 22},
		{"test40", 70, 22},
		{"test41", 70, 22},
		{"test42", 70, 22},
		{"test43", 70, 22},
		{"test44", 70, 22},
		{"test45", 70, 22},
		{"test46", 70, 22},
		{"test47", 70, 21},
		{"test48", 70, 24},
	} {
		t.Run(tc.set, func(t *testing.T) {
			cols, qs, err := LoadDocsSet(tc.set)
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
			if answerable < tc.minAnswer || unanswerable < tc.minUnanswerable {
				t.Errorf("answerable %d, unanswerable %d: want at least %d and %d", answerable, unanswerable, tc.minAnswer, tc.minUnanswerable)
			}
		})
	}
}

// Each set asks about other things than the others: no question is asked
// in two sets.
func TestDocsSetsAreDisjoint(t *testing.T) {
	type row struct{ set, id string }
	asked := map[string]row{} // by normalised question
	for _, set := range DocsSets() {
		_, qs, err := LoadDocsSet(set)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			key := normalizeDocs(q.Question)
			if prev, ok := asked[key]; ok && prev.set != set {
				t.Errorf("%s %s asks what %s %s asks: %q", set, q.ID, prev.set, prev.id, q.Question)
			}
			asked[key] = row{set, q.ID}
		}
	}
}

func TestLoadDocsSetUnknown(t *testing.T) {
	if _, _, err := LoadDocsSet("nope"); err == nil || !strings.Contains(err.Error(), "heldout") {
		t.Errorf("err = %v, want one naming the sets there are", err)
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

// An answer that cites a byte-identical copy of the gold file is not
// counted as correct; it is reported apart, and a different file is no
// copy.
func TestScoreDocsReportsCopiesOfTheGoldFile(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("libfoo1/copyright", "License: MIT\n")
	copyPath := write("libfoo-dev/copyright", "License: MIT\n")
	other := write("libbar/copyright", "License: MIT, with an exception\n")
	q := DocsQuestion{ID: "q", Collection: "c", Question: "what license is libfoo under", GoldFile: "libfoo1/copyright", Gold: "MIT"}
	run := func(cited string) Run {
		return Run{State: nodes.State{Answer: graphrag.Answer{Text: "License: MIT [1]",
			Citations: []graphrag.Citation{{Hit: graphrag.Hit{Source: graphrag.Source{Path: cited}}}}}}}
	}
	if r := scoreDocs(q, run(copyPath), root); r.Correct || !r.CopyCited {
		t.Errorf("copy: correct %v, copy cited %v; want false, true", r.Correct, r.CopyCited)
	}
	if r := scoreDocs(q, run(other), root); r.Correct || r.CopyCited {
		t.Errorf("other file: correct %v, copy cited %v; want false, false", r.Correct, r.CopyCited)
	}
	// A citation that names the gold file as a copy of its text
	// (graphrag.Hit.Copies) cites it, and its passage holds the answer.
	named := run(copyPath)
	c := &named.State.Answer.Citations[0]
	c.Hit.Chunk.Text = "License: MIT"
	c.Hit.Copies = []graphrag.Source{{Path: filepath.Join(root, "libfoo1/copyright")}}
	named.State.Hits, named.State.Kept = []graphrag.Hit{c.Hit}, []graphrag.Hit{c.Hit}
	asCopy := scoreDocs(q, named, root)
	if !asCopy.Correct || !asCopy.GoldInHits || !asCopy.PassageKept || !asCopy.CitedAsCopy {
		t.Errorf("gold file named as a copy: correct %v, in hits %v, kept %v, cited as a copy %v; want all true", asCopy.Correct, asCopy.GoldInHits, asCopy.PassageKept, asCopy.CitedAsCopy)
	}
	if f := docsFigures("all", []DocsResult{asCopy, scoreDocs(q, run(filepath.Join(root, "libfoo1/copyright")), root)}); f.Answered != 1 || f.AnsweredFirstNamed != 0.5 {
		t.Errorf("answered %v, first named %v; want 1, 0.5", f.Answered, f.AnsweredFirstNamed)
	}
	f := docsFigures("all", []DocsResult{scoreDocs(q, run(copyPath), root), scoreDocs(q, run(filepath.Join(root, "libfoo1/copyright")), root)})
	if f.Answered != 0.5 || f.AnsweredWithCopies != 1 {
		t.Errorf("answered %v, with copies %v; want 0.5, 1", f.Answered, f.AnsweredWithCopies)
	}
}

// A miss is split by where the answering passage was lost: never among
// the hits, among the hits but not kept, or kept and another part quoted.
func TestScoreDocsSplitsTheLoss(t *testing.T) {
	q := DocsQuestion{ID: "q", Collection: "c", Question: "which port does quokkad listen on", GoldFile: "quokkad/README", Gold: "port 7411"}
	gold := graphrag.Hit{Source: graphrag.Source{Path: "/usr/share/doc/quokkad/README"}, Chunk: graphrag.Chunk{Text: "quokkad listens on\nPort  7411 by default."}}
	otherPart := graphrag.Hit{Source: graphrag.Source{Path: "/usr/share/doc/quokkad/README"}, Chunk: graphrag.Chunk{Text: "Install quokkad with apt."}}
	otherFile := graphrag.Hit{Source: graphrag.Source{Path: "/usr/share/doc/wombat/README"}, Chunk: graphrag.Chunk{Text: "wombat uses port 7411."}}
	for _, tc := range []struct {
		name                string
		hits, kept          []graphrag.Hit
		answer              string
		inHits, inKept, won bool
		words               int
		lost                string
	}{
		{"never found", []graphrag.Hit{otherPart, otherFile}, []graphrag.Hit{otherPart}, "Install quokkad with apt. [1]", false, false, false, 5, LostPassage},
		{"found, not kept", []graphrag.Hit{otherPart, gold}, []graphrag.Hit{otherPart}, "Install quokkad with apt. [1]", true, false, false, 5, LostKept},
		{"kept, other part quoted", []graphrag.Hit{gold, otherPart}, []graphrag.Hit{otherPart, gold}, "Install quokkad with apt. [1]", true, true, false, 5, LostQuoted},
		{"answered", []graphrag.Hit{gold}, []graphrag.Hit{gold}, "quokkad listens on port 7411 by default. [1]", true, true, true, 8, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := Run{State: nodes.State{Hits: tc.hits, Kept: tc.kept, Answer: graphrag.Answer{Text: tc.answer,
				Citations: []graphrag.Citation{{Hit: tc.kept[0]}, {Hit: gold}}}}}
			r := scoreDocs(q, run, "/usr/share/doc")
			if r.PassageInHits != tc.inHits || r.PassageKept != tc.inKept || r.Correct != tc.won || r.Words != tc.words {
				t.Errorf("in hits %v, kept %v, correct %v, words %d; want %v, %v, %v, %d", r.PassageInHits, r.PassageKept, r.Correct, r.Words, tc.inHits, tc.inKept, tc.won, tc.words)
			}
			if got := r.LostAt(); got != tc.lost {
				t.Errorf("lost at %q, want %q", got, tc.lost)
			}
		})
	}
	abstained := scoreDocs(q, Run{State: nodes.State{Hits: []graphrag.Hit{gold}, Plan: graphrag.Plan{Route: graphrag.RouteVector},
		Retrieval: nodes.RetrievalEmpty, Measured: "evidence 0.40, missing quokkad",
		Answer: graphrag.Answer{Text: "No relevant information found in your files.", Abstained: true}}}, "/usr/share/doc")
	if abstained.Words != 0 || abstained.LostAt() != LostAbstained {
		t.Errorf("an abstention counts %d words, lost at %q; want 0, %q", abstained.Words, abstained.LostAt(), LostAbstained)
	}
	if abstained.Route != "vector" || abstained.Retrieval != nodes.RetrievalEmpty || abstained.Measured != "evidence 0.40, missing quokkad" {
		t.Errorf("route %q, retrieval %q, measured %q: want the run's last route and evaluate's judgement", abstained.Route, abstained.Retrieval, abstained.Measured)
	}
	f := docsFigures("all", []DocsResult{{GoldInHits: true, PassageInHits: true, PassageKept: true, Words: 10}, {GoldInHits: true, PassageInHits: true, Words: 30}, {Words: 20}, {Abstained: true}})
	if f.PassageRetrieved != 0.5 || f.PassageKept != 0.25 || f.MedianWords != 20 {
		t.Errorf("passage retrieved %v, kept %v, median words %d; want 0.5, 0.25, 20", f.PassageRetrieved, f.PassageKept, f.MedianWords)
	}
	if want := map[string]int{LostQuoted: 1, LostKept: 1, LostFile: 1, LostAbstained: 1}; !maps.Equal(f.Lost, want) {
		t.Errorf("lost %v, want %v", f.Lost, want)
	}
}

// An answerable question whose gold file is not installed is left out and
// named, not scored as a miss; one to abstain on is asked whatever is
// installed, and a question of a collection left out is not asked.
func TestAskableLeavesOutGoldFilesNotInstalled(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "wombatd"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "wombatd", "README"), []byte("listens on port 7411\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	qs := []DocsQuestion{
		{ID: "here", Collection: "c", Question: "which port", GoldFile: "wombatd/README", Gold: "7411"},
		{ID: "gone", Collection: "c", Question: "which port", GoldFile: "numbatd/README", Gold: "7412"},
		{ID: "neg", Collection: "c", Question: "which colour", Abstain: true},
		{ID: "any", Question: "which colour", Abstain: true},
		{ID: "other", Collection: "d", Question: "which port", GoldFile: "wombatd/README", Gold: "7411"},
	}
	asked, left := askable(qs, map[string]string{"c": root})
	var ids []string
	for _, q := range asked {
		ids = append(ids, q.ID)
	}
	if want := []string{"here", "neg", "any"}; !slices.Equal(ids, want) {
		t.Errorf("asked %v; want %v", ids, want)
	}
	if want := []string{"gone"}; !slices.Equal(left, want) {
		t.Errorf("left out %v; want %v", left, want)
	}
}
