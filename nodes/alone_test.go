package nodes

import (
	"context"
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
