package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestWhoPrefersTheAgent: a "who" question is answered by the unit that
// names someone as who did something (by, an author line, an e-mail
// address), not by the first capitalised pair (a server's name), which
// the question's words match as well.
func TestWhoPrefersTheAgent(t *testing.T) {
	readme := fileHit("/usr/share/doc/frobnicate/README", "", "frobnicate\n==========\n\n"+
		"The frobnicate sources live in the Example Forge Git repository; frobnicate releases are signed.\n\n"+
		"frobnicate was written by Ada Quill, with patches from many others.\n")
	a := extractive("who wrote frobnicate", []graphrag.Hit{readme}, 1)
	if !strings.Contains(a.Text, "Ada Quill") {
		t.Errorf("answer:\n%s\nwant the sentence naming the author", a.Text)
	}
	// Asked who does something else than make the work, the words of the
	// question choose: "by" names the typesetter, not who signs.
	notes := fileHit("/usr/share/doc/frobnicate/NOTES", "", "Release Manager Ada Quill signs the frobnicate releases.\n\n"+
		"The frobnicate manual was typeset by Ben Stone.\n")
	if a := extractive("who signs the frobnicate releases", []graphrag.Hit{notes}, 1); !strings.Contains(a.Text, "Ada Quill signs") {
		t.Errorf("answer:\n%s\nwant the sentence the question's words choose", a.Text)
	}
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Written by Ada Quill.", true},
		{"Maintainer: Ada Quill", true},
		{"Ada Quill <ada@example.org>", true},
		{"The sources live in the Example Forge Git repository.", false},
	} {
		if got := namesAgent(tc.text); got != tc.want {
			t.Errorf("namesAgent(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
