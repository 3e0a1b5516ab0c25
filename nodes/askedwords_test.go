package nodes

import (
	"slices"
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

// TestFailsFoundAsNotSucceed: a question says a command fails where the
// page says when it "will not succeed"; that sentence is quoted first,
// not the example that only repeats the names the question copied from
// it. A sentence that says the command succeeds does not say it fails.
func TestFailsFoundAsNotSucceed(t *testing.T) {
	const path = "/man/man7/DROP_FROB_LEDGER.7"
	var page []graphrag.Hit
	for _, s := range []struct{ heading, text string }{
		{"EXAMPLES", "EXAMPLES\n\nRemove the frob ledger my_ledger:\n\nDROP FROB LEDGER my_ledger;\n\n" +
			"This command will not succeed if there are any existing quill tallies that use the ledger. Add CASCADE to drop such tallies along with the ledger."},
		{"PARAMETERS > CASCADE", "CASCADE\nAutomatically drop objects that depend on the frob ledger, and in turn all objects that depend on those objects."},
		{"PARAMETERS > RESTRICT", "RESTRICT\nRefuse to drop the frob ledger while anything still relies on it. This is the default."},
		{"DESCRIPTION", "DESCRIPTION\n\nDROP FROB LEDGER drops an existing frob ledger. You must be a zorp owner to use this command."},
		{"NAME", "NAME\n\nDROP_FROB_LEDGER - remove a frob ledger"},
	} {
		h := fileHit(path, "man", s.text)
		h.Chunk.Heading = s.heading
		page = append(page, h)
	}
	a := extractive("DROP FROB LEDGER my_ledger keeps failing. Which objects usually hold it up?", page, 3)
	if !strings.HasPrefix(a.Text, "This command will not succeed if there are any existing quill tallies") {
		t.Errorf("answer does not open with the sentence that says when the drop fails:\n%s", a.Text)
	}
	q := contentTerms("why does zorpctl fail")
	if ev := measureEvidence(q, []graphrag.Hit{fileHit("/doc/zorpctl.txt", "", "zorpctl will not succeed without a lock file.")}, evidenceHits); slices.Contains(ev.Missing, "fail") {
		t.Errorf("fail missing (%v) from a passage saying will not succeed", ev.Missing)
	}
	if ev := measureEvidence(q, []graphrag.Hit{fileHit("/doc/zorpctl.txt", "", "zorpctl will succeed once a lock file exists.")}, evidenceHits); !slices.Contains(ev.Missing, "fail") {
		t.Errorf("fail found (missing %v) in a passage saying only that it succeeds", ev.Missing)
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
