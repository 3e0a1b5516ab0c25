package ingest

import (
	"strings"
	"unicode/utf8"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// Section is a part of a document that chunks never straddle: one
// declaration of source code, or the text under one heading. Its Text is
// kept as it is, newlines and indentation included.
type Section struct {
	Text string
	// Heading, Symbol and Kind go to every chunk cut from the section (see
	// graphrag.Chunk).
	Heading, Symbol, Kind string
	// StartLine is the document line (1-based) of Text's first line; 0
	// when unknown.
	StartLine int
	// Lines, when set, gives the document line of each line of Text, for
	// text extracted from markup (a man page, HTML) whose lines are not the
	// file's; it overrides StartLine.
	Lines []int
}

// Kinds of chunks besides the declarations of code ("func", "type", ...).
const (
	KindSection = "section" // text under a heading
	KindPackage = "package" // a package's (or module's) doc comment
	KindComment = "comment" // a source comment that documents no declaration
	KindBuild   = "build"   // a source file's build constraint
)

// codeKinds are the kinds of declarations: their lines are code, where a
// line ending in ':' is not a lead-in to what follows.
var codeKinds = map[string]bool{"func": true, "method": true, "type": true, "const": true, "var": true,
	"class": true, "struct": true, "enum": true, "interface": true, "trait": true, "impl": true,
	"macro": true, "module": true, "code": true, KindBuild: true}

// block is a run of lines cut as a whole when it fits: a paragraph, a
// fenced code block, a declaration's body part.
type block struct {
	text       string
	first, end int // indexes of the first line and one past the last, in the section
	runes      int
	leadIn     bool // ends with ':' — belongs with what follows
	sameLine   bool // continues the previous block's line (a sentence of a long line)
}

// chunkSections cuts each section into chunks of at most size runes. A
// section that fits is one chunk; a longer one is cut between paragraphs
// (blank lines), then between lines, then inside an over-long line, and a
// paragraph that ends with ':' (a lead-in to a list, command or code
// block) goes with what follows it. Prose chunks after the first carry up
// to overlap runes of the previous chunk's last paragraphs.
func chunkSections(docID string, secs []Section, size, overlap int) []graphrag.Chunk {
	var out []graphrag.Chunk
	for _, s := range secs {
		code := codeKinds[s.Kind]
		ov := overlap
		if code {
			ov = 0 // declarations are whole units; repeating lines only adds noise
		}
		lines := strings.Split(strings.ReplaceAll(s.Text, "\r\n", "\n"), "\n")
		lineNo := func(i int) int {
			switch {
			case s.Lines != nil && i < len(s.Lines):
				return s.Lines[i]
			case len(s.Lines) > 0:
				return s.Lines[len(s.Lines)-1]
			case s.StartLine > 0:
				return s.StartLine + i
			}
			return 0
		}
		for _, p := range packBlocks(splitBlocks(lines, size, code), size, ov) {
			c := graphrag.Chunk{DocID: docID, Ordinal: len(out), Text: p.text,
				Heading: s.Heading, Symbol: s.Symbol, Kind: s.Kind}
			c.ID = graphrag.ChunkID(docID, c.Ordinal)
			if a, b := lineNo(p.first), lineNo(p.end-1); a > 0 && b >= a {
				c.StartLine, c.EndLine = a, b
			}
			out = append(out, c)
		}
	}
	return out
}

// splitBlocks groups lines into blocks: runs of non-blank lines, a fenced
// (``` or ~~~) code block whole with its blank lines, and pieces of a
// block longer than size cut between lines (or inside a line longer than
// size). In prose, a paragraph ending with ':' (a lead-in) is one block
// with what follows it.
func splitBlocks(lines []string, size int, code bool) []block {
	var out []block
	start := -1
	fence := ""
	lastLine := -1 // last non-blank line of the current block
	flush := func(end int) {
		if start < 0 {
			return
		}
		out = append(out, cutBlock(lines, start, end, size, code)...)
		start = -1
	}
	leadIn := func() bool {
		return !code && start >= 0 && lastLine >= 0 && strings.HasSuffix(strings.TrimSpace(lines[lastLine]), ":")
	}
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if !code {
			if fence != "" {
				lastLine = i
				if strings.HasPrefix(t, fence) {
					fence = ""
					flush(i + 1)
				}
				continue
			}
			if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				if !leadIn() {
					flush(i)
					start = i
				}
				fence, lastLine = t[:3], i
				continue
			}
		}
		if t == "" {
			if !leadIn() {
				flush(i)
			}
			continue
		}
		if start < 0 {
			start = i
		}
		lastLine = i
	}
	flush(len(lines))
	return out
}

// cutBlock makes lines[first:end] one block, or several when it is longer
// than size: cut before the line that starts a new list item or
// statement where possible, else before any line.
func cutBlock(lines []string, first, end, size int, code bool) []block {
	mk := func(a, b int) block {
		for b > a+1 && strings.TrimSpace(lines[b-1]) == "" {
			b--
		}
		text := strings.TrimRight(strings.Join(lines[a:b], "\n"), " \t")
		last := strings.TrimSpace(lines[b-1])
		return block{text: text, first: a, end: b, runes: utf8.RuneCountInString(text),
			leadIn: !code && strings.HasSuffix(last, ":")}
	}
	whole := mk(first, end)
	if whole.runes <= size {
		return []block{whole}
	}
	var out []block
	a, n := first, 0
	for i := first; i < end; i++ {
		ln := utf8.RuneCountInString(lines[i]) + 1
		if ln > size {
			// One over-long line: cut it apart at sentences or spaces;
			// every piece is on that line.
			if i > a {
				out = append(out, mk(a, i))
			}
			for k, piece := range lineSentences(lines[i], size) {
				out = append(out, block{text: piece, first: i, end: i + 1, runes: utf8.RuneCountInString(piece), sameLine: k > 0})
			}
			a, n = i+1, 0
			continue
		}
		if n+ln > size && i > a {
			// Back up to the start of the current list item or statement
			// (a line less indented than the ones after it) when it is
			// not the block's start.
			cut := i
			for j := i; j > a+1; j-- {
				if startsItem(lines[j]) {
					cut = j
					break
				}
			}
			if cut == i || !startsItem(lines[i]) && cut > a {
				out = append(out, mk(a, cut))
				a = cut
				n = 0
				for k := a; k < i; k++ {
					n += utf8.RuneCountInString(lines[k]) + 1
				}
			}
		}
		n += ln
	}
	if a < end {
		out = append(out, mk(a, end))
	}
	// A piece may still be over size (an item longer than size): cut it at
	// lines without looking for items.
	var fixed []block
	for _, b := range out {
		if b.runes <= size || b.end-b.first < 2 {
			fixed = append(fixed, b)
			continue
		}
		x, m := b.first, 0
		for i := b.first; i < b.end; i++ {
			ln := utf8.RuneCountInString(lines[i]) + 1
			if m+ln > size && i > x {
				fixed = append(fixed, mk(x, i))
				x, m = i, 0
			}
			m += ln
		}
		fixed = append(fixed, mk(x, b.end))
	}
	return fixed
}

// startsItem reports whether a line begins a list item, a definition or a
// statement at the left margin: a good place to cut a long block.
func startsItem(l string) bool {
	t := strings.TrimLeft(l, " \t")
	if t == "" {
		return false
	}
	if len(t) > 1 && strings.ContainsRune("-*+•", rune(t[0])) && t[1] == ' ' {
		return true
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i < len(t)-1 && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ' {
		return true
	}
	return len(t) == len(l) // not indented
}

// lineSentences cuts one line longer than size into its sentences (each
// cut at spaces when longer than size), to be packed like paragraphs.
func lineSentences(l string, size int) []string {
	var out []string
	for _, s := range text.ChunkSentences(l) {
		out = append(out, hardSplit(s, size)...)
	}
	return out
}

// packBlocks joins blocks into pieces of at most size runes, blocks
// separated by a blank line. When a block does not fit, the piece so far
// is cut off; a lead-in at its end moves to the next piece (it belongs with
// the block), and the next piece starts with the piece's last paragraphs
// up to overlap runes.
func packBlocks(blocks []block, size, overlap int) []block {
	var out []block
	var cur []block
	length := func(bs []block) int {
		n := 0
		for i, b := range bs {
			if i > 0 {
				n += 2
			}
			n += b.runes
		}
		return n
	}
	emit := func(bs []block) {
		var sb strings.Builder
		for i, b := range bs {
			switch {
			case i == 0:
			case b.sameLine:
				sb.WriteByte(' ')
			default:
				sb.WriteString("\n\n")
			}
			sb.WriteString(b.text)
		}
		out = append(out, block{text: sb.String(), first: bs[0].first, end: bs[len(bs)-1].end, runes: length(bs)})
	}
	n := 0 // length(cur), kept up to date so packing stays linear
	for _, b := range blocks {
		if len(cur) > 0 && n+2+b.runes > size {
			var next []block
			if last := cur[len(cur)-1]; last.leadIn && len(cur) > 1 && last.runes+2+b.runes <= size {
				cur, next = cur[:len(cur)-1], []block{last}
			}
			emit(cur)
			for i := len(cur) - 1; i > 0; i-- {
				with := append([]block{cur[i]}, next...)
				if length(with) > overlap || length(with)+2+b.runes > size {
					break
				}
				next = with
			}
			cur, n = next, length(next)
		}
		if len(cur) > 0 {
			n += 2
		}
		cur = append(cur, b)
		n += b.runes
	}
	if len(cur) > 0 {
		emit(cur)
	}
	return out
}

// textSections is the default structure of a document's text: one section
// with the whole text from line 1.
func textSections(text string) []Section {
	return []Section{{Text: text, StartLine: 1}}
}
