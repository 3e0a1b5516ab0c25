package text

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Words splits s into lower-case runs of letters, numbers and combining
// marks, keeping duplicates and stop words, in order: at apostrophes,
// hyphens and dots too ("o'brien" is "o" and "brien"), unlike Tokenize.
// Diacritics are kept ("café" stays "café"), as PostgreSQL's "simple"
// text-search configuration keeps them in its index.
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.Is(unicode.Mn, r)
	})
}

// FoldedWords splits s into lower-case runs of letters and numbers with
// diacritics removed ("Café" is "cafe"), keeping duplicates and stop words,
// in order: the words SQLite FTS5's unicode61 tokenizer with
// remove_diacritics makes, so a query word is a word the index holds.
// Invalid UTF-8 separates words.
func FoldedWords(s string) []string {
	if isASCII(s) {
		return asciiWords(s)
	}
	s = strings.ToValidUTF8(s, " ")
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range norm.NFD.String(s) {
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

// ContainsFold reports whether s contains sub under Unicode case folding
// ("Überblick" holds "ÜBER", "\u212a-files" holds "k-files"). A store's
// source filter asks it of the path and title of every chunk a keyword
// query matches, and folding both strings for each took a tenth of a
// Debian question's time; when both are ASCII, which folding maps onto
// ASCII alone, comparing byte by byte gives the same answer without
// folding.
func ContainsFold(s, sub string) bool {
	if !isASCII(s) || !isASCII(sub) {
		fold := cases.Fold()
		return strings.Contains(fold.String(s), fold.String(sub))
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiWords is FoldedWords for ASCII text, without Unicode normalisation;
// a word already in lower case is a substring of s, not a copy.
func asciiWords(s string) []string {
	var out []string
	start := -1
	var buf []byte
	for i := 0; i <= len(s); i++ {
		var c byte
		if i < len(s) {
			c = s[i]
		}
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
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

// QualifiedNames are the exported names of the package-qualified
// identifiers in s, lower-cased: "once" of "sync.Once". A store searches
// such a name even when it is a function word: "what is sync.Once for" is
// about Once.
func QualifiedNames(s string) map[string]bool {
	var out map[string]bool
	for i := 1; i+1 < len(s); i++ {
		if s[i] != '.' || !isLowerIdent(s[i-1]) || s[i+1] < 'A' || s[i+1] > 'Z' {
			continue
		}
		j := i + 1
		for j < len(s) && (isLowerIdent(s[j]) || s[j] >= 'A' && s[j] <= 'Z') {
			j++
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[strings.ToLower(s[i+1:j])] = true
	}
	return out
}

func isLowerIdent(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' }

// IdentWords are the words an identifier is written with, as code joins
// them: "BlockSize" is Block and Size, "defaultBufSize" default, Buf and
// Size, "HTTPServer" HTTP and Server, "read_all" read and all. Nil for an
// identifier of one word: a search for "block size" then finds the name
// BlockSize, which the index holds as the one word "blocksize".
func IdentWords(name string) []string {
	var out []string
	start := 0
	cut := func(i int) {
		if i > start {
			out = append(out, name[start:i])
		}
		start = i
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_':
			cut(i)
			start = i + 1
		case c >= 'A' && c <= 'Z' && i > start:
			prev := name[i-1]
			nextLower := i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z'
			// "defaultBuf": a capital after a lower-case letter or digit;
			// "HTTPServer": the last capital of a run before lower case.
			if prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9' || prev >= 'A' && prev <= 'Z' && nextLower {
				cut(i)
			}
		case !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'):
			return nil // not an ASCII identifier
		}
	}
	cut(len(name))
	if len(out) < 2 {
		return nil
	}
	return out
}
