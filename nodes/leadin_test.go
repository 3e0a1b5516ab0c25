package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestSentenceStoppingOnAWordLeadsIn: a README's sentence that stops on a
// word ("… and uncomment") before a short line of its own leads in to that
// line, which plain text does not indent, and is quoted with it; a
// sentence that ends on a web address is finished.
func TestSentenceStoppingOnAWordLeadsIn(t *testing.T) {
	readme := fileHit("/usr/share/doc/zorp/README.Debian", "", "Frob bridge\n\n"+
		"The frob bridge is off by default, as it slows down the start of zorp. "+
		"To enable the frob bridge again, edit /etc/zorp/zorp.conf and uncomment\n\n"+
		"bridge=org.Quill.FrobBridge\n\n"+
		"Restart zorp afterwards.\n")
	a := extractive("What setting has to be uncommented to enable the zorp frob bridge again?", []graphrag.Hit{readme}, 1)
	if !strings.Contains(a.Text, "uncomment\nbridge=org.Quill.FrobBridge") {
		t.Errorf("answer:\n%s\nwant the sentence with the line it leads in to", a.Text)
	}
	for text, want := range map[string]bool{
		"edit /etc/zorp/zorp.conf and uncomment":                   true,
		"zorp sources are available from https://example.org/zorp": false,
		"Restart zorp afterwards.":                                 false,
		"The default is 42":                                        false,
	} {
		if got := endsOnAWord(text); got != want {
			t.Errorf("endsOnAWord(%q) = %v, want %v", text, got, want)
		}
	}
}
