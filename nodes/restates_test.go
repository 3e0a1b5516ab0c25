package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestSentenceThatRestatesGoesOn: a manual page's first sentence that says
// only what its title and the question say ("ALTER FROB changes the
// definition of a frob.") is quoted with the sentence after it, which
// says what can be done, though sentences further on repeat more of the
// question's words.
func TestSentenceThatRestatesGoesOn(t *testing.T) {
	page := fileHit("/usr/share/man/man7/ALTER_FROB.7.gz", "", "DESCRIPTION\n\n"+
		"ALTER FROB changes the definition of a frob. "+
		"Its single use is to hand the frob to a new keeper. "+
		"Only a zorp administrator may run ALTER FROB.\n\n"+
		"COMPATIBILITY\n\nThe SQL standard has no ALTER FROB statement.\n")
	page.Source.Title = "ALTER_FROB - change the definition of a frob"
	a := extractive("With ALTER FROB, what may I change about an existing frob?", []graphrag.Hit{page}, 3)
	if !strings.Contains(a.Text, "new keeper") {
		t.Errorf("answer:\n%s\nwant the sentence after the one that restates the question", a.Text)
	}
	title, heading := looseSet(page.Source.Title), looseSet("DESCRIPTION")
	question := looseSet("With ALTER FROB, what may I change about an existing frob?")
	for sentence, want := range map[string]bool{
		"ALTER FROB changes the definition of a frob.":        true,
		"Its single use is to hand the frob to a new keeper.": false,
		"": false,
	} {
		if got := restates(looseSet(sentence), question, title, heading); got != want {
			t.Errorf("restates(%q) = %v, want %v", sentence, got, want)
		}
	}
}
