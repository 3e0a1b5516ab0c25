package nodes

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// sameMeaning groups the everyday words that manuals and questions use for
// one another: a user asks what a tool "skips", its manual says which
// files are "excluded"; a user asks about names "starting" with something,
// the manual about names "beginning" with it. Evidence finds a question's
// word in a passage that writes another word of its group (hitWords.has),
// and the answer's select step in a sentence that does (selection.score).
// Each group is a handful of plain English near-synonyms, chosen by
// reading how manuals phrase what questions ask, not from any one
// question; a word belongs to one group at most. Keep it small: a wide
// thesaurus would match every passage with every question.
var sameMeaning = [][]string{
	{"skip", "exclude", "ignore", "omit"},
	{"start", "begin"},
	{"remove", "delete"},
	{"stop", "halt"},
	{"allow", "permit"},
	{"show", "display"},
	{"maximum", "max"},
	{"minimum", "min"},
	{"several", "multiple"},
}

// codeSpelling maps the loose stem of a question's word to the way code
// spells the word: Go's math package, like C's, writes infinity "Inf"
// ("Atan2(-Inf, -Inf) = -3Pi/4"), and code shortens maximum and minimum to
// max and min. A code window is cut around the line that writes the short
// form (codeWindow), as around one that writes the word.
var codeSpelling = map[string]string{
	looseStem("infinity"): "inf",
	looseStem("infinite"): "inf",
	looseStem("maximum"):  "max",
	looseStem("minimum"):  "min",
}

// meaningGroup maps the loose stem of each sameMeaning word to its
// group's loose stems.
var meaningGroup = func() map[string][]string {
	m := map[string][]string{}
	for _, g := range sameMeaning {
		stems := make([]string, len(g))
		for i, w := range g {
			stems[i] = looseStem(w)
		}
		for _, s := range stems {
			if _, dup := m[s]; dup {
				panic("nodes: " + s + " is in two sameMeaning groups")
			}
			m[s] = stems
		}
	}
	return m
}()

// punctuationNames names the punctuation characters a question spells out
// ("files whose names start with a tilde") where a manual quotes the character
// itself ("names beginning with '.'").
var punctuationNames = map[rune]string{
	'.': "dot", '_': "underscore", '-': "hyphen", '/': "slash", '\\': "backslash",
	'*': "asterisk", '#': "hash", '~': "tilde", '@': "at", '%': "percent",
	'$': "dollar", '&': "ampersand", '|': "pipe", ',': "comma", ';': "semicolon",
	':': "colon", '!': "exclamation",
}

// quotePairs are the quotes around a character a text writes as itself:
// '.', ".", `.`, ‘.’ and “.”.
var quotePairs = map[rune]rune{'\'': '\'', '"': '"', '`': '`', '‘': '’', '“': '”'}

// quotedPunctuation returns the names (punctuationNames) of the punctuation
// characters s quotes alone ("'.'", "‘_’").
func quotedPunctuation(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		open, n := utf8.DecodeRuneInString(s[i:])
		i += n
		closing, ok := quotePairs[open]
		if !ok {
			continue
		}
		c, cn := utf8.DecodeRuneInString(s[i:])
		name, ok := punctuationNames[c]
		if !ok {
			continue
		}
		if end, en := utf8.DecodeRuneInString(s[i+cn:]); end == closing {
			out = append(out, name)
			i += cn + en
		}
	}
	return out
}

// sameMeaningIn reports whether loose, a set of loose stems, holds a word
// of the group of the loose stem ls (not ls itself).
func sameMeaningIn(ls string, loose map[string]bool) bool {
	for _, s := range meaningGroup[ls] {
		if s != ls && loose[s] {
			return true
		}
	}
	return false
}

// negatedMeaning maps a word to the word its negation means: a manual
// says a command "will not succeed if …" where a user asks why it fails.
var negatedMeaning = map[string]string{"succeed": "fail"}

// negatedKeys are negatedMeaning's words, sorted.
var negatedKeys = slices.Sorted(maps.Keys(negatedMeaning))

// negatedWord finds a word of negatedMeaning (or a longer form of it:
// "succeeds") after a negation, with at most one word between ("does not
// succeed", "will never succeed", "cannot succeed").
var negatedWord = regexp.MustCompile(`(?i)\b(?:not|never|cannot|can't|won't|doesn't|don't|didn't)\s+(?:\w+\s+)?(` + strings.Join(negatedKeys, "|") + `)`)

// negatedMeanings are the words a text says by negating their opposites
// (negatedMeaning): "fail" for "This command will not succeed if …".
// Evidence reads every hit's text, and the case-insensitive regexp costs
// about as much as the rest of that reading, so a text that holds none
// of the words is not matched at all (hasFoldASCII: the words are plain
// ASCII, and manuals write them so).
func negatedMeanings(text string) []string {
	if !slices.ContainsFunc(negatedKeys, func(k string) bool { return hasFoldASCII(text, k) }) {
		return nil
	}
	var out []string
	for _, m := range negatedWord.FindAllStringSubmatch(text, -1) {
		if w := negatedMeaning[strings.ToLower(m[1])]; !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// hasFoldASCII reports whether s holds lower (lower-case ASCII) in any
// mix of ASCII cases, without copying s.
func hasFoldASCII(s, lower string) bool {
	for i := 0; i+len(lower) <= len(s); i++ {
		j := 0
		for ; j < len(lower); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == len(lower) {
			return true
		}
	}
	return false
}

// hasQuote reports whether s may quote a character (a cheap test before
// quotedPunctuation).
func hasQuote(s string) bool { return strings.ContainsAny(s, "'\"`‘“") }

// closedCompound is two words a question writes side by side that a text
// may write as one word: "file names" as "filenames", "stop word" as
// "stopword", "time zone" as "timezone". stem is the joined word's stem
// (a code window's lines are scored by stems: codeWindow) and loose its
// loose stem; first and second are the loose stems of its parts.
type closedCompound struct {
	stem, loose, first, second string
}

// closedCompounds are the pairs of words side by side in query, with only
// spaces between them, each of at least two letters a to z and neither a
// function word, as one word (see closedCompound). Most such pairs are no
// compound ("module path" is not "modulepath"); a text's word is matched
// against the joined pair only, so those cost nothing. A compound the
// question writes with a hyphen ("right-align") is compoundParts' and
// wholeCompounds': the text's word is split at its capitals, hyphens and
// underscores, which a closed compound has none of.
func closedCompounds(query string) []closedCompound {
	toks := tokenize(query)
	var out []closedCompound
	for i := 0; i+1 < len(toks); i++ {
		a, b := toks[i], toks[i+1]
		if !plainWord(a.Lower) || !plainWord(b.Lower) || stopWords[a.Lower] || stopWords[b.Lower] ||
			strings.TrimSpace(query[a.End:b.Start]) != "" {
			continue
		}
		joined := a.Lower + b.Lower
		out = append(out, closedCompound{stem: stem(joined), loose: looseStem(joined), first: looseStem(a.Lower), second: looseStem(b.Lower)})
	}
	return out
}

// plainWord reports whether w is a word of two or more letters a to z.
func plainWord(w string) bool {
	return lettersOnly(w, 'a', 'z')
}
