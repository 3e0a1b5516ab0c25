package nodes

import (
	"fmt"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestClosedCompounds: a question writes as two words what a file writes
// as one ("time stamp", "timestamp"; "file names", "filenames"): the
// sentence and the lines of a long function that hold the one word hold
// both of the question's.
func TestClosedCompounds(t *testing.T) {
	got := closedCompounds("Which time zone is the file-name of a zorp 2 spool in?")
	if len(got) != 1 || got[0].loose != looseStem("timezone") || got[0].first != looseStem("time") || got[0].second != looseStem("zone") {
		t.Errorf("closedCompounds = %+v, want time zone alone (no function word, digit or hyphen joined)", got)
	}

	notes := fileHit("/usr/share/doc/zorp/README", "", "Each zorp spool entry keeps the size of its frob. "+
		"The zorp daemon records a timestamp in UTC for every entry.")
	a := extractive("In which zone is the time stamp of a zorp spool entry?", []graphrag.Hit{notes}, 1)
	if !strings.Contains(a.Text, "UTC") {
		t.Errorf("answer:\n%s\nwant the sentence that writes the time stamp as one word", a.Text)
	}

	var body strings.Builder
	body.WriteString("// readSpool reads a zorp spool.\nfunc readSpool(spool string) ([]string, error) {\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&body, "\t// The zorp spool keeps frob %d here.\n\tkeep(spool, %d)\n", i, i)
	}
	body.WriteString("\t// Its filenames are read from the quill index.\n\treturn quillIndex(spool)\n}\n")
	code := codeHit("src/zorp/spool.go", 0, "zorp.readSpool", "func", body.String())
	a = extractive("Where does readSpool get a zorp spool's file names?", []graphrag.Hit{code}, 1)
	if !strings.Contains(a.Text, "quillIndex") {
		t.Errorf("answer:\n%s\nwant the window around the line that writes the file names as one word", a.Text)
	}
}
