package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentences splits s into sentences, for quoting and grounding: at a blank
// line, after a CJK full stop, exclamation or question mark ("。", "！",
// "？"), and at ".", "!" or "?" (closing quotes and brackets after it kept)
// followed by white space and a capital letter, a digit, a quote or an
// opening bracket. A common abbreviation ("Dr.", "e.g.", "U.S.") or an
// initial ("J. R. R.") does not end a sentence, nor does an ellipsis
// standing apart for words left out ("ALTER SUBSCRIPTION ... DISABLE").
// It errs on the side of not cutting: a wrong cut splits a quoted
// sentence in two. Sentences are trimmed of white space; blank ones are
// dropped.
func Sentences(s string) []string {
	var out []string
	start := 0
	emit := func(end int) {
		if t := strings.TrimSpace(s[start:end]); t != "" {
			out = append(out, t)
		}
		start = end
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !sentenceBytes[c] {
			continue
		}
		switch c {
		case '\n':
			if i+1 < len(s) && s[i+1] == '\n' {
				emit(i)
			}
			continue
		case 0xE3, 0xEF:
			if r, n := utf8.DecodeRuneInString(s[i:]); r == '。' || r == '！' || r == '？' {
				emit(i + n)
				i += n - 1
			}
			continue
		}
		j := i + 1
		for j < len(s) && (s[j] == '"' || s[j] == '\'' || s[j] == ')') {
			j++
		}
		if j >= len(s) || (s[j] != ' ' && s[j] != '\n') {
			continue
		}
		k := j
		for k < len(s) && (s[k] == ' ' || s[k] == '\n') {
			k++
		}
		if k >= len(s) {
			continue
		}
		r, _ := utf8.DecodeRuneInString(s[k:])
		if !(unicode.IsUpper(r) || unicode.IsDigit(r) || r == '"' || r == '\'' || r == '(') {
			continue
		}
		if c == '.' && (endsWithAbbreviation(s[:i]) || elision(s[:i+1])) {
			continue
		}
		emit(j)
	}
	emit(len(s))
	return out
}

// sentenceBytes are the bytes Sentences looks closer at: a line feed, the
// ends of sentences, and the first byte of the CJK ones (。 is E3 80 82,
// ！ EF BC 81, ？ EF BC 9F).
var sentenceBytes = func() (t [256]bool) {
	for _, c := range []byte("\n.!?\xe3\xef") {
		t[c] = true
	}
	return t
}()

// abbreviations are the common English abbreviations written with a full
// stop, lower-cased and without their final ".", that Sentences does not
// read as a sentence end: titles, "e.g.", "etc.", company forms, military
// ranks, "approx.".
var abbreviations = NewSet(`mr mrs ms dr st jr sr vs no mt u.s e.g i.e etc inc ltd co prof gen col lt
sgt ft approx`)

// endsWithAbbreviation reports whether before, the text before a full stop,
// ends with an abbreviation or an initial ("J. R. R.").
func endsWithAbbreviation(before string) bool {
	w := before[strings.LastIndexAny(before, " \n(")+1:]
	if len(w) == 1 && unicode.IsUpper(rune(w[0])) {
		return true
	}
	return abbreviations[strings.ToLower(w)]
}

// elision reports whether upTo, the text up to a full stop, ends with an
// ellipsis that stands apart from the word before it: a statement's
// syntax or a command line with words left out ("ALTER SUBSCRIPTION ...
// SET (slot_name = NONE)"), which goes on after it. An ellipsis written
// onto its word ("and so on...") may end a sentence.
func elision(upTo string) bool {
	rest, ok := strings.CutSuffix(upTo, "...")
	return ok && (rest == "" || rest[len(rest)-1] == ' ' || rest[len(rest)-1] == '\n')
}

// ChunkSentences splits s into sentences for packing text into chunks:
// after every ".", "!" or "?" followed by white space and after every CJK
// full stop, exclamation or question mark ("。", "！", "？"), keeping the
// punctuation. It knows no abbreviations and does not look at the next
// word: cutting after "Dr." only moves a chunk boundary, while a missed
// sentence end would make an over-long unit that must be cut mid-sentence.
// Sentences are trimmed of white space; blank ones are dropped.
func ChunkSentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		end := false
		switch r {
		case '。', '！', '？':
			end = true
		case '.', '!', '?':
			next, _ := utf8.DecodeRuneInString(s[i:])
			end = i < len(s) && unicode.IsSpace(next)
		}
		if end {
			if t := strings.TrimSpace(s[start:i]); t != "" {
				out = append(out, t)
			}
			start = i
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}
