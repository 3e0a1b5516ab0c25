package nodes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
)

// render is the render step: the chosen units in reading order (by hit,
// then position), each followed by [n], the number of its hit. Prose
// sentences run on in a paragraph; a code block, a lead-in with its list or
// block, and a list item stand on lines of their own, code fenced.
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
	return graphrag.Answer{Text: b.String(), Citations: cites, By: "extractive"}
}
