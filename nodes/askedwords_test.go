package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestWhyIsAnsweredByAReason: a "why" question is answered by the
// sentence that gives a reason, in the plural too ("for historical
// reasons", "for backward compatibility"), over one that only shares
// more of its words.
func TestWhyIsAnsweredByAReason(t *testing.T) {
	for _, reason := range []string{"The QUILL command exists for historical reasons.", "The QUILL command is kept for backward compatibility."} {
		page := fileHit("/man/man7/QUILL.7", "man", "QUILL closes the current frob; ZORP does the same and is the standard command.\n\n"+
			reason+"\n\nQUILL takes no parameters and closes the frob like ZORP.")
		a := extractive("Why does frobdb have QUILL when ZORP already closes the frob?", []graphrag.Hit{page}, 1)
		if !strings.Contains(a.Text, reason) {
			t.Errorf("answer lacks the reason %q:\n%s", reason, a.Text)
		}
	}
}

// TestAskedWordFoundAsItsSameMeaning: the sentence that answers writes
// the question's word as another word of its group ("skip" as
// "excluded"), and is chosen over one that only names the subject.
func TestAskedWordFoundAsItsSameMeaning(t *testing.T) {
	page := fileHit("/man/man1/zorpsync.1", "man", "zorpsync copies frob archives between quill hosts and keeps their owners.\n\n"+
		"Archives whose names begin with a dot are excluded unless --all is given.\n\n"+
		"zorpsync reads its hosts from /etc/zorpsync.conf.")
	a := extractive("which archives does zorpsync skip?", []graphrag.Hit{page}, 1)
	if !strings.Contains(a.Text, "are excluded unless --all") {
		t.Errorf("answer lacks the sentence that says which archives are skipped:\n%s", a.Text)
	}
}

// TestSeveralFoundAsMultiple: a question says "several" where the page
// says "multiple"; the sentence that answers is quoted, not the page's
// other sentences about the same subject.
func TestSeveralFoundAsMultiple(t *testing.T) {
	page := fileHit("/man/man1/zorpmerge.1", "man", "NOTES\n\n"+
		"A quill named twice on the command line is an error.\n\n"+
		"zorpmerge cannot merge a quill while its frob is locked by another host.\n\n"+
		"If multiple quills carry one label, zorpmerge keeps the newest and drops the others.")
	a := extractive("when several quills share a label, which one does zorpmerge merge?", []graphrag.Hit{page}, 1)
	if !strings.Contains(a.Text, "keeps the newest") {
		t.Errorf("answer lacks the sentence about multiple quills:\n%s", a.Text)
	}
}

// TestDeclaredThenItsNeighbourThatAnswers: the option the question names
// is quoted first; a sentence of the same page that holds a word of the
// question the option's entry leaves out is more of the answer.
func TestDeclaredThenItsNeighbourThatAnswers(t *testing.T) {
	page := fileHit("/man/man1/zorpcopy.1", "man", "OPTIONS\n\n"+
		"--frob\n    Frob every quill before it is copied.\n\n"+
		"--blip\n    Print a blip for each quill copied.\n\n"+
		"NOTES\n\nTimestamps are reset on every copied quill.")
	a := extractive("what does zorpcopy --frob do to the timestamps of a quill?", []graphrag.Hit{page}, 3)
	if !strings.Contains(a.Text, "Frob every quill") || !strings.Contains(a.Text, "Timestamps are reset") {
		t.Errorf("answer lacks the option's entry or the note on timestamps:\n%s", a.Text)
	}
}
