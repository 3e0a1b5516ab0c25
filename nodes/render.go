package nodes

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/graphrag/graphrag"
)

// render is the render step: the chosen units in reading order (by hit,
// then position), each followed by [n], the number of its hit. Prose
// sentences run on in a paragraph; a code block, a lead-in with its list or
// block, and a list item stand on lines of their own, code fenced.
// Each citation names as copies the files of the other kept passages that
// hold what it quotes (withQuotedCopies).
func render(chosen []candidate, kept []graphrag.Hit) graphrag.Answer {
	slices.SortStableFunc(chosen, func(a, b candidate) int {
		if a.hit != b.hit {
			return a.hit - b.hit
		}
		return a.pos - b.pos
	})
	var b strings.Builder
	cited := map[int]int{}
	var cites []graphrag.Citation
	blockMode := slices.ContainsFunc(chosen, func(c candidate) bool { return c.unit.multiline() })
	for i, c := range chosen {
		n, ok := cited[c.hit]
		if !ok {
			n = len(cites) + 1
			cited[c.hit] = n
			h := kept[c.hit]
			if c.unit.entry != "" {
				// The block's chunk is named by its first entry: the
				// citation names the one quoted ("http.StatusTeapot").
				h.Chunk.Symbol = c.unit.entry
				if pkg, _, ok := strings.Cut(kept[c.hit].Chunk.Symbol, "."); ok {
					h.Chunk.Symbol = pkg + "." + c.unit.entry
				}
			}
			cites = append(cites, graphrag.Citation{N: n, Hit: h, Quote: c.text})
		}
		switch {
		case i == 0:
		case blockMode:
			b.WriteString("\n\n")
		default:
			b.WriteByte(' ')
		}
		switch {
		case c.unit.code:
			fmt.Fprintf(&b, "%s\n[%d]", fence(c.text), n)
		case blockMode && c.item:
			fmt.Fprintf(&b, "- %s [%d]", c.text, n)
		case c.unit.lead && strings.HasSuffix(c.text, "```"):
			fmt.Fprintf(&b, "%s\n[%d]", c.text, n)
		default:
			fmt.Fprintf(&b, "%s [%d]", c.text, n)
		}
	}
	return graphrag.Answer{Text: b.String(), Citations: withQuotedCopies(cites, chosen, kept), By: "extractive"}
}

// minCopyWords is the fewest words a citation's quotes must have for
// another passage that holds them to be named as a copy: a short quote
// ("Default: off.") stands in many unrelated pages.
const minCopyWords = 8

// withQuotedCopies names, among each citation's copies, the other kept
// passages that hold every line the answer quotes from it, word for word
// (case, spacing and punctuation aside), from other documents: the newest
// entry of a changelog Debian ships in three packages' folders, whose
// passages differ only further down, is in all three.
func withQuotedCopies(cites []graphrag.Citation, chosen []candidate, kept []graphrag.Hit) []graphrag.Citation {
	// By kept index, the words of each line the answer quotes: a unit may
	// leave out lines of its passage (a changelog entry's other items).
	quoted := map[int][]string{}
	for _, c := range chosen {
		for line := range strings.SplitSeq(c.text, "\n") {
			if w := plainWords(line); w != " " {
				quoted[c.hit] = append(quoted[c.hit], w)
			}
		}
	}
	texts := make([]string, len(kept)) // kept passages' words, read when first needed
	textOf := func(i int) string {
		if texts[i] == "" {
			texts[i] = plainWords(kept[i].Chunk.Text)
		}
		return texts[i]
	}
	for i := range cites {
		h := &cites[i].Hit
		at := slices.IndexFunc(kept, func(k graphrag.Hit) bool { return k.Chunk.ID == h.Chunk.ID })
		if at < 0 {
			continue
		}
		units := quoted[at]
		n := 0
		for _, u := range units {
			n += strings.Count(u, " ") - 1
		}
		if n < minCopyWords {
			continue
		}
		for j, k := range kept {
			if k.Source.DocID == h.Source.DocID || slices.ContainsFunc(h.Copies, func(c graphrag.Source) bool { return c.DocID == k.Source.DocID }) {
				continue
			}
			if !slices.ContainsFunc(units, func(u string) bool { return !strings.Contains(textOf(j), u) }) {
				h.Copies = append(slices.Clip(h.Copies), k.Source)
			}
		}
	}
	return cites
}

// plainWords is the words of a text, lower-cased (its runs of letters
// and digits), each with a space on both sides: " zorp 2 4 1 ", one
// string, so that a line's words are in a passage's when the one string
// holds the other. A text without words is " ".
func plainWords(text string) string {
	var b strings.Builder
	b.Grow(len(text) + 2)
	b.WriteByte(' ')
	in := false
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
			in = true
		} else if in {
			b.WriteByte(' ')
			in = false
		}
	}
	if in {
		b.WriteByte(' ')
	}
	return b.String()
}
