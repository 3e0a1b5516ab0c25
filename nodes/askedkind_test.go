package nodes

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestTheAskedKindIsLookedForInTheKeptPages: a question that asks what it
// takes to retire a frob matches the page's example best, which names the
// types the question writes; the passage that says what one must own is
// on the same page, and is read besides because no kept passage states a
// requirement.
func TestTheAskedKindIsLookedForInTheKeptPages(t *testing.T) {
	s := askFrobPages(t, "/man/man7/RETIRE_FROB.7", [][2]string{
		{"NAME", "RETIRE FROB - retire a frob"},
		{"SYNOPSIS", "RETIRE FROB [ QUIETLY ] (input_type AS output_type) [ WITH ZORPS | ALONE ]"},
		{"DESCRIPTION", "RETIRE FROB retires a previously made frob.\n\nTo retire one, a role must own the input or the output data type. These are the same privileges that making one calls for."},
		{"PARAMETERS", "QUIETLY\n\nDo not complain when the frob is already retired. A notice is shown instead.\n\ninput_type\n\nThe name of the data type the frob reads."},
		{"EXAMPLES", "To retire the frob from type quux to type zint:\n\nRETIRE FROB (quux AS zint);"},
		{"COMPATIBILITY", "RETIRE FROB is a Zorpbase extension."},
	}, "Which ownership is needed for retiring a frob such as (quux AS zint)?")
	if s.Answer.Abstained || !strings.Contains(s.Answer.Text, "a role must own the input or the output data type") {
		t.Errorf("answer %q (%s): want what one must own", s.Answer.Text, s.Measured)
	}
}

// TestTheAskedDefaultIsLookedForInTheKeptPages: asked which mode a
// command takes when no mode is given, the page's examples and notes
// match best; the passage whose sentence states the default mode is on
// the same page and is read besides. The default of another parameter,
// stated in a sentence that names none of the question's words, is not.
func TestTheAskedDefaultIsLookedForInTheKeptPages(t *testing.T) {
	s := askFrobPages(t, "/man/man7/HALT_FROB.7", [][2]string{
		{"NAME", "HALT FROB - halt a frob"},
		{"SYNOPSIS", "HALT FROB name [ IN haltmode MODE ] [ WAIT seconds ]"},
		{"DESCRIPTION", "HALT FROB halts a running frob and keeps it halted until the end of the session."},
		{"WAIT", "seconds\n\nHow long HALT FROB waits for the frob. The default is 30 seconds."},
		{"HALTMODE", "haltmode\n\nThe halt mode says how the frob stops. If no halt mode is specified, then SOFT, the gentlest mode, is used."},
		{"EXAMPLES", "Halt the frob quux in the HARD mode before a reload, with the IN ... MODE part:\n\nHALT FROB quux IN HARD MODE;"},
		{"EXAMPLES", "Halt the frob zint in the FAST mode with the IN ... MODE part:\n\nHALT FROB zint IN FAST MODE;"},
		{"NOTES", "HALT FROB in the HARD mode drops the frob's pending zorps; the IN ... MODE part names the mode."},
		{"NOTES", "A frob halted by HALT FROB in the FAST mode keeps its zorps; the mode clause comes before WAIT."},
		{"NOTES", "HALT FROB in the HARD mode or the FAST mode needs the IN ... MODE part and a frob that runs."},
		{"COMPATIBILITY", "The IN ... MODE part of HALT FROB is a Zorpbase extension, and so is the HARD mode."},
	}, "Which mode does HALT FROB use if I omit the IN ... MODE part?")
	var kept []string
	for _, h := range s.Kept {
		kept = append(kept, h.Chunk.Text)
	}
	all := strings.Join(kept, "\n")
	if !strings.Contains(all, "If no halt mode is specified") || strings.Contains(all, "The default is 30 seconds") {
		t.Errorf("kept %q (%s): want the passage that states the default mode, and not the default wait", kept, s.Measured)
	}
}

// A sentence states the default asked about when it names what the
// question asks the default of; the default of another parameter in the
// same passage does not.
func TestStatesDefaultOf(t *testing.T) {
	kind := askKinds[slices.IndexFunc(askKinds, func(k askKind) bool { return k.name == "default" })]
	terms := contentTerms("Which mode does HALT FROB use if I omit the IN ... MODE part?")
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"The halt mode says how the frob stops. If no halt mode is specified, then SOFT is used.", true},
		{"How long HALT FROB waits for the frob in any mode. The default is 30 seconds.", false},
		{"HALT FROB halts the frob in the HARD mode.", false},
	} {
		if got := statesDefaultOf(kind, tc.text, terms); got != tc.want {
			t.Errorf("statesDefaultOf(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// askFrobPages asks question of a store holding a manual page of the
// given sections (heading and text, one passage each) and another page,
// MAKE_FROB.7, about something else.
func askFrobPages(t *testing.T, page string, sections [][2]string, question string) State {
	t.Helper()
	rec := fileRecord(page)
	for i, sec := range sections {
		rec.Chunks = append(rec.Chunks, graphrag.Chunk{ID: graphrag.ChunkID(page, i), DocID: page, Ordinal: i, Heading: sec[0], Text: sec[1]})
	}
	other := fileRecord("/man/man7/MAKE_FROB.7")
	other.Chunks = []graphrag.Chunk{{ID: graphrag.ChunkID(other.Doc.ID, 0), DocID: other.Doc.ID, Heading: "DESCRIPTION",
		Text: "MAKE FROB makes a new frob. A frob turns values of one kind into another."}}
	r, err := Build(Deps{Searcher: recordStore(t, []graphrag.Record{rec, other})}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), State{Query: question})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// An option the question names mid-sentence ("if I omit -base") is
// the option itself, not the space before it: the passage whose usage line
// names -base and whose next sentence states the default answers.
func TestTheDefaultOfAnOptionNamedMidSentence(t *testing.T) {
	if got := namedSettings("Which folder does zorpscan read if I omit -base or zorp_dir?"); !slices.Equal(got, []string{"zorp_dir", "-base"}) {
		t.Errorf("namedSettings = %q, want [zorp_dir -base]", got)
	}
	s := askFrobPages(t, "/man/man1/zorpscan.1", [][2]string{
		{"NAME", "zorpscan - print the headings of frob files"},
		{"DESCRIPTION", "Usage: zorpscan [-base base_directory]\n\nBy default, the /srv/zorp directory is scanned."},
	}, "Which folder does zorpscan read if I omit -base?")
	if s.Answer.Abstained || !strings.Contains(s.Answer.Text, "/srv/zorp") {
		t.Errorf("answer %q (%s): want the default directory", s.Answer.Text, s.Measured)
	}
}
