package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestANameTheQuestionPutsAsideDoesNotAnswerIt: "besides Zorpsum2, which
// command …" is answered by the sentence on the other command, though
// the one on Zorpsum2 holds the question's weightiest name: a name put
// aside weighs as an everyday word. An action put aside ("besides owning
// a frob") is still about what the question asks of, and the clause
// that asks is not put aside ("apart from its spooler which daemon does
// zorpd start").
func TestANameTheQuestionPutsAsideDoesNotAnswerIt(t *testing.T) {
	sum := fileHit("/usr/share/doc/frobtool/README", "", "The frobtool Zorpsum2 command hashes a remote repository.")
	look := fileHit("/usr/share/doc/frobtool/NEWS", "", "The zorplook command resolves a single branch of a remote repository.")
	a := extractive("Besides frobtool Zorpsum2, which command resolves a single branch of a remote repository?", []graphrag.Hit{sum, look}, 1)
	if i, j := strings.Index(a.Text, "zorplook"), strings.Index(a.Text, "Zorpsum2"); i < 0 || j >= 0 && j < i {
		t.Errorf("answer:\n%s\nwant the zorplook sentence first", a.Text)
	}
	// The words each question puts aside, weighed as everyday words.
	for q, want := range map[string]string{
		"Besides Zorpsum, what second command does it add?":                           "zorpsum",
		"Besides owning a frob, what must a role hold to alter its frobs?":            "",
		"Which polynomials are predefined other than IEEE, and which is the fastest?": "ieee",
		"Apart from its spooler which daemon does Zorpman start?":                     "spooler",
	} {
		var got []string
		for _, t := range excludedWeighed(q, questionTerms(q)) {
			if t.Weight <= everydayWeight && !generalWords[t.Word] {
				got = append(got, t.Word)
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("excludedWeighed(%q) weighs %q as everyday words, want %q", q, got, want)
		}
	}
}
