package nodes

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// stopWords are dropped from keywords, grounding and coverage. The list is
// the usual English function words plus the question words and verbs that
// carry no topic ("what", "name", "tell").
var stopWords = toSet(`a about above after again against all also am an and any are aren't as at be
because been before being below between both but by can can't cannot could couldn't did didn't do
does doesn't doing don't down during each few for from further had hadn't has hasn't have haven't
having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've
if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of off on
once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should
shouldn't so some such than that that's the their theirs them themselves then there there's these
they they'd they'll they're they've this those through to too under until up very was wasn't we we'd
we'll we're we've were weren't what what's when when's where where's which while who who's whom why
why's with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves
tell please know name named called whose s t d ll ve re m also one ones many much did get got
give gave say said like just whats thing things`)

func toSet(words string) map[string]bool {
	set := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// nameGlue are function words that stay stop words even when capitalised.
var nameGlue = toSet(`the a an of and i in on at to`)

// token is one word of a text: its lower-case form, its stem, and whether it
// was written with a capital letter or holds a digit (names and codes, the
// words that make a question specific).
type token struct {
	Lower   string
	Stem    string
	Capital bool
	Digit   bool
	// Start is the byte offset of the word in the text.
	Start int
}

// tokenize splits text into words: runs of letters and digits, with inner
// apostrophes, hyphens and dots between digits kept ("o'brien", "1.2.3").
func tokenize(text string) []token {
	var out []token
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := strings.Trim(text[start:end], "'’-.")
		off := start + strings.Index(text[start:end], w)
		start = -1
		if w == "" {
			return
		}
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		r, _ := utf8.DecodeRuneInString(w)
		lower := strings.ToLower(strings.ReplaceAll(w, "’", "'"))
		t := token{Lower: lower, Stem: stem(lower), Capital: unicode.IsUpper(r), Start: off}
		for _, c := range w {
			if unicode.IsDigit(c) {
				t.Digit = true
				break
			}
		}
		out = append(out, t)
	}
	for i, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if start < 0 {
				start = i
			}
		case (r == '\'' || r == '’' || r == '-' || r == '.') && start >= 0:
			// Kept only when a letter or digit follows; trimmed in flush.
			next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
			if !(unicode.IsLetter(next) || unicode.IsDigit(next)) {
				flush(i)
			}
		default:
			flush(i)
		}
	}
	flush(len(text))
	return out
}

// stem is a light English suffix stripper: enough to match "papers" with
// "paper" and "studies" with "study" without a dictionary.
func stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:n-1]
	}
	return w
}

// contentTerms returns the distinct stems of text's content words, in order
// of first appearance, with a weight each: names (capitalised after the
// first word), words with digits and long words count more, because they are
// what makes a question specific.
func contentTerms(text string) []term {
	toks := tokenize(text)
	seen := make(map[string]int)
	var out []term
	for i, t := range toks {
		// A capitalised function word inside a question is part of a name
		// ("For Against", "The Who" aside from the article itself).
		nameWord := t.Capital && i > 0 && !nameGlue[t.Lower]
		if (stopWords[t.Lower] && !nameWord) || (len(t.Lower) < 2 && !t.Digit) {
			continue
		}
		w := 1.0
		if generalWords[t.Lower] || generalWords[t.Stem] {
			w = 0.35
		}
		if t.Digit {
			w += 1
		}
		if t.Capital && i > 0 {
			w += 0.75
		}
		if len(t.Lower) >= 8 {
			w += 0.25
		}
		if j, ok := seen[t.Stem]; ok {
			if w > out[j].Weight {
				out[j].Weight = w
			}
			continue
		}
		seen[t.Stem] = len(out)
		out = append(out, term{Stem: t.Stem, Word: t.Lower, Weight: w})
	}
	return out
}

// term is a weighted content word of a query.
type term struct {
	Stem   string
	Word   string
	Weight float64
}

func (t term) isNumber() bool {
	for _, r := range t.Word {
		if !unicode.IsDigit(r) && r != '.' && r != ',' {
			return false
		}
	}
	return true
}

// stemSet returns the set of stems of all words in text.
func stemSet(text string) map[string]bool {
	set := make(map[string]bool)
	for _, t := range tokenize(text) {
		set[t.Stem] = true
	}
	return set
}

// splitSentences splits text into sentences at ., ! or ? followed by space
// and an upper-case letter, digit or quote, and at blank lines. Common
// abbreviations ("Dr.", "U.S.") do not end a sentence.
func splitSentences(text string) []string {
	var out []string
	start := 0
	emit := func(end int) {
		s := strings.TrimSpace(text[start:end])
		if s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' && i+1 < len(text) && text[i+1] == '\n' {
			emit(i)
			continue
		}
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(text) && (text[j] == '"' || text[j] == '\'' || text[j] == ')') {
			j++
		}
		if j >= len(text) || (text[j] != ' ' && text[j] != '\n') {
			continue
		}
		k := j
		for k < len(text) && (text[k] == ' ' || text[k] == '\n') {
			k++
		}
		if k >= len(text) {
			continue
		}
		r, _ := utf8.DecodeRuneInString(text[k:])
		if !(unicode.IsUpper(r) || unicode.IsDigit(r) || r == '"' || r == '\'' || r == '(') {
			continue
		}
		if c == '.' && isAbbreviation(text[:i]) {
			continue
		}
		emit(j)
	}
	emit(len(text))
	return out
}

func isAbbreviation(before string) bool {
	i := strings.LastIndexAny(before, " \n(") + 1
	w := before[i:]
	if len(w) == 1 && unicode.IsUpper(rune(w[0])) { // initials: "J. R. R."
		return true
	}
	switch strings.ToLower(w) {
	case "mr", "mrs", "ms", "dr", "st", "jr", "sr", "vs", "no", "mt", "u.s", "e.g", "i.e", "etc", "inc", "ltd", "co", "prof", "gen", "col", "lt", "sgt", "ft", "approx":
		return true
	}
	return false
}
