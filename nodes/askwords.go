package nodes

import (
	"regexp"
	"slices"
	"strings"
)

// personName finds a name as prose writes one: two or more capitalised
// words in a row, initials and lower-case particles allowed between them
// ("Julian R Seward", "D. Richard Hipp", "Free Software Foundation",
// "Ludwig van Beethoven"), the first maybe an upper-case acronym, as
// organisations are named ("ARM Limited", "IBM Corporation"). A capital
// opening a sentence before a word in lower case ("The panic built-in"),
// or one capitalised word alone, is not one; identifiers are masked
// before (maskIdentifiers).
var personName = regexp.MustCompile(`\b(?:[A-Z][a-z\x{00DF}-\x{00FF}]+|[A-Z]{2,})(?:\s+(?:[A-Z]\.?|van|von|de|der|da|del|di|du|le|la|bin|ibn))*(?:\s+[A-Z][a-z\x{00DF}-\x{00FF}]+)+`)

// namesSomeone reports whether text names a person or an organisation
// (personName), the name's first word not a function word ("The Written
// Word" counts by "Written Word", "In Sydney" is no name). An acronym
// before a function word is a keyword or a field's value ending where a
// sentence starts ("IF NOT EXISTS Do not throw", "License: FSFAP This
// file"), no name.
func namesSomeone(text string) bool {
	titles := quotedPhrase.FindAllStringIndex(text, -1)
	for _, loc := range personName.FindAllStringIndex(text, -1) {
		if slices.ContainsFunc(titles, func(q []int) bool {
			return q[0] < loc[0] && loc[1] < q[1] && !onlyName(text[q[0]:q[1]], text[loc[0]:loc[1]])
		}) {
			// Capitals inside a longer quoted phrase are a title's
			// ("see the “Zorp Wire Format of Frob records” section"),
			// not a name.
			continue
		}
		words := strings.Fields(text[loc[0]:loc[1]])
		first := strings.ToLower(words[0])
		if isKeyword(words[0]) && stopWords[strings.ToLower(words[1])] {
			continue
		}
		if !stopWords[first] {
			return true
		}
		// "The Written Word": the words after the function word.
		if rest := words[1:]; len(rest) >= 2 {
			return true
		}
	}
	return false
}

// agentCue finds what makes a name in a unit the name of who did
// something: "by" before it (written, maintained, designed, created by),
// a field or word of authorship ("Author:", "Maintainer:", "Copyright",
// "Authors"), or an e-mail address in angle brackets after it.
var agentCue = regexp.MustCompile(`\bby\s+[A-Z]|(?i:\b(authors?|maintainers?|copyright|contributors?|credits?)\b)|<[^<>@\s]+@[^<>\s]+>`)

// authorWords are the words a question asks who made or owns a work
// with: "who wrote grep", "who maintains the tzdata package", "who holds
// the copyright on bzip2".
var authorWords = toSet(authorWordList)

const authorWordList = `wrote write writes written author authors authored maintain maintains maintained maintainer maintainers create creates created develop develops developed developer developers design designs designed copyright`

// authorWordPattern finds a word of authorWords in any case, so that a
// question without one is not tokenized (retrieve asks every question).
var authorWordPattern = regexp.MustCompile(`(?i)\b(` + strings.Join(strings.Fields(authorWordList), "|") + `)\b`)

// asksAuthor reports whether a question asks who made or owns a work
// (authorWords).
func asksAuthor(query string) bool {
	return authorWordPattern.MatchString(query) && slices.ContainsFunc(tokenize(query), func(t token) bool { return authorWords[t.Lower] })
}

// namesAgent reports whether text, which names someone, names them as who
// did something (agentCue).
func namesAgent(text string) bool { return agentCue.MatchString(text) }

// overviewWords are the words a question asks about a thing as a whole
// with, besides its name: "what is pg_rewind for", "what does pg_checksums
// do", "what does pg_controldata show", "what does pg_dumpall write out".
var overviewWords = toSet(`do does did is are was for used use purpose show shows display displays print prints list lists write writes out output outputs mean means meaning contain contains report reports describe describes`)

// asksOverview reports whether a question asks what something is or does
// as a whole: a "what" question whose content words are a name and
// overviewWords only. Which passage is about the name as a whole is the
// store's and ingest's to say (a chunk's Symbol, see symbolNamed).
func asksOverview(query string) bool {
	toks := tokenize(query)
	if len(toks) == 0 || toks[0].Lower != "what" {
		return false
	}
	words, weights := nameWordsWeighted(query)
	rest := 0
	for _, w := range words {
		if weights[w] == 1 && !overviewWords[w] {
			rest++ // a word as written ("pg_rewind"), not a pair joined
		}
	}
	return rest == 1
}

// endsWithText reports whether text ends with the words of tail, spacing
// aside: a manual's NAME section is "NAME" and its title line.
func endsWithText(text, tail string) bool {
	tail = strings.Join(strings.Fields(tail), " ")
	return tail != "" && strings.HasSuffix(strings.Join(strings.Fields(text), " "), tail)
}

// changeWords are the words a question asks what a release changed with,
// besides its name and version: "what changed in git 2.30.0", "what is new
// in tmux 3.3", "what are the changes in coreutils 9.1".
var changeWords = toSet(`changed change changes new news different difference differences fixed fixes added improved improvements happened`)

// asksChanges reports whether a question asks what one release changed, as
// a whole: a "what" question with a version whose other words are the
// release's name and changeWords.
func asksChanges(query string) bool {
	toks := tokenize(query)
	names := versionedNames(query)
	if len(toks) == 0 || toks[0].Lower != "what" || len(names) != 1 {
		return false
	}
	changed := false
	for _, t := range contentTerms(query) {
		switch {
		case changeWords[t.Word]:
			changed = true
		case t.Word == names[0][0] || strings.Contains(names[0][1], t.Word) || t.isNumber():
		default:
			return false
		}
	}
	return changed
}

// quotedPhrase is a phrase in quotation marks, typographic or plain, on
// one line.
var quotedPhrase = regexp.MustCompile(`“[^”\n]*”|"[^"\n]*"`)

// onlyName reports whether a quoted phrase is the name alone, in its
// marks.
func onlyName(quoted, name string) bool {
	return strings.Trim(quoted, `“”" `) == name
}
