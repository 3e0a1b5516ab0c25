package nodes

import (
	"slices"
	"testing"

	"github.com/graphrag/graphrag"
)

// A question's everyday word is found in a passage that writes another
// word of its meaning, and a spelled-out punctuation character in a
// passage that quotes the character itself.
func TestEvidenceFindsSameMeaningAndQuotedCharacters(t *testing.T) {
	q := "blorp pack leaves out my files starting with a tilde, how do I keep them"
	hits := []graphrag.Hit{
		fileHit("/doc/blorp/manual.txt", "", "When packing a folder, blorp omits the files whose names begin with ‘~’ or '#'. Name them with the keep: prefix to pack them anyway."),
	}
	ev := measureEvidence(contentTerms(q), hits, evidenceHits)
	for _, w := range []string{"starting", "tilde"} {
		if slices.Contains(ev.Missing, w) {
			t.Errorf("evidence misses %q (missing %v), which the passage holds", w, ev.Missing)
		}
	}
	// Only the quoted characters are named, and a word of another group
	// is not found.
	ev = measureEvidence(contentTerms("does blorp pack files starting with a percent sign or deleted files"), hits, evidenceHits)
	for _, w := range []string{"percent", "deleted"} {
		if !slices.Contains(ev.Missing, w) {
			t.Errorf("%q found (missing %v): the passage neither quotes %% nor says delete", w, ev.Missing)
		}
	}
	// "skips" and "omits" are one meaning too.
	ev = measureEvidence(contentTerms("which files does blorp skip"), hits, evidenceHits)
	if slices.Contains(ev.Missing, "skip") {
		t.Errorf("skip missing (%v) from a passage saying omits", ev.Missing)
	}
}

func TestQuotedPunctuation(t *testing.T) {
	for s, want := range map[string][]string{
		"names beginning with ‘.’ or ‘_’":             {"dot", "underscore"},
		`a "-" reads standard input, '/' is the root`: {"hyphen", "slash"},
		"it's a 'word' and 'x'":                       nil,
		"an unclosed '. here":                         nil,
	} {
		if got := quotedPunctuation(s); !slices.Equal(got, want) {
			t.Errorf("quotedPunctuation(%q) = %v, want %v", s, got, want)
		}
	}
}

// negatedMeanings finds a negated "succeed" in any case and form, and
// nothing in a text that does not negate it or does not hold it.
func TestNegatedMeanings(t *testing.T) {
	for text, want := range map[string][]string{
		"This command will not succeed if a frob holds the quill.":  {"fail"},
		"ZORPD WILL NEVER SUCCEED WITHOUT A LOCK.":                  {"fail"},
		"The merge doesn't succeed twice; it cannot succeed again.": {"fail"},
		"zorpd succeeds once the lock file exists.":                 nil,
		"The frob does not start on its own.":                       nil,
		"":                                                          nil,
	} {
		if got := negatedMeanings(text); !slices.Equal(got, want) {
			t.Errorf("negatedMeanings(%q) = %v, want %v", text, got, want)
		}
	}
}
