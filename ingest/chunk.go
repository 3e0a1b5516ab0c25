package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/graphrag/graphrag/internal/text"
)

// Default chunk sizes, in characters (runes). 1,500 characters is about
// 300-400 tokens of English: small enough for any embedding model's
// window and for a citation to point at one passage, large enough to keep
// a paragraph whole. The overlap carries the last sentences of a chunk
// into the next one so a fact split across the boundary is still found.
const (
	DefaultChunkSize    = 1500
	DefaultChunkOverlap = 200
)

// Chunk splits body into pieces of at most size runes, cutting at paragraph
// boundaries first, then sentence boundaries, then spaces; each piece after
// the first starts with up to overlap runes of whole sentences from the end
// of the previous one. Text shorter than size is one chunk. Blank text has
// no chunks.
func Chunk(body string, size, overlap int) []string {
	if size <= 0 {
		size = DefaultChunkSize
	}
	if overlap < 0 || overlap >= size {
		overlap = 0
	}
	body = strings.TrimSpace(body)
	if body == "" {
		return nil
	}
	if utf8.RuneCountInString(body) <= size {
		return []string{body}
	}
	// Units are sentences (or pieces of over-long sentences), each marked
	// with whether a paragraph starts with it.
	type unit struct {
		text string
		para bool
		n    int
	}
	var units []unit
	for _, p := range paragraphs(body) {
		first := true
		for _, s := range text.ChunkSentences(p) {
			for _, piece := range hardSplit(s, size) {
				units = append(units, unit{piece, first, utf8.RuneCountInString(piece)})
				first = false
			}
		}
	}
	var chunks []string
	// curN counts each unit with a two-rune separator, so a chunk never
	// exceeds size (separators are one space or a blank line).
	var cur []unit
	curN := -2
	join := func(us []unit) string {
		var b strings.Builder
		for i, u := range us {
			if i > 0 {
				if u.para {
					b.WriteString("\n\n")
				} else {
					b.WriteByte(' ')
				}
			}
			b.WriteString(u.text)
		}
		return b.String()
	}
	for _, u := range units {
		if len(cur) > 0 && curN+2+u.n > size {
			chunks = append(chunks, join(cur))
			// Carry whole trailing sentences into the next chunk, up to
			// overlap runes, and never the whole previous chunk.
			var keep []unit
			kept := 0
			for i := len(cur) - 1; i > 0; i-- {
				if kept+cur[i].n+2 > overlap || kept+cur[i].n+2+u.n+2 > size {
					break
				}
				keep = append([]unit{cur[i]}, keep...)
				kept += cur[i].n + 2
			}
			cur, curN = keep, kept-2
		}
		cur = append(cur, u)
		curN += u.n + 2
	}
	if len(cur) > 0 {
		chunks = append(chunks, join(cur))
	}
	return chunks
}

// paragraphs splits at blank lines.
func paragraphs(text string) []string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var out []string
	var cur []string
	flush := func() {
		if p := strings.TrimSpace(strings.Join(cur, "\n")); p != "" {
			out = append(out, p)
		}
		cur = cur[:0]
	}
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			flush()
			continue
		}
		cur = append(cur, l)
	}
	flush()
	return out
}

// hardSplit cuts a sentence longer than size at spaces (or anywhere, for
// text without spaces) into pieces of at most size runes.
func hardSplit(s string, size int) []string {
	if utf8.RuneCountInString(s) <= size {
		return []string{s}
	}
	var out []string
	rs := []rune(s)
	for len(rs) > size {
		cut := size
		for i := size; i > 0; i-- {
			if unicode.IsSpace(rs[i]) {
				cut = i
				break
			}
		}
		if p := strings.TrimSpace(string(rs[:cut])); p != "" {
			out = append(out, p)
		}
		rs = rs[cut:]
	}
	if p := strings.TrimSpace(string(rs)); p != "" {
		out = append(out, p)
	}
	return out
}
