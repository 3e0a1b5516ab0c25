package nodes

import (
	"testing"

	"github.com/graphrag/graphrag"
)

// Code names what it declares in identifiers: the words of a chunk's
// symbol are words of the chunk; names used in its body are not split.
func TestEvidenceReadsTheDeclaredIdentifier(t *testing.T) {
	h := graphrag.Hit{
		Source: graphrag.Source{Path: "/src/brew/kettle.go", Type: "go"},
		Chunk:  graphrag.Chunk{Kind: "func", Symbol: "brew.SteepGreenLeaf", Text: "func SteepGreenLeaf(d time.Duration) error {\n\treturn steep(norwayTable, d)\n}"},
	}
	w := hitWordsOf(h)
	for _, word := range []string{"steep", "green", "leaf", "brew"} {
		if !w.has(term{Stem: stem(word), Word: word}) {
			t.Errorf("the hit does not hold %q", word)
		}
	}
	if w.has(term{Stem: stem("norway"), Word: "norway"}) {
		t.Error("a name used in the body (norwayTable) made the hit hold \"norway\"")
	}
}

// A request to act opens as the training data's requests do; search words
// open with a noun no request opens with.
func TestOpensLikeRequest(t *testing.T) {
	for q, want := range map[string]bool{
		"delete the cache folder":    true,
		"please archive my invoices": true,
		"i need to rename these":     true,
		"kettle steep timeout":       false,
		"http server shutdown":       false,
		"filepath walk":              false,
		// Longer: a request names its object after its first word or two,
		// a noun phrase after a preposition.
		"zorp the frob report to my team before friday":  true,
		"flip on the frob heater in the kitchen tonight": true,
		"default size of a zorp buffer in frobdb":        false,
		"size limit of the zorp queue per frob worker":   false,
	} {
		if got := opensLikeRequest(q); got != want {
			t.Errorf("opensLikeRequest(%q) = %v, want %v", q, got, want)
		}
	}
}
