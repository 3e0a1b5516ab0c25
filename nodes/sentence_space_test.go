package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// Plain text typed the typewriter's way puts two spaces between
// sentences; a paragraph of it is prose, not a table whose rows stand
// alone.
func TestTwoSpacesBetweenSentencesAreNoTable(t *testing.T) {
	readme := "Backups\n-------\n\n" +
		"The nightly job keeps seven copies of the archive in\n" +
		"/srv/archive.  Older copies are pruned by the cleanup script, which\n" +
		"runs after it.  To keep them for longer, the following settings of\n" +
		"RETAIN_DAYS in backup.conf are understood:\n" +
		"- 14 for two weeks\n" +
		"- 30 for a month\n"
	units := splitUnits(readme, false)
	texts := unitTexts(units)
	want := "The nightly job keeps seven copies of the archive in /srv/archive."
	if !strContains(texts, want) {
		t.Errorf("sentence cut at a line break before two spaces; units:\n%s", strings.Join(texts, "\n--\n"))
	}
	lead := false
	for _, u := range units {
		lead = lead || u.lead && strings.Contains(u.text, "are understood:") && strings.Contains(u.text, "30 for a month")
	}
	if !lead {
		t.Errorf("the lead-in lost its list; units:\n%s", strings.Join(texts, "\n--\n"))
	}

	hit := fileHit("/doc/backup/README", "", readme)
	a := extractive("where does the nightly job keep the copies of the archive", []graphrag.Hit{hit}, 2)
	if !strings.Contains(a.Text, "/srv/archive") {
		t.Errorf("answer lost the end of its sentence:\n%s", a.Text)
	}

	t.Run("a real table still splits into rows", func(t *testing.T) {
		for _, row := range []string{"Name     Size", "report.txt   12 KB", "a\tb", "x | y"} {
			if !tableRow(row) {
				t.Errorf("tableRow(%q) = false", row)
			}
		}
		for _, prose := range []string{"It ends here.  Then it goes on.", `He said "stop."  Then he left.`, "Is it?  Yes."} {
			if tableRow(prose) {
				t.Errorf("tableRow(%q) = true", prose)
			}
		}
	})
}

func strContains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// A manual's term that offers alternatives in brackets ("SPIN [ FAST |
// SLOW ]") is no table row: its paragraph defines it, and the definition
// is quoted whole, with the setting its last sentence points to.
func TestSynopsisAlternativesAreNoTable(t *testing.T) {
	for _, line := range []string{"SPIN [ FAST | SLOW ]", "KEEP { ALL | NONE } ( name [ | other ] )"} {
		if tableRow(line) {
			t.Errorf("tableRow(%q) = true", line)
		}
	}
	for _, row := range []string{"| zorp | 2 |", "mode | speed", "[a] | b"} {
		if !tableRow(row) {
			t.Errorf("tableRow(%q) = false", row)
		}
	}
	page := fileHit("/usr/share/man/man7/ALTER_FROB.7.gz", "7", "DESCRIPTION\n\n"+
		"SPIN [ FAST | SLOW ]\n"+
		"These forms set how a frob turns. A stopped frob keeps its place in the queue. See also zorp_spin_policy.\n\n"+
		"RENAME\nThis form gives the frob another name.\n")
	a := extractive("Which configuration setting governs a frob's SPIN FAST or SPIN SLOW turning?", []graphrag.Hit{page}, 3)
	if !strings.Contains(a.Text, "zorp_spin_policy") {
		t.Errorf("answer:\n%s\nwant the whole definition of SPIN, with the setting it names", a.Text)
	}
}

// A manual's term line is as long as its words: the brackets, bars and
// ellipses of "KNOBS ( [ ADD | SET | DROP ] knob ['value'] [, ... ] )" are
// none, so the paragraph it opens is the term's definition, quoted whole.
func TestTermLineCountsWords(t *testing.T) {
	para := []string{"KNOBS ( [ ADD | SET | DROP ] knob ['value'] [, ... ] )", "Change the frob's knobs. ADD is assumed when no action is named."}
	if terms := definedTerms(para, true); len(terms) != 1 || terms[0] != para[0] {
		t.Errorf("definedTerms = %q, want the synopsis line", terms)
	}
	long := []string{"the frob keeps every knob it was given when it was made", "and drops none."}
	if terms := definedTerms(long, true); terms != nil {
		t.Errorf("definedTerms(%q) = %q, want none: eleven words are a sentence", long[0], terms)
	}
	page := fileHit("/usr/share/man/man7/ALTER_FROB.7.gz", "7", "PARAMETERS\n\n"+strings.Join(para, "\n")+"\n\n"+
		"new_name\nThe new name of the frob.\n")
	a := extractive("Which action does ALTER FROB KNOBS take when I write none?", []graphrag.Hit{page}, 3)
	if !strings.Contains(a.Text, "ADD is assumed") {
		t.Errorf("answer:\n%s\nwant the definition of KNOBS whole", a.Text)
	}
}
