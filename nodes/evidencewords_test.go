package nodes

import (
	"slices"
	"testing"

	"github.com/graphrag/graphrag"
)

// A question's hyphenated word is found in a passage holding its parts,
// and an inflected word in one holding another form of it.
func TestEvidenceFindsWordsByPartsAndLooseForms(t *testing.T) {
	q := "zorp deep-clean deleted my old snapshots, how do I keep them"
	hits := []graphrag.Hit{
		fileHit("/doc/zorp/NEWS", "", "zorp {quick,deep}-clean now deletes snapshots older than a week. Set Zorp::Clean::KeepSnapshots to true to keep them."),
	}
	ev := measureEvidence(contentTerms(q), hits, evidenceHits)
	for _, w := range []string{"deep-clean", "deleted"} {
		if slices.Contains(ev.Missing, w) {
			t.Errorf("evidence misses %q (missing %v), which the passage holds", w, ev.Missing)
		}
	}
	// Both parts are needed.
	ev = measureEvidence(contentTerms("what does zorp half-clean do"), hits, evidenceHits)
	if !slices.Contains(ev.Missing, "half-clean") {
		t.Errorf("half-clean found (missing %v): the passage has clean but not half", ev.Missing)
	}
}
