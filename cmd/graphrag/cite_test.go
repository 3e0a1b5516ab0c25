package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
)

func TestShowCitationPrintsTheCitedLines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "reader.go")
	src := "package strings\n\n// NewReader returns a new [Reader] reading from s.\nfunc NewReader(s string) *Reader {\n\treturn &Reader{s, 0, -1}\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	quote := "// NewReader returns a new [Reader] reading from s.\nfunc NewReader(s string) *Reader {\n\treturn &Reader{s, 0, -1}\n}"
	hit := graphrag.Hit{Chunk: graphrag.Chunk{ID: path + "#0", Text: src, Symbol: "strings.NewReader"}, Source: graphrag.Source{Path: path, Type: "go"}}
	c := graphrag.Citation{N: 1, Hit: hit, Quote: quote}
	if s, e := citedLines(c, []byte(src)); s != 3 || e != 6 {
		t.Errorf("cited lines %d-%d, want 3-6", s, e)
	}
	if d := describeCitation(c, []byte(src)); !strings.HasSuffix(d, "reader.go:3-6 (strings.NewReader)") {
		t.Errorf("described as %q", d)
	}
	var b strings.Builder
	st := nodes.State{Answer: graphrag.Answer{Citations: []graphrag.Citation{c}}}
	if err := showCitation(&b, st, 1); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "     4  func NewReader(s string) *Reader {") {
		t.Errorf("--show printed:\n%s", b.String())
	}
	if err := showCitation(&b, st, 2); err == nil || !strings.Contains(err.Error(), "[1] to [1]") {
		t.Errorf("showing [2] of one source: %v", err)
	}
}

func TestShowCitationOfACompressedFileShowsThePassage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pg_restore.1.gz")
	if err := os.WriteFile(path, []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03binary"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "To drop the database and recreate it from the dump:\n$ pg_restore -C -d postgres db.dump"
	hit := graphrag.Hit{Chunk: graphrag.Chunk{Text: text, Heading: "EXAMPLES", StartLine: 780, EndLine: 790}, Source: graphrag.Source{Path: path, Type: "1"}}
	var b strings.Builder
	if err := showCitation(&b, nodes.State{Answer: graphrag.Answer{Citations: []graphrag.Citation{{N: 1, Hit: hit}}}}, 1); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "pg_restore -C -d postgres db.dump") || !strings.Contains(b.String(), ":780-790 (EXAMPLES)") {
		t.Errorf("--show printed:\n%s", b.String())
	}
}

// A Latin-1 file is read as ingest read it: its cited lines are found and
// shown in UTF-8.
func TestShowCitationOfALatin1File(t *testing.T) {
	path := filepath.Join(t.TempDir(), "NOTES")
	src := "Notes\n\nLe caf\xe9 ouvre \xe0 8 h.\nLa cr\xe8me br\xfbl\xe9e est maison.\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	passage := "Le café ouvre à 8 h.\nLa crème brûlée est maison."
	hit := graphrag.Hit{Chunk: graphrag.Chunk{Text: passage}, Source: graphrag.Source{Path: path, Type: "txt"}}
	var b strings.Builder
	if err := showCitation(&b, nodes.State{Answer: graphrag.Answer{Citations: []graphrag.Citation{{N: 1, Hit: hit, Quote: passage}}}}, 1); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "NOTES:3-4") || !strings.Contains(b.String(), "     4  La crème brûlée est maison.") {
		t.Errorf("--show printed:\n%s", b.String())
	}
}

// A citation of text that other files hold word for word names them.
func TestDescribeCitationNamesTheCopies(t *testing.T) {
	dir := t.TempDir()
	hit := graphrag.Hit{Chunk: graphrag.Chunk{ID: "a#0", Text: "zorpkit (2.4-1) unstable"},
		Source: graphrag.Source{Path: filepath.Join(dir, "zorpkit/changelog")},
		Copies: []graphrag.Source{{Path: filepath.Join(dir, "libzorpkit3/changelog")}}}
	d := describeCitation(graphrag.Citation{N: 1, Hit: hit}, nil)
	if !strings.HasSuffix(d, "; the same text is in "+displayRel(filepath.Join(dir, "libzorpkit3/changelog"))) {
		t.Errorf("described as %q", d)
	}
	hit.Copies = nil
	if d := describeCitation(graphrag.Citation{N: 1, Hit: hit}, nil); strings.Contains(d, "same text") {
		t.Errorf("no copies, described as %q", d)
	}
}
