package ingest

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// chunkWith returns the first chunk holding s.
func chunkWith(t *testing.T, r graphrag.Record, s string) graphrag.Chunk {
	t.Helper()
	for _, c := range r.Chunks {
		if strings.Contains(c.Text, s) {
			return c
		}
	}
	t.Fatalf("no chunk of %s holds %q", r.Doc.Path, s)
	return graphrag.Chunk{}
}

// TestMarkdownSections: a Markdown chunk knows its heading path and lines;
// a heading with nothing under it but a subheading is not a chunk of its
// own; a fenced code block with blank lines stays whole and keeps its
// newlines.
func TestMarkdownSections(t *testing.T) {
	st, _ := ingestDir(t, "testdata/docs", Options{})
	r := st.byBase(t, "guide.md")
	tests := []struct {
		holds, heading string
		start, end     int
	}{
		{"A short guide to burrowing", "Field guide", 1, 3},
		{"The predeclared marmots are alpine", "Field guide > Identifiers > Predeclared marmots", 5, 10},
		{"burrow-restore -d field --clean dump.file\n\nburrow-check field", "Field guide > Restore", 12, 26},
	}
	for _, tc := range tests {
		c := chunkWith(t, r, tc.holds)
		if c.Heading != tc.heading || c.Kind != KindSection || c.StartLine != tc.start || c.EndLine != tc.end {
			t.Errorf("%q: heading %q kind %q lines %d-%d, want %q section %d-%d", tc.holds, c.Heading, c.Kind, c.StartLine, c.EndLine, tc.heading, tc.start, tc.end)
		}
	}
	for _, c := range r.Chunks {
		if strings.TrimSpace(strings.TrimLeft(c.Text, "#")) == "Identifiers" {
			t.Errorf("chunk %d is a bare heading", c.Ordinal)
		}
	}
	c := chunkWith(t, r, "The predeclared marmots")
	if !strings.HasPrefix(c.Text, "## Identifiers\n\n### Predeclared marmots\n\nThe predeclared") {
		t.Errorf("the bare heading should lead the next section: %q", c.Text)
	}
}

// TestLeadInStaysWithWhatFollows: when a section is cut, a paragraph that
// ends with ':' goes into the chunk of the code block or list after it,
// and a list is cut between items, not inside one.
func TestLeadInStaysWithWhatFollows(t *testing.T) {
	st, _ := ingestDir(t, "testdata/docs", Options{ChunkSize: 120, ChunkOverlap: 0})
	r := st.byBase(t, "guide.md")
	code := chunkWith(t, r, "burrow-restore -d field")
	if !strings.Contains(code.Text, "To restore a burrow from a custom-format dump, run:") {
		t.Errorf("lead-in cut away from its command: %q", code.Text)
	}
	list := chunkWith(t, r, "--clean` removes")
	if !strings.Contains(list.Text, "Options:") || !strings.Contains(list.Text, "before restoring it.") {
		t.Errorf("list item or its lead-in cut: %q", list.Text)
	}
	for _, c := range r.Chunks {
		if strings.HasSuffix(strings.TrimSpace(c.Text), ":") {
			t.Errorf("chunk %d ends with a lead-in: %q", c.Ordinal, c.Text)
		}
		if len([]rune(c.Text)) > 120 {
			t.Errorf("chunk %d over the size: %d runes", c.Ordinal, len([]rune(c.Text)))
		}
	}
}

// TestRSTSections: reStructuredText titles (underlined, or over- and
// underlined) give the heading path, levels by first appearance.
func TestRSTSections(t *testing.T) {
	st, _ := ingestDir(t, "testdata/docs", Options{})
	r := st.byBase(t, "manual.rst")
	for holds, heading := range map[string]string{
		"Burrows are dug by hand.": "Burrow manual",
		"Dig with care.":           "Burrow manual > Digging",
		"spade --deep":             "Burrow manual > Digging > Tools",
		"Fill the burrow.":         "Burrow manual > Filling",
	} {
		if c := chunkWith(t, r, holds); c.Heading != heading {
			t.Errorf("%q: heading %q, want %q", holds, c.Heading, heading)
		}
	}
	if c := chunkWith(t, r, "Use a spade::"); !strings.Contains(c.Text, "    spade --deep") {
		t.Errorf("literal block lost its indentation or lead-in: %q", c.Text)
	}
}
