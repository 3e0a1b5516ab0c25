package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// A glossary line ("QX: …") defines its term: asked "what is QX", the
// answer quotes it, though it has no verb; and a plural of the question's
// compound ("side-registers" for "side-register") counts once, not once
// whole and once for each part.
func TestGlossaryLineAnswersWhatItDefines(t *testing.T) {
	page := graphrag.Hit{
		Source: graphrag.Source{Path: "/doc/zorp/machine.html", Type: "html"},
		Chunk: graphrag.Chunk{Heading: "The Zorp machine > Registers", Text: "Registers\n\n" +
			"Some names, such as A0 or A1, are wired to registers of the chip.\n\n" +
			"Each side-register is kept in memory.\n\n" +
			"There are three side-registers that the assembler keeps for itself. They are not on the chip. The set of side-registers is fixed:\n\n" +
			"TQ: Tally queue: pending counts.\n\n" +
			"QX: Quick exchange base: global tables.\n\n" +
			"ZF: Zero frame: the scratch area of a routine.\n\n" +
			"Every table is written as an offset from QX. A routine's own data is an offset from ZF, unlike QX.\n\n" +
			"Jumps name a label, never an offset from QX."},
	}
	a := extractive("in zorp assembly what is the QX side-register", []graphrag.Hit{page}, 1)
	if a.Abstained || !strings.Contains(a.Text, "Quick exchange base") {
		t.Errorf("answer:\n%s\nwant the QX line", a.Text)
	}
	// The line that defines what is asked outranks prose that only
	// repeats the question's words: it is no mere label.
	sel, cands := newSelection("in zorp assembly what is the QX side-register", []graphrag.Hit{page})
	var def, prose float64
	for _, c := range cands {
		sc, _ := sel.score(c)
		switch {
		case strings.HasPrefix(c.text, "QX:"):
			def = sc
		case strings.HasPrefix(c.text, "Each side-register"):
			prose = sc
		}
	}
	if def <= prose {
		t.Errorf("the QX line scores %.2f, the prose %.2f: want the definition first", def, prose)
	}
	for line, want := range map[string]string{
		"QX: Quick exchange base: shared tables.":         "QX",
		"Read committed: the default isolation level.":    "Read committed",
		"The set of registers is fixed: see below.":       "",
		"Note that this sentence, with a comma: goes on.": "",
		"see https://example.org: the site":               "",
	} {
		got, ok := glossaryTerm(line)
		if got != want || ok != (want != "") {
			t.Errorf("glossaryTerm(%q) = %q, %v; want %q", line, got, ok, want)
		}
	}
}
