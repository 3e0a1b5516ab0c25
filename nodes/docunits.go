package nodes

import (
	"cmp"
	"regexp"
	"slices"
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
// "Package bufio implements buffered I/O. …", its examples indented),
// and so is a comment that documents no declaration (a file's header);
// a declaration is one code block with its doc (codeUnits), the way a
// reader looks a function up.
func sourceUnits(h graphrag.Hit, stems map[string]bool, asked *regexp.Regexp) []quoteUnit {
	if h.Chunk.Kind == kindPackage || h.Chunk.Kind == kindComment {
		return docUnits(strings.Split(h.Chunk.Text, "\n"))
	}
	return codeUnits(h.Chunk.Text, stems, asked)
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

// leadingComment is how many of a declaration's first lines are its doc
// comment ("//" lines).
func leadingComment(block []string) int {
	n := 0
	for _, l := range block {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			break
		}
		n++
	}
	return n
}

// minDocWindow is the fewest lines a paragraph is cut to: a row of a
// table with the line before and after it. Set once, not tuned.
const minDocWindow = 3

// A docPara is a paragraph of a declaration's doc comment: its lines
// [from, to) of the declaration, and how much of the question they hold
// (scoreParas).
type docPara struct {
	from, to int
	score    float64
}

// around is the window of at most n lines of the paragraph around its
// line holding the most of stems: a table or a long list in a doc comment
// ("Frob kind / Go type / Const", one row a line) is cut as a long code
// block is, to the rows about what is asked.
func (p docPara) around(block []string, stems map[string]bool, n int) docPara {
	best, bestScore := p.from, -1
	for i := p.from; i < p.to; i++ {
		if sc := stemsIn(block[i], stems); sc > bestScore {
			best, bestScore = i, sc
		}
	}
	from, to := lineWindow(best, p.from, p.to, n)
	return docPara{from: from, to: to, score: p.score}
}

// docWindow cuts a declaration too long to quote (its doc the first doc
// lines of block) by the doc's paragraphs rather than by lines: the first
// paragraph (what the declaration is), then the paragraphs holding the
// most of the question (scoreParas), in their order, as many as
// maxCodeLines allows beside the declaration's first code line. A
// paragraph of a doc comment is the doc's unit of meaning; a window of
// lines cuts one in two (Go's text/template Option lists each option as a
// paragraph with its values indented under it). A paragraph longer than
// the room left is cut to the lines around its best one (docPara.around).
// It reports false when the doc has one paragraph or its first paragraph
// alone fills the cap.
func docWindow(block []string, doc int, stems map[string]bool) ([]string, bool) {
	var paras []docPara
	for i := 0; i < doc; i++ {
		if strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(block[i]), "//")) == "" {
			continue
		}
		p := docPara{from: i}
		for i < doc && strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(block[i]), "//")) != "" {
			i++
		}
		p.to = i
		paras = append(paras, p)
	}
	scoreParas(block, paras, stems)
	// Room: the cap, less the code line and the "…" marks it may need.
	room := maxCodeLines - 3
	if len(paras) < 2 || paras[0].to-paras[0].from > room {
		return nil, false
	}
	keep := []docPara{paras[0]}
	room -= paras[0].to - paras[0].from
	rest := slices.Clone(paras[1:])
	slices.SortStableFunc(rest, func(a, b docPara) int { return cmp.Compare(b.score, a.score) })
	for _, p := range rest {
		if p.score == 0 {
			continue
		}
		if p.to-p.from > room {
			// Cut, it needs a "…" mark more.
			if room-1 < minDocWindow {
				continue
			}
			p = p.around(block, stems, room-1)
		}
		keep = append(keep, p)
		room -= p.to - p.from
	}
	slices.SortFunc(keep, func(a, b docPara) int { return a.from - b.from })
	var out []string
	end := 0
	for _, p := range keep {
		if p.from > end {
			out = append(out, "//\t…")
		}
		out = append(out, block[p.from:p.to]...)
		end = p.to
	}
	if end < doc {
		out = append(out, "//\t…")
	}
	out = append(out, block[doc:min(len(block), doc+1)]...)
	if doc+1 < len(block) {
		out = append(out, "\t…")
	}
	return out, true
}

// scoreParas scores each paragraph of a doc comment by the question's
// words it holds, each once, under looseStem ("released" for
// "releasing"), a doc link's name by its last part ("[Gate.Hold]"
// holds "Hold"), and each weighing one over the number of paragraphs
// holding it: the paragraph that holds what only it says of the
// question, not the one that repeats the word every paragraph says.
func scoreParas(block []string, paras []docPara, stems map[string]bool) {
	loose := make(map[string]bool, len(stems))
	for s := range stems {
		loose[looseStem(s)] = true
	}
	held := make([][]string, len(paras))
	df := map[string]int{}
	for i, p := range paras {
		for _, l := range block[p.from:p.to] {
			for _, t := range tokenize(l) {
				w := t.Lower
				if stopWords[w] {
					continue
				}
				st := looseStem(w)
				if !loose[st] {
					st = looseStem(lastPart(w))
				}
				if loose[st] && !slices.Contains(held[i], st) {
					held[i] = append(held[i], st)
					df[st]++
				}
			}
		}
	}
	for i := range paras {
		for _, st := range held[i] {
			paras[i].score += 1 / float64(df[st])
		}
	}
}
