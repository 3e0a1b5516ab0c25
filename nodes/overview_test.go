package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

func TestAsksOverview(t *testing.T) {
	for q, want := range map[string]bool{
		"what is pg_rewind for":                       true,
		"what does pg_checksums do":                   true,
		"what does pg_controldata show":               true,
		"what does pg_dumpall write out":              true,
		"what is EXPLAIN":                             true,
		"what does EXPLAIN ANALYZE do":                false, // a parameter of EXPLAIN
		"which shutdown modes does pg_ctl support":    false,
		"what is the default shutdown mode of pg_ctl": false,
		"how do I use pg_rewind":                      false,
	} {
		if got := asksOverview(q); got != want {
			t.Errorf("asksOverview(%q) = %v, want %v", q, got, want)
		}
	}
}

// "What does X do" asked of a manual page is answered by what the page
// says X is and does: the first paragraph of its DESCRIPTION (a chunk
// ingest names by the page) and its NAME line, not the usage line nor the
// short paragraph of an option that says X's name once in few words.
func TestOverviewAnswersFromTheDescription(t *testing.T) {
	const path = "/man/man1/pg_checksums.1.gz"
	const title = "pg_checksums - enable, disable or check data checksums in a PostgreSQL database cluster"
	hit := func(ordinal int, heading, symbol, text string) graphrag.Hit {
		h := fileHit(path, "man", text)
		h.Chunk.ID, h.Chunk.Ordinal, h.Chunk.Heading, h.Chunk.Symbol, h.Source.Title = graphrag.ChunkID(path, ordinal), ordinal, heading, symbol, title
		return h
	}
	hits := []graphrag.Hit{
		hit(1, "SYNOPSIS", "", "SYNOPSIS\n\npg_checksums [option...] [[-D | --pgdata]datadir]"),
		hit(10, "OPTIONS > -V, --version", "", "-V\n--version\nPrint the pg_checksums version and exit."),
		hit(0, "NAME", "", "NAME\n\n"+title),
		hit(2, "DESCRIPTION", "pg_checksums", "DESCRIPTION\n\npg_checksums checks, enables or disables data checksums in a PostgreSQL cluster. "+
			"The server must be shut down cleanly before running pg_checksums."),
	}
	q := "what does pg_checksums do"
	if kept, _, _ := gradeByConstraints(q, hits, hits, RetrievalGood, 5); kept[0].Chunk.Symbol != "pg_checksums" {
		t.Errorf("kept first %s (%s), want the description's lead", kept[0].Chunk.ID, kept[0].Chunk.Heading)
	}
	// The answer, from the hits in the store's order.
	a := extractive(q, hits, 3)
	if !strings.Contains(a.Text, "pg_checksums checks, enables or disables data checksums") || !strings.Contains(a.Text, "pg_checksums - enable, disable or check") {
		t.Errorf("answer:\n%s\nwant the description and the NAME line", a.Text)
	}
	for _, n := range []string{"[option...]", "Print the pg_checksums version"} {
		if strings.Contains(a.Text, n) {
			t.Errorf("answer quotes %q:\n%s", n, a.Text)
		}
	}
}
