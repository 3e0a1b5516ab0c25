package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
	"github.com/graphrag/graphrag/nodes"
)

// maxShowFile is the largest file --show and /open read to number a
// passage's lines when the store does not know them.
const maxShowFile = 8 << 20

// minTellingLine is the shortest line used to find a passage in its file:
// shorter ones ("}", "//") occur everywhere.
const minTellingLine = 12

// citedLines returns the 1-based, inclusive lines of the document a
// citation points at: the quoted lines when the quote is found in the
// file, else the chunk's own range, else the chunk found in the file; 0, 0
// when unknown (a corpus row, a compressed or missing file). data is the
// file, nil when it could not be read.
func citedLines(c graphrag.Citation, data []byte) (int, int) {
	lineAt := func(off int) int { return bytes.Count(data[:off], []byte("\n")) + 1 }
	// find places text by its first line long enough to be telling.
	find := func(text string) (int, int, bool) {
		if data == nil {
			return 0, 0, false
		}
		lines := strings.Split(strings.Trim(text, "\n"), "\n")
		for k, l := range lines {
			if l = strings.TrimSpace(l); len(l) < minTellingLine {
				continue
			}
			i := bytes.Index(data, []byte(l))
			if i < 0 {
				return 0, 0, false
			}
			start := max(1, lineAt(i)-k)
			return start, start + len(lines) - 1, true
		}
		return 0, 0, false
	}
	if c.Quote != "" {
		if s, e, ok := find(c.Quote); ok && (c.Hit.Chunk.StartLine == 0 || s >= c.Hit.Chunk.StartLine && e <= c.Hit.Chunk.EndLine) {
			return s, e
		}
	}
	if c.Hit.Chunk.StartLine > 0 {
		return c.Hit.Chunk.StartLine, max(c.Hit.Chunk.StartLine, c.Hit.Chunk.EndLine)
	}
	if s, e, ok := find(c.Hit.Chunk.Text); ok {
		return s, e
	}
	return 0, 0
}

// readCited reads the cited file when it is a plain file of reasonable
// size; nil otherwise.
func readCited(h graphrag.Hit) []byte {
	if h.Source.URL != "" || h.Source.Type == "jsonl" || h.Source.Path == "" {
		return nil
	}
	st, err := os.Stat(h.Source.Path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxShowFile {
		return nil
	}
	data, err := os.ReadFile(h.Source.Path)
	if err != nil {
		return nil
	}
	// A compressed or binary file (a man page's .gz, a PDF) has no lines
	// to show: the stored passage is shown instead. Text is read as ingest
	// read it, so a Latin-1 file or a coloured log has the lines its
	// passages were cut from.
	s, ok := text.Decode(data)
	if !ok {
		return nil
	}
	return []byte(s)
}

// describeCitation names a citation for people: the file with the cited
// lines ("src/context/context.go:240-246") and the heading or symbol it sits
// under when known.
func describeCitation(c graphrag.Citation, data []byte) string {
	h := c.Hit
	where := describeSource(h)
	if s, e := citedLines(c, data); s > 0 && h.Source.URL == "" && h.Source.Type != "jsonl" {
		if w := displayRel(h.Source.Path); w != "" {
			where = fmt.Sprintf("%s:%d-%d", w, s, e)
		}
	}
	switch {
	case h.Chunk.Symbol != "":
		where += " (" + h.Chunk.Symbol + ")"
	case h.Chunk.Heading != "":
		where += " (" + h.Chunk.Heading + ")"
	}
	return where + copiesNote(h)
}

// copiesNote names the other files that hold a hit's text word for word
// (graphrag.Hit.Copies): "; the same text is in a/changelog.Debian.gz";
// "" when there are none.
func copiesNote(h graphrag.Hit) string {
	if len(h.Copies) == 0 {
		return ""
	}
	names := make([]string, len(h.Copies))
	for i, c := range h.Copies {
		if names[i] = displayRel(c.Path); names[i] == "" {
			names[i] = c.Title
		}
	}
	return "; the same text is in " + strings.Join(names, ", ")
}

// showCitation prints the passage the n-th citation of the answer points
// at: the file's cited lines when the file can be read, the stored passage
// otherwise.
func showCitation(out io.Writer, s nodes.State, n int) error {
	for _, c := range s.Answer.Citations {
		if c.N != n {
			continue
		}
		data := readCited(c.Hit)
		fmt.Fprintf(out, "[%d] %s\n\n", c.N, describeCitation(c, data))
		text := c.Hit.Chunk.Text
		if start, end := citedLines(c, data); start > 0 && data != nil {
			// The whole stored passage, numbered, unless the quote is all
			// there is to show.
			if cs, ce := c.Hit.Chunk.StartLine, c.Hit.Chunk.EndLine; cs > 0 && ce >= cs {
				start, end = cs, ce
			}
			if lines := strings.Split(string(data), "\n"); start <= len(lines) {
				for i := start; i <= end && i <= len(lines); i++ {
					fmt.Fprintf(out, "%6d  %s\n", i, lines[i-1])
				}
				return nil
			}
		}
		fmt.Fprintln(out, strings.TrimRight(text, "\n"))
		return nil
	}
	if len(s.Answer.Citations) == 0 {
		return fmt.Errorf("the answer cites no passage")
	}
	return fmt.Errorf("the answer cites [1] to [%d]: no [%d]", len(s.Answer.Citations), n)
}
