package ingest

import (
	"strings"
	"testing"
)

// TestManPageSections ingests PostgreSQL 15's pg_ctl(1) (testdata/man):
// the NAME line stands under its heading; the first paragraph of
// DESCRIPTION is a chunk of its own named by the page; each option is a
// chunk of its own, headed by its terms, with the paragraphs that go on
// describing it.
func TestManPageSections(t *testing.T) {
	st, _ := ingestDir(t, "testdata/man", Options{})
	page := st.byBase(t, "pg_ctl.1.gz")
	if page.Doc.Title != "pg_ctl - initialize, start, stop, or control a PostgreSQL server" {
		t.Errorf("title %q", page.Doc.Title)
	}
	if name := chunkWith(t, page, "pg_ctl - initialize"); !strings.HasPrefix(name.Text, "NAME\n\npg_ctl - initialize") {
		t.Errorf("NAME chunk %q, want the heading on a line of its own", name.Text)
	}
	lead := chunkWith(t, page, "pg_ctl is a utility for initializing a PostgreSQL database cluster")
	if lead.Heading != "DESCRIPTION" || lead.Symbol != "pg_ctl" || strings.Contains(lead.Text, "The init or initdb mode creates a new PostgreSQL database cluster") {
		t.Errorf("description's lead: heading %q symbol %q text %q, want DESCRIPTION's first paragraph alone, named pg_ctl", lead.Heading, lead.Symbol, lead.Text)
	}
	if rest := chunkWith(t, page, "The init or initdb mode creates a new PostgreSQL database cluster"); rest.Symbol != "" || rest.Heading != "DESCRIPTION" {
		t.Errorf("the rest of DESCRIPTION: heading %q symbol %q, want DESCRIPTION unnamed", rest.Heading, rest.Symbol)
	}
	for _, tc := range []struct{ holds, heading, also, not string }{
		{"Specifies the shutdown mode.", "OPTIONS > -m mode, --mode=mode", "-m mode\n--mode=mode\nSpecifies the shutdown mode.", "--options"},
		{"The initdb-options should usually be surrounded", "OPTIONS > -o initdb-options, --options=initdb-options", "Specifies options to be passed directly to the initdb command.", "-p path"},
		{"Default limit on the number of seconds to wait", "ENVIRONMENT > PGCTLTIMEOUT", "PGCTLTIMEOUT\nDefault limit", "PGDATA"},
	} {
		c := chunkWith(t, page, tc.holds)
		if c.Heading != tc.heading || !strings.Contains(c.Text, tc.also) || strings.Contains(c.Text, tc.not) {
			t.Errorf("chunk of %q: heading %q text %q, want heading %q, holding %q and not %q", tc.holds, c.Heading, c.Text, tc.heading, tc.also, tc.not)
		}
		if c.StartLine == 0 || c.EndLine < c.StartLine {
			t.Errorf("chunk of %q: lines %d-%d", tc.holds, c.StartLine, c.EndLine)
		}
	}
}
