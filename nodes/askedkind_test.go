package nodes

import (
	"context"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestTheAskedKindIsLookedForInTheKeptPages: a question that asks what it
// takes to drop a frob matches the page's example best, which names the
// types the question writes; the passage that says what one must own is
// on the same page, and is read besides because no kept passage states a
// requirement.
func TestTheAskedKindIsLookedForInTheKeptPages(t *testing.T) {
	page := "/man/man7/DROP_FROB.7"
	rec := fileRecord(page)
	for i, sec := range [][2]string{
		{"NAME", "DROP FROB - remove a frob"},
		{"SYNOPSIS", "DROP FROB [ IF EXISTS ] (source_type AS target_type) [ CASCADE | RESTRICT ]"},
		{"DESCRIPTION", "DROP FROB removes a previously defined frob.\n\nTo be able to drop a frob, you must own the source or the target data type. These are the same privileges that are required to create a frob."},
		{"PARAMETERS", "IF EXISTS\n\nDo not throw an error if the frob does not exist. A notice is issued in this case.\n\nsource_type\n\nThe name of the source data type of the frob."},
		{"EXAMPLES", "To drop the frob from type quux to type zint:\n\nDROP FROB (quux AS zint);"},
		{"COMPATIBILITY", "The DROP FROB command conforms to the SQL standard."},
	} {
		rec.Chunks = append(rec.Chunks, graphrag.Chunk{ID: graphrag.ChunkID(page, i), DocID: page, Ordinal: i, Heading: sec[0], Text: sec[1]})
	}
	other := fileRecord("/man/man7/CREATE_FROB.7")
	other.Chunks = []graphrag.Chunk{{ID: graphrag.ChunkID(other.Doc.ID, 0), DocID: other.Doc.ID, Heading: "DESCRIPTION",
		Text: "CREATE FROB defines a new frob. A frob specifies how to perform a conversion between two data types."}}
	r, err := Build(Deps{Searcher: recordStore(t, []graphrag.Record{rec, other})}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), State{Query: "What ownership do I need to drop a frob such as (quux AS zint)?"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Answer.Abstained || !strings.Contains(s.Answer.Text, "you must own the source or the target") {
		t.Errorf("answer %q (%s): want what one must own", s.Answer.Text, s.Measured)
	}
}
