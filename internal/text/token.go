package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Token is one word of a text as Tokenize reads it.
type Token struct {
	// Lower is the word in lower case, a typographic apostrophe (’) made
	// plain (') and a possessive "'s" dropped.
	Lower string
	// Stem is Stem(Lower).
	Stem string
	// Capital says the word was written with a capital letter and Digit
	// that it holds a digit: names and codes, the words that make a
	// question specific.
	Capital bool
	Digit   bool
	// Opens says the word opens a sentence: it is the text's first word or
	// follows a full stop, a question mark or an exclamation mark. Such a
	// word is written with a capital whatever it is ("… the old location.
	// How do I fix that?"), so its capital says nothing of a name.
	Opens bool
	// Start and End are the byte offsets of the word in the text; End is
	// before a possessive "'s".
	Start, End int
}

// bytesPerWord is about how many bytes of text make one word, for sizing
// Tokenize's result: measured with Tokenize, 6.0 in Go's memory model and
// specification (GOROOT/doc), 6.2 in the GPL-3 text, 6.6 in Git's 2.23.0
// release notes, 7.9 in Go source (net/http/server.go). Prose gets one
// allocation; code gets a third more room than it needs.
const bytesPerWord = 6

// Tokenize splits s into words: runs of letters and digits, with inner
// apostrophes, hyphens and dots kept when a letter or digit follows them
// ("o'brien", "e-mail", "1.2.3", "file.txt"). A word's possessive "'s" is
// dropped ("Ada's" is "ada").
func Tokenize(s string) []Token {
	out := make([]Token, 0, len(s)/bytesPerWord+1)
	start := -1
	opens := true // the next word opens a sentence
	emit := func(end int) {
		out = appendToken(out, s, start, end)
		out[len(out)-1].Opens = opens
		start, opens = -1, false
	}
	for i, r := range s {
		switch {
		case isWordRune(r):
			if start < 0 {
				start = i
			}
			continue
		case start >= 0 && isInnerRune(r):
			// Kept only when a letter or digit follows.
			if next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):]); isWordRune(next) {
				continue
			}
			emit(i)
		case start >= 0:
			emit(i)
		}
		if r == '.' || r == '?' || r == '!' {
			opens = true
		}
	}
	if start >= 0 {
		emit(len(s))
	}
	return out
}

// TrimPossessive drops a word's possessive "'s" (or "’s"): "Ada's" is
// "Ada", "Quill's" names Quill.
func TrimPossessive(w string) string {
	return strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isInnerRune reports whether r joins two runs of letters and digits into
// one word.
func isInnerRune(r rune) bool { return r == '\'' || r == '’' || r == '-' || r == '.' }

// appendToken appends the word s[start:end], which starts and ends with a
// letter or digit.
func appendToken(out []Token, s string, start, end int) []Token {
	w := TrimPossessive(s[start:end])
	r, _ := utf8.DecodeRuneInString(w)
	lower := strings.ToLower(strings.ReplaceAll(w, "’", "'"))
	return append(out, Token{
		Lower:   lower,
		Stem:    Stem(lower),
		Capital: unicode.IsUpper(r),
		Digit:   strings.IndexFunc(w, unicode.IsDigit) >= 0,
		Start:   start,
		End:     start + len(w),
	})
}

// StemSet returns the set of the stems of the words of s, as Tokenize
// reads them.
func StemSet(s string) Set {
	set := make(Set)
	for _, t := range Tokenize(s) {
		set[t.Stem] = true
	}
	return set
}
