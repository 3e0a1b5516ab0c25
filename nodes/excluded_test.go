package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestANameTheQuestionPutsAsideDoesNotAnswerIt: "besides Zorpsum2, which
// command …" is answered by the sentence on the other command, though
// the one on Zorpsum2 holds the question's weightiest name. An action
// "besides" puts aside ("besides owning a frob") is still about what the
// question asks of.
func TestANameTheQuestionPutsAsideDoesNotAnswerIt(t *testing.T) {
	sum := fileHit("/usr/share/doc/frobtool/README", "", "The frobtool Zorpsum2 command hashes a remote repository.")
	look := fileHit("/usr/share/doc/frobtool/NEWS", "", "The zorplook command resolves a single branch of a remote repository.")
	a := extractive("Besides frobtool Zorpsum2, which command resolves a single branch of a remote repository?", []graphrag.Hit{sum, look}, 1)
	if i, j := strings.Index(a.Text, "zorplook"), strings.Index(a.Text, "Zorpsum2"); i < 0 || j >= 0 && j < i {
		t.Errorf("answer:\n%s\nwant the zorplook sentence first", a.Text)
	}
	for q, want := range map[string]string{
		"Besides Zorpsum, what second command does it add?":                           "besides second command add",
		"Besides owning a frob, what else do I need to rename it?":                    "besides owning frob else need rename",
		"Which polynomials are predefined other than IEEE?":                           "polynomials predefined",
		"Which polynomials are predefined other than IEEE, and which is the fastest?": "polynomials predefined fastest",
	} {
		var got []string
		for _, t := range withoutExcluded(q, questionTerms(q)) {
			got = append(got, t.Word)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("withoutExcluded(%q) = %q, want %q", q, got, want)
		}
	}
}
