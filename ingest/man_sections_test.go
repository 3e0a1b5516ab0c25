package ingest

import (
	"strings"
	"testing"
)

// TestManPageSections ingests PostgreSQL 15's pg_ctl(1) (testdata/man):
// the NAME line stands under its heading; the first paragraph of
// DESCRIPTION is a chunk of its own named by the page; each option is a
// chunk of its own, headed and named by its terms, with the paragraphs
// that go on describing it; an example's commands are no terms.
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
	for _, tc := range []struct{ holds, heading, symbol, also, not string }{
		{"Specifies the shutdown mode.", "OPTIONS > -m mode, --mode=mode", "-m, --mode", "-m mode\n--mode=mode\nSpecifies the shutdown mode.", "--options"},
		{"The initdb-options should usually be surrounded", "OPTIONS > -o initdb-options, --options=initdb-options", "-o, --options", "Specifies options to be passed directly to the initdb command.", "-p path"},
		{"Default limit on the number of seconds to wait", "ENVIRONMENT > PGCTLTIMEOUT", "PGCTLTIMEOUT", "PGCTLTIMEOUT\nDefault limit", "PGDATA"},
	} {
		c := chunkWith(t, page, tc.holds)
		if c.Heading != tc.heading || c.Symbol != tc.symbol || !strings.Contains(c.Text, tc.also) || strings.Contains(c.Text, tc.not) {
			t.Errorf("chunk of %q: heading %q symbol %q text %q, want heading %q symbol %q, holding %q and not %q", tc.holds, c.Heading, c.Symbol, c.Text, tc.heading, tc.symbol, tc.also, tc.not)
		}
		if c.StartLine == 0 || c.EndLine < c.StartLine {
			t.Errorf("chunk of %q: lines %d-%d", tc.holds, c.StartLine, c.EndLine)
		}
	}
	// Commands in an example are no definitions: "$ pg_ctl start" over
	// its output is not a term over its description.
	for _, c := range page.Chunks {
		if strings.Contains(c.Heading, "$ ") || strings.Contains(c.Symbol, "$ ") {
			t.Errorf("chunk headed %q (symbol %q): an example's command taken for a term", c.Heading, c.Symbol)
		}
	}
}

// TestManCodeIsNoDefinition: lines of no-fill text (.nf … .fi) are code,
// never a definition's term, however much a query and its output look
// like a term above its description.
func TestManCodeIsNoDefinition(t *testing.T) {
	page := ".TH STATS 7\n.SH NAME\nstats \\- show statistics\n.SH EXAMPLES\n.PP\nCompare the estimates:\n.sp\n.nf\n" +
		"EXPLAIN ANALYZE SELECT * FROM t3\n  Seq Scan on t3  (cost=0.00..170.00 rows=100 width=8)\n" +
		".fi\n.sp\n.nf\nEXPLAIN ANALYZE SELECT * FROM t4\n  Index Scan using t4_idx on t4  (cost=0.29..8.30 rows=1 width=8)\n.fi\n"
	l, err := loadMan(t.Context(), "stats.7", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range l.Sections {
		if s.Heading != "NAME" && s.Heading != "EXAMPLES" || s.Symbol != "" {
			t.Errorf("section headed %q (symbol %q): a query in an example taken for a term", s.Heading, s.Symbol)
		}
	}
}

// TestManCodeKeepsItsLines: a block of no-fill text of two lines or more
// is indented as code, so an answer quotes it with its line breaks; a
// one-line example stays a line of the text.
func TestManCodeKeepsItsLines(t *testing.T) {
	page := ".TH ZORP 7\n.SH NAME\nzorp \\- frob a quill\n.SH SYNOPSIS\n.sp\n.nf\nZORP name\n    [ WITH frob ]\n.fi\n" +
		".SH EXAMPLES\n.PP\nTo frob one quill:\n.sp\n.nf\nZORP quill;\n.fi\n"
	l, err := loadMan(t.Context(), "ZORP.7", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(l.Text, "\n    ZORP name\n        [ WITH frob ]\n") {
		t.Errorf("text:\n%s\nwant the synopsis indented as code, its lines kept", l.Text)
	}
	if !strings.Contains(l.Text, "\nZORP quill;") {
		t.Errorf("text:\n%s\nwant the one-line example left as a line of text", l.Text)
	}
}

// TestManPreambleIsNoText: pod2man's preamble defines strings in
// conditional blocks (".el\{\" joined with the ".ds" line after it); none
// of it is text of the page.
func TestManPreambleIsNoText(t *testing.T) {
	page := ".TH ZORPCTL 1\n.ie n \\{\\\n.    ds -- \\(*W-\n.    ds PI pi\n'br\\}\n.el\\{\\\n.    ds -- \\|\\(em\\|\n.    ds PI \\(*p\n'br\\}\n" +
		".SH NAME\nzorpctl \\- frob a running quill\n.SH DESCRIPTION\nThe quill is folded before it is frobbed.\n"
	l, err := loadMan(t.Context(), "zorpctl.1", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"ds", "PI", "—"} {
		for _, w := range strings.Fields(l.Text) {
			if w == bad {
				t.Errorf("page text holds %q from the preamble:\n%s", bad, l.Text)
			}
		}
	}
	if !strings.Contains(l.Text, "The quill is folded before it is frobbed.") {
		t.Errorf("page text lost its description:\n%s", l.Text)
	}
}

// TestManDeviceConditionals: pod2man writes each item's term twice, once
// for a terminal (".ie n .IP …") and once for a typesetter (".el .IP …"),
// and quotes it with doubled quotes ("""spool"""); the page reads as a
// terminal shows it: each term once, above its description, and the
// typesetter's spacing left out.
func TestManDeviceConditionals(t *testing.T) {
	page := ".TH ZORPCTL 1\n.SH NAME\nzorpctl \\- frob a running quill\n.SH FILES\n" +
		".ie n .IP \"\"\"spool\"\"\" 4\n.el .IP \"\\f(CWspool\\fR\" 4\n.IX Item \"spool\"\nWhere folded quills wait.\n" +
		".ie n .IP \"\\*(C`quill.opts\\*(C'\" 4\n.el .IP \"\\f(CW\\*(C`quill.opts\\*(C'\\fR\" 4\nOptions handed to the folder.\n" +
		".if t .IP \"typeset only\" 4\n.if !n .IP \"typeset too\" 4\n.if n .sp\nThe folder reads both at start.\n"
	l, err := loadMan(t.Context(), "zorpctl.1", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\"spool\"\nWhere folded quills wait.", "quill.opts\nOptions handed to the folder.", "Options handed to the folder.\n\nThe folder reads both at start."} {
		if !strings.Contains(l.Text, want) {
			t.Errorf("page text lacks %q:\n%s", want, l.Text)
		}
	}
	for _, bad := range []string{"CWspool", "typeset", "\\f"} {
		if strings.Contains(l.Text, bad) {
			t.Errorf("page text holds %q:\n%s", bad, l.Text)
		}
	}
	if n := strings.Count(l.Text, "quill.opts"); n != 1 {
		t.Errorf("quill.opts written %d times, want once:\n%s", n, l.Text)
	}
}
