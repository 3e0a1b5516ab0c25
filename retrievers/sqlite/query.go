package sqlite

import (
	"strings"

	"github.com/graphrag/graphrag/internal/text"
)

// maxQueryTerms bounds the words of one keyword query, so a 100 KB paste
// costs no more than a long question.
const maxQueryTerms = 48

// terms splits q into the words of its keyword query: the words FTS5's
// unicode61 tokenizer makes of it (text.FoldedWords: lower case,
// diacritics removed, as the index holds them; the index does not stem,
// so neither does the query), function words (text.QueryStopWords) and
// duplicates dropped, at most maxQueryTerms. A word spelt the British way
// is searched in its American spelling (text.AmericanSpelling): the files
// people search are mostly written the American way, and the rare British
// spelling of a common word would outrank every other word of the query
// (the copyright files that write "licence" before debconf's "License").
// When every word is a function word ("The Who"), they are kept.
func terms(q string) []string {
	names := text.QualifiedNames(q)
	var out, stops []string
	seen := map[string]bool{}
	for _, w := range text.FoldedWords(q) {
		w = text.AmericanSpelling(w)
		if seen[w] {
			continue
		}
		seen[w] = true
		if text.QueryStopWords[w] && !names[w] {
			stops = append(stops, w)
			continue
		}
		out = append(out, w)
	}
	if len(out) == 0 {
		out = stops
	}
	if len(out) > maxQueryTerms {
		out = out[:maxQueryTerms]
	}
	return out
}

// matchExpr is the FTS5 MATCH expression for the terms: each term quoted
// (so no FTS5 operator can come from the user) and OR-ed.
func matchExpr(ts []string) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteString(" OR ")
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(t, `"`, `""`))
		b.WriteByte('"')
	}
	return b.String()
}
