package nodes

import (
	"context"
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
	page := "/man/man7/RETIRE_FROB.7"
	rec := fileRecord(page)
	for i, sec := range [][2]string{
		{"NAME", "RETIRE FROB - retire a frob"},
		{"SYNOPSIS", "RETIRE FROB [ QUIETLY ] (input_type AS output_type) [ WITH ZORPS | ALONE ]"},
		{"DESCRIPTION", "RETIRE FROB retires a previously made frob.\n\nTo retire one, a role must own the input or the output data type. These are the same privileges that making one calls for."},
		{"PARAMETERS", "QUIETLY\n\nDo not complain when the frob is already retired. A notice is shown instead.\n\ninput_type\n\nThe name of the data type the frob reads."},
		{"EXAMPLES", "To retire the frob from type quux to type zint:\n\nRETIRE FROB (quux AS zint);"},
		{"COMPATIBILITY", "RETIRE FROB is a Zorpbase extension."},
	} {
		rec.Chunks = append(rec.Chunks, graphrag.Chunk{ID: graphrag.ChunkID(page, i), DocID: page, Ordinal: i, Heading: sec[0], Text: sec[1]})
	}
	other := fileRecord("/man/man7/MAKE_FROB.7")
	other.Chunks = []graphrag.Chunk{{ID: graphrag.ChunkID(other.Doc.ID, 0), DocID: other.Doc.ID, Heading: "DESCRIPTION",
		Text: "MAKE FROB makes a new frob. A frob turns values of one kind into another."}}
	r, err := Build(Deps{Searcher: recordStore(t, []graphrag.Record{rec, other})}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), State{Query: "Which ownership is needed for retiring a frob such as (quux AS zint)?"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Answer.Abstained || !strings.Contains(s.Answer.Text, "a role must own the input or the output data type") {
		t.Errorf("answer %q (%s): want what one must own", s.Answer.Text, s.Measured)
	}
}
