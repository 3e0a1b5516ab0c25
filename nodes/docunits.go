package nodes

import (
	"strings"

	"github.com/graphrag/graphrag"
)

// This file reads a source file's doc comments as what they are: prose,
// with indented code blocks, lists and "# Heading" lines (Go's doc comment
// syntax, go.dev/doc/comment; most languages' doc comments look alike).
// An answer then quotes the sentences and the example asked about, as
// prose, instead of a whole comment as a code block or a window of it.

// sourceUnits splits a code hit's passage into the units an answer may
// quote. A package's doc comment is prose throughout (package bufio's
// "Package bufio implements buffered I/O. …", its examples indented);
// a declaration is one code block with its doc (codeUnits), the way a
// reader looks a function up.
func sourceUnits(h graphrag.Hit, stems map[string]bool) []quoteUnit {
	if h.Chunk.Kind == kindPackage {
		return docUnits(strings.Split(h.Chunk.Text, "\n"))
	}
	return codeUnits(h.Chunk.Text, stems)
}

// docUnits splits the lines of a doc comment (with or without its comment
// markers: a long /* */ doc is cut into chunks with none) into prose
// units: its paragraphs, whole, its code blocks and list items. A doc
// comment's paragraph is short and says one thing (a sentence of it often
// leans on the one before: "This is the default."); a lead-in paragraph
// ending in ":" takes its example along. The package clause under a
// package's doc is not quoted.
func docUnits(lines []string) []quoteUnit {
	return splitText(strings.Join(uncomment(lines), "\n"), false, true)
}

// uncomment removes comment markers from the lines of a doc comment: "//"
// and the one space after it (a tab after it indents a code block and
// stays), "/*" and "*/"; a package clause is dropped.
func uncomment(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "//go:") || strings.HasPrefix(t, "package ") && !strings.Contains(t[len("package "):], " "):
			// A directive, or the package clause: no prose.
			continue
		case strings.HasPrefix(t, "//"):
			l = strings.TrimPrefix(strings.TrimPrefix(t, "//"), " ")
		case strings.HasPrefix(t, "/*"):
			l = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, "/*"), "*/"))
		case strings.HasSuffix(t, "*/"):
			l = strings.TrimSuffix(l, "*/")
		}
		out = append(out, l)
	}
	return out
}
