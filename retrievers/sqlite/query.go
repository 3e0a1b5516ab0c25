package sqlite

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// maxQueryTerms bounds the words of one keyword query, so a 100 KB paste
// costs no more than a long question.
const maxQueryTerms = 48

// terms splits text into lower-case words the way FTS5's unicode61
// tokenizer does (letters, digits and marks; diacritics removed), drops
// stop words and duplicates, and keeps at most maxQueryTerms. When every
// word is a stop word ("The Who"), the stop words are kept.
func terms(text string) []string {
	words := words(text)
	names := qualifiedNames(text)
	var out, stops []string
	seen := map[string]bool{}
	for _, w := range words {
		if seen[w] {
			continue
		}
		seen[w] = true
		if stopWords[w] && !names[w] {
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

// qualifiedNames are the exported names of the package-qualified
// identifiers in text, lower-cased: "once" of "sync.Once". Such a name is
// searched even when it is a stop word: "what is sync.Once for" is about
// Once.
func qualifiedNames(text string) map[string]bool {
	var out map[string]bool
	for i := 1; i+1 < len(text); i++ {
		if text[i] != '.' || !isLowerIdent(text[i-1]) || text[i+1] < 'A' || text[i+1] > 'Z' {
			continue
		}
		j := i + 1
		for j < len(text) && (isLowerIdent(text[j]) || text[j] >= 'A' && text[j] <= 'Z') {
			j++
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[strings.ToLower(text[i+1:j])] = true
	}
	return out
}

func isLowerIdent(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' }

// words tokenises text into lower-case, diacritic-free words, keeping
// duplicates and stop words, in order.
func words(text string) []string {
	if ascii(text) {
		return asciiWords(text)
	}
	text = strings.ToValidUTF8(text, " ")
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range norm.NFD.String(text) {
		switch {
		case unicode.Is(unicode.Mn, r):
			// a combining mark: dropped, like remove_diacritics
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r):
			b.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
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

// stopWords are English function words and question words: they carry no
// topic and BM25 gives them little weight anyway, but OR-ing them makes
// every chunk a candidate.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
a about above after again against all also am an and any are aren as at
be because been before being below between both but by
can cannot could couldn did didn do does doesn doing don down during
each either even ever every few for from further
had hadn has hasn have haven having he her here hers herself him himself his how however
i if in into is isn it its itself just
let ll me might more most much must mustn my myself
neither no nor not now of off on once only or other otherwise ought our ours ourselves out over own
re s same shall shan she should shouldn so some such
t than that the their theirs them themselves then there these they this those through to too
under until up upon us very was wasn we were weren what when where whether which while who whom whose why will with won would wouldn
ve you your yours yourself yourselves
`) {
		m[w] = true
	}
	return m
}()

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiWords is words for pure ASCII text, without Unicode normalisation.
func asciiWords(s string) []string {
	var out []string
	start := -1
	var buf []byte
	for i := 0; i <= len(s); i++ {
		var c byte
		if i < len(s) {
			c = s[i]
		}
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if alnum {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := s[start:i]
			if hasUpper(w) {
				buf = append(buf[:0], w...)
				for j, b := range buf {
					if b >= 'A' && b <= 'Z' {
						buf[j] = b + 'a' - 'A'
					}
				}
				w = string(buf)
			}
			out = append(out, w)
			start = -1
		}
	}
	return out
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}
