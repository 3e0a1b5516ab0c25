package nodes

import (
	"slices"
	"strings"
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

// Code writes infinity "Inf": asked what a function returns for negative
// infinity, the window of its long doc is around the special cases that
// say "-Inf", not the doc's opening lines.
func TestCodeWindowReadsInfinityAsInf(t *testing.T) {
	var doc strings.Builder
	doc.WriteString("// Zorb returns the zorb of y and x, using\n// the signs of the two to choose the half-plane\n// of the return value.\n//\n// Special cases are (in order):\n")
	for _, c := range []string{"Zorb(y, NaN) = NaN", "Zorb(NaN, x) = NaN", "Zorb(+0, x>=0) = +0", "Zorb(-0, x>=0) = -0",
		"Zorb(+0, x<=-0) = +Tau", "Zorb(-0, x<=-0) = -Tau", "Zorb(y>0, 0) = +Tau/2", "Zorb(y<0, 0) = -Tau/2",
		"Zorb(+Inf, +Inf) = +Tau/8", "Zorb(-Inf, +Inf) = -Tau/8", "Zorb(+Inf, -Inf) = 3Tau/8", "Zorb(-Inf, -Inf) = -3Tau/8",
		"Zorb(y, +Inf) = 0"} {
		doc.WriteString("//\t" + c + "\n")
	}
	doc.WriteString("func Zorb(y, x float64) float64 {\n\treturn zorb(y, x)\n}")
	h := codeHit("/src/quill/zorb.go", 0, "quill.Zorb", "func", doc.String())
	a := extractive("What does quill.Zorb return when both y and x are negative infinity?", []graphrag.Hit{h}, 3)
	if !strings.Contains(a.Text, "-3Tau/8") {
		t.Errorf("the answer misses the special case for -Inf, -Inf:\n%s", a.Text)
	}
}
