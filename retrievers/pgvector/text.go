package pgvector

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/graphrag/graphrag/internal/text"
)

// Caps on query input: a query is a question, not a document. Longer text is
// cut (on a rune boundary) before it reaches the database or the embedder.
const (
	maxQueryBytes = 4096
	maxQueryWords = 32
	maxK          = 1000
)

// validText reports whether s can be stored in a PostgreSQL text value as is.
func validText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("not valid UTF-8")
	}
	if strings.IndexByte(s, 0) >= 0 {
		return fmt.Errorf("contains a NUL byte")
	}
	return nil
}

// cleanText makes s storable in PostgreSQL: invalid UTF-8 becomes U+FFFD and
// NUL bytes are dropped (PostgreSQL text cannot hold them).
func cleanText(s string) string {
	if validText(s) == nil {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.ReplaceAll(s, "\x00", "")
}

// capText cuts s to at most n bytes on a rune boundary.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}

// queryWords splits a query into the distinct lower-case words it searches
// for: runs of letters, digits and marks (text.Words, diacritics kept as
// the "simple" configuration keeps them), function words
// (text.QueryStopWords) dropped, at most maxQueryWords; a word spelt the
// British way is searched in its American spelling (text.AmericanSpelling),
// as the files people search are mostly written so. Operators, quotes
// and punctuation are never passed on, so any text is searched as plain
// words. A query of function words only has no keyword words: matching
// every chunk that holds "the" is what makes the keyword leg slow on a big
// collection, and the vector leg still answers.
func queryWords(q string) []string {
	fields := text.Words(cleanText(capText(q, maxQueryBytes)))
	seen := make(map[string]bool, len(fields))
	names := text.QualifiedNames(q)
	var out []string
	for _, w := range fields {
		w = text.AmericanSpelling(w)
		if text.QueryStopWords[w] && !names[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == maxQueryWords {
			break
		}
	}
	return out
}

// blockEntries are the identifiers a query names as they appear in a const
// or var block, with their package ("" when the query does not qualify
// them): "time.RFC3339" gives RFC3339 in time, "WithCancel" WithCancel.
func blockEntries(qualified, names []string) (entries, pkgs []string) {
	entries, pkgs = []string{}, []string{}
	for _, q := range qualified {
		pkg, name, _ := strings.Cut(q, ".")
		entries, pkgs = append(entries, name), append(pkgs, pkg)
	}
	for _, n := range names {
		entries, pkgs = append(entries, n), append(pkgs, "")
	}
	return entries, pkgs
}

// orQuery joins words for websearch_to_tsquery as alternatives ("a or b"):
// a document matching any word is a candidate, more matches rank higher.
// Words hold only letters and digits, so nothing else of the websearch
// syntax can appear; the result is passed as a $n parameter.
func orQuery(words []string) string { return strings.Join(words, " or ") }

// pairQuery is the to_tsquery text matching the chunks that hold at least
// two of words, grouped so that GIN evaluates it in time linear in the
// number of words: "'a' & ('b' | 'c') | 'b' & ('c')". "" for fewer than two
// words. Each word is a quoted operand (words hold only letters, digits and
// combining marks, so they contain no quote or backslash); the configuration
// still normalises it, and an operand it drops (a stop word, no lexeme)
// only widens the match. The result is passed as a $n parameter.
func pairQuery(words []string) string {
	if len(words) < 2 {
		return ""
	}
	var b strings.Builder
	for i, a := range words[:len(words)-1] {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString("'" + a + "' & (")
		for j, c := range words[i+1:] {
			if j > 0 {
				b.WriteString(" | ")
			}
			b.WriteString("'" + c + "'")
		}
		b.WriteString(")")
	}
	return b.String()
}
