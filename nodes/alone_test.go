package nodes

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestGeneralKnowledgeWithoutAModelSearchesTheFiles: with no language
// model, a question the router sends to the direct route as general
// knowledge (here with the probe off, as when it finds little) is
// searched in the files all the same: they answer it when they hold the
// answer.
func TestGeneralKnowledgeWithoutAModelSearchesTheFiles(t *testing.T) {
	opts := DefaultOptions()
	opts.ProbeK = 0 // no probe: the classifier's general knowledge stands
	r, err := Build(Deps{Searcher: smallCorpus()}, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), State{Query: "can an osprey dive under water"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Alone.Text == "" {
		t.Fatalf("route %s (%s): the test needs a question the router sends to the direct route", s.Plan.Route, s.Plan.Reason)
	}
	if s.Answer.Abstained || !strings.Contains(s.Answer.Text, "dive up to one metre") {
		t.Errorf("answer %q (abstained %v; %s; %q), want the osprey passage", s.Answer.Text, s.Answer.Abstained, s.Measured, s.Notes)
	}
	if s.Plan.Route != graphrag.RouteVector {
		t.Errorf("route %s after the search, want vector", s.Plan.Route)
	}
}

// TestARequestToActSearchesTheManuals: a request to act over manuals is
// how one asks them how to do it; the files are searched, and the answer
// says what they say about doing it. graphrag did not do it, and
// AnsweredARequestToAct says so.
func TestARequestToActSearchesTheManuals(t *testing.T) {
	st := docStore(t, map[string]string{
		"/man/man7/TRUNCATE.7": "TRUNCATE - empty a table or set of tables\n\nRESTART IDENTITY\n    Automatically restart sequences owned by columns of the truncated table(s).\n\nCONTINUE IDENTITY\n    Do not change the values of sequences. This is the default.",
		"/man/man7/DELETE.7":   "DELETE - delete rows of a table\n\nDELETE deletes rows that satisfy the WHERE clause from the specified table.",
		"/man/man7/VACUUM.7":   "VACUUM - garbage-collect and optionally analyze a database",
	}, nil)
	r, err := Build(Deps{Searcher: st}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	q := "truncate a table and reset its identity / serial counter back to the start"
	s, err := r.Invoke(context.Background(), State{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	if s.Alone.Text != msgCannotAct {
		t.Fatalf("route %s, kind %q (%s): the test needs a query the router takes for a request to act", s.Plan.Route, s.Plan.Kind, s.Plan.Reason)
	}
	if s.Answer.Abstained || !strings.Contains(s.Answer.Text, "RESTART IDENTITY") || !AnsweredARequestToAct(s) {
		t.Errorf("answer %q (abstained %v; %s): want TRUNCATE's RESTART IDENTITY, flagged as a request graphrag did not carry out", s.Answer.Text, s.Answer.Abstained, s.Measured)
	}
}

// TestCaveatsSayWhatTheAnswerIsNot: every front end shows an answer with
// the same caveats: low confidence, out of date with web search off, or
// about how to do what graphrag was asked to do. An abstention has none.
func TestCaveatsSayWhatTheAnswerIsNot(t *testing.T) {
	s := State{Answer: graphrag.Answer{Text: "TRUNCATE … RESTART IDENTITY [1]", LowConfidence: true}, Alone: graphrag.Answer{Text: msgCannotAct}}
	s.Plan.Reason = "classifier: web 0.9; " + reasonWebOff
	if got := Caveats(s); !slices.Equal(got, []string{caveatLowConfidence, caveatWebOff, caveatNotDone}) {
		t.Errorf("caveats %q", got)
	}
	s.Answer.Abstained = true
	if got := Caveats(s); got != nil {
		t.Errorf("an abstention's caveats %q, want none", got)
	}
}
