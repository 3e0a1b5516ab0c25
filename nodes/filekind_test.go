package nodes

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// A question for a file asks for the file kind of answer; one that asks
// about a file, or names a file system, does not.
func TestFileKindAsked(t *testing.T) {
	for _, tc := range []struct {
		question string
		want     bool
	}{
		{"Which header was frob.Sqrt based on?", true},
		{"what file does zorp write its report to if no browser opens?", true},
		{"On Frobix, which file paths are read by the zone package?", true},
		{"What must the file declare before the directive is accepted?", false},
		{"Which file system does zorpd need for its spool?", false},
		{"Can zorpd rotate its own log?", false},
	} {
		got := slices.ContainsFunc(askedKinds(tc.question), func(k askKind) bool { return k.name == "file" })
		if got != tc.want {
			t.Errorf("%q: asks for a file %v, want %v", tc.question, got, tc.want)
		}
	}
}

// A unit names a file by a name with a file's extension or by a path; a
// qualified Go name or a version is no file.
func TestFileKindHeld(t *testing.T) {
	kind := askKinds[slices.IndexFunc(askKinds, func(k askKind) bool { return k.name == "file" })]
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"The original C code is from FreeBSD's e_frob.c.", true},
		{"The module is named in go.mod.", true},
		{"It reads /etc/zorp/rules at start.", true},
		{"Use frob.Sqrt instead; it was added in 1.21.", false},
		{"See https://example.com/zorp for details.", false},
	} {
		if got := kind.in(tc.text); got != tc.want {
			t.Errorf("%q names a file: %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestFileKindAnswers: asked which file a daemon reads when the kernel
// cuts a name short, the sentences that describe the cut match the
// question's words best; the answer goes on to the sentence after them,
// which names the file and no word of the question.
func TestFileKindAnswers(t *testing.T) {
	page := "/usr/share/doc/zorpd/README"
	rec := fileRecord(page)
	for i, text := range []string{
		"When the kernel cuts the spool name short, the zorpd daemon reads the spool name again. The zorpd daemon warns about a cut spool name. Queues stay in memory. The spool name is kept in /var/lib/zorpd/spoolname.",
		"zorpd keeps its queue in memory and writes it out when it stops.",
	} {
		rec.Chunks = append(rec.Chunks, graphrag.Chunk{ID: graphrag.ChunkID(page, i), DocID: page, Ordinal: i, Text: text})
	}
	r, err := Build(Deps{Searcher: recordStore(t, []graphrag.Record{rec})}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), State{Query: "When the kernel cuts the spool name short, which file does the zorpd daemon read the spool name from?"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Answer.Abstained || !strings.Contains(s.Answer.Text, "/var/lib/zorpd/spoolname") {
		t.Errorf("answer %q (%s): want the file", s.Answer.Text, s.Measured)
	}
}
