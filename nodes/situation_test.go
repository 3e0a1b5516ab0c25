package nodes

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// The hits below are of a made-up spooler, zorpd.

// TestSituationWordsWeighLess: the words a question writes only to tell
// the asker's situation count half as much as those of what it asks, in
// choosing what to quote: the sentence that repeats the situation does not
// answer the question.
func TestSituationWordsWeighLess(t *testing.T) {
	notes := graphrag.Hit{
		Source: graphrag.Source{Path: "/usr/share/man/man8/zorpd.8.gz", Type: "8", Title: "zorpd"},
		Chunk: graphrag.Chunk{Heading: "NOTES", Text: "Overnight, zorpd stops writing jobs to the remote host.\n\n" +
			"Set rotate=daily to rotate the spool each day."},
	}
	q := "My zorpd stopped writing jobs overnight. Can it rotate its spool daily?"
	a := extractive(q, []graphrag.Hit{notes}, 1)
	if a.Abstained || !strings.Contains(a.Text, "rotate=daily") || strings.Contains(a.Text, "remote host") {
		t.Errorf("answer:\n%s\nwant only the sentence saying how to rotate the spool", a.Text)
	}
	weights, whole := map[string]float64{}, map[string]float64{}
	for _, tm := range situationWeighed(q, questionTerms(q)) {
		weights[tm.Word] = tm.Weight
	}
	for _, tm := range questionTerms(q) {
		whole[tm.Word] = tm.Weight
	}
	if weights["overnight"] != whole["overnight"]/2 || weights["zorpd"] != whole["zorpd"]/2 || weights["spool"] != whole["spool"] || weights["overnight"] == 0 {
		t.Errorf("weights %v of %v: want overnight and zorpd (the situation's only) at half, spool (asked too) whole", weights, whole)
	}
	bare := "Zorpd renamed its spool directory in the last release. What was it called back then?"
	if got, want := situationWeighed(bare, questionTerms(bare)), questionTerms(bare); !slices.Equal(got, want) {
		t.Errorf("an asking sentence of everyday words only: its situation is its subject, weighed whole: %v, want %v", got, want)
	}
	one := "can zorpd rotate the spool daily after it filled up overnight?"
	if got, want := situationWeighed(one, questionTerms(one)), questionTerms(one); !slices.Equal(got, want) {
		t.Errorf("a question that only asks keeps its weights: %v, want %v", got, want)
	}
}

// TestAskedOptionOfTheAskingSentence: the option a question asks about is
// the one its asking sentence writes; the one of its situation is only
// asked about when the asking sentence writes none.
func TestAskedOptionOfTheAskingSentence(t *testing.T) {
	options := graphrag.Hit{
		Source: graphrag.Source{Path: "/usr/share/man/man8/zorpd.8.gz", Type: "8", Title: "zorpd"},
		Chunk: graphrag.Chunk{Heading: "OPTIONS", Text: "--zap\nZap the lock file zorpd waits on at start, and the stale cache of its spool.\n\n" +
			"--trace\nPrint each lock zorpd waits for, with the job holding it."},
	}
	q := "I start zorpd with --zap on a stale spool and it hangs. Will --trace show me which lock it waits for?"
	a := extractive(q, []graphrag.Hit{options}, 1)
	if a.Abstained || !strings.Contains(a.Text, "Print each lock") || strings.Contains(a.Text, "Zap the") {
		t.Errorf("answer:\n%s\nwant what --trace does, not --zap", a.Text)
	}
	for q, want := range map[string]string{
		"I start zorpd with --zap and it hangs. Will --trace show me why?": "--trace",
		"I start zorpd with --zap and it hangs. Why?":                      "--zap",
		"Does --trace show why zorpd hangs with --zap?":                    "--trace --zap",
	} {
		_, opts := askedNamesAndOptions(q)
		var got []string
		for _, o := range opts {
			got = append(got, o[1])
		}
		if strings.Join(got, " ") != want {
			t.Errorf("options asked by %q: %v, want %s", q, got, want)
		}
	}
}
