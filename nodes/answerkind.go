package nodes

import (
	"regexp"
	"strings"
	"unicode"
)

// This file finds the words with which a question names the kind of
// answer it wants ("which port", "what file", "is there an option"): the
// asker's description of the answer, which the passage holding it writes
// as the answer itself ("listens on 8080", "-k keep going"), not as the
// description. Such words are neither a thing the passage must repeat nor
// a name that pins the question to one passage.

// kindOpeners are the prepositions a "which"/"what" question may open
// with before its kind ("on which port", "in what file").
var kindOpeners = toSet(`in on at for from to under by with into through`)

// kindSkip are the words between "what"/"which" and the kind that say
// only that a kind follows: "what kind of option", "which sort of file".
var kindSkip = toSet(`kind kinds sort sorts type types of`)

// articles may open the subject after the auxiliary: "what port is the
// daemon on".
var articles = toSet(`the a an`)

// maxKindWords bounds the kind phrase: "which HTTP route", "what default
// port number". A longer run before the verb is more than a kind.
const maxKindWords = 3

// answerKindWords returns the lower-cased words of the phrase a question
// names its answer's kind with:
//   - after an opening "which" or "what" (also after a preposition: "in
//     which file"), up to an auxiliary verb that a subject follows:
//     "which port does fooserver listen on" (port); "what fooserver
//     does on startup" is not one ("does" ends the clause, a function
//     word follows);
//   - after an opening "is there a/an/any" or "are there": "is there a
//     flag to …" (flag).
func answerKindWords(question string) map[string]bool {
	toks := tokenize(question)
	i := 0
	if len(toks) > 1 && kindOpeners[toks[0].Lower] {
		i = 1
	}
	if i >= len(toks) {
		return nil
	}
	there := false
	switch {
	case toks[i].Lower == "which" || toks[i].Lower == "what":
		i++
	case i == 0 && len(toks) > 2 && (toks[0].Lower == "is" || toks[0].Lower == "are") && toks[1].Lower == "there":
		there = true
		i = 2
		if i < len(toks) && (toks[i].Lower == "a" || toks[i].Lower == "an" || toks[i].Lower == "any" || toks[i].Lower == "some") {
			i++
		}
	default:
		return nil
	}
	for i < len(toks) && kindSkip[toks[i].Lower] {
		i++
	}
	var words []string
	from := i
	for ; i < len(toks) && len(words) <= maxKindWords; i++ {
		t := toks[i]
		if auxiliaries[t.Lower] || stopWords[t.Lower] {
			break
		}
		words = append(words, t.Lower)
	}
	if len(words) == 0 || len(words) > maxKindWords {
		return nil
	}
	// Words with digits, dots, underscores or slashes are names, never a
	// kind ("which quark_conf setting": the tokens split the name).
	if strings.ContainsFunc(question[toks[from].Start:toks[i-1].End], func(r rune) bool { return r != ' ' && !unicode.IsLetter(r) }) {
		return nil
	}
	if !there {
		// The phrase must end at an auxiliary with a subject after it:
		// "which port does fooserver …", "what port is the daemon on".
		if i+1 >= len(toks) || !auxiliaries[toks[i].Lower] {
			return nil
		}
		if next := toks[i+1].Lower; stopWords[next] && !articles[next] {
			return nil
		}
	}
	out := make(map[string]bool, len(words))
	for _, w := range words {
		out[w] = true
	}
	return out
}

// evidenceTerms are a question's content terms (contentTerms) for
// measuring how well passages match it: the words naming the kind of
// answer it wants (answerKindWords) weigh as everyday words, since the
// passage that answers writes the answer, not its kind ("/stats/live",
// not "HTTP route"). A kind word written with a capital keeps what its
// capital adds: "HTTP" is still more telling than "route".
//
// So do the words a question writes only in the statements that tell the
// asker's situation (see askingPart): "the panel went blank after an
// upgrade" is how the asker saw it, not how the document says it. What
// they write as names keeps the weight a name adds.
func evidenceTerms(question string) []term { return evidenceTermsSkipping(question, functionOnlyWords) }

// probeTerms are evidenceTerms as the router's probe of the files reads
// them: with functionOnlyWords kept, as its calibration was measured.
func probeTerms(question string) []term { return evidenceTermsSkipping(question, nil) }

// evidenceTermsSkipping is evidenceTerms skipping the words of skip
// besides stopWords (see termsOf).
func evidenceTermsSkipping(question string, skip map[string]bool) []term {
	kinds := answerKindWords(question)
	asking := askingPart(question)
	if len(kinds) == 0 && asking == question {
		return termsOf(question, nil, skip)
	}
	asked := map[string]bool{}
	if asking != question {
		for _, t := range tokenize(asking) {
			asked[t.Stem] = true
		}
	}
	return termsOf(question, func(w string) bool {
		return kinds[w] || asking != question && !asked[stem(w)]
	}, skip)
}

// askedKindWords are the words that name the kind of answer in any
// sentence that asks (asking, the question's askingPart), not only an
// opening one (answerKindWords): "Does Debian's zorp package point to a
// FAQ? What's the URL?" asks for a URL. A short question that names only
// the thing asked for ("What's the URL?", "what are their names?") names
// its kind with all of it.
func askedKindWords(question, asking string) map[string]bool {
	kinds := answerKindWords(question) // a map of its own: added to below
	add := func(w string) {
		if kinds == nil {
			kinds = map[string]bool{}
		}
		kinds[w] = true
	}
	of := func(sentence string) {
		if sentence != question {
			for k := range answerKindWords(sentence) {
				add(k)
			}
		}
		if whatIsThe.MatchString(sentence) {
			for _, f := range strings.Fields(strings.ToLower(whatIsThe.FindStringSubmatch(sentence)[1])) {
				add(f)
			}
		}
	}
	if !strings.ContainsAny(strings.TrimRight(asking, "?!. "), "?!.") {
		of(asking) // one sentence
		return kinds
	}
	for _, sentence := range splitSentences(asking) {
		of(sentence)
	}
	return kinds
}

// whatIsThe finds a sentence that asks only for a thing by its kind:
// "What's the URL?", "Which is the default?" (up to three words).
var whatIsThe = regexp.MustCompile(`(?i)^\s*(?:what|which)(?:'s|’s| is| are| was| were) (?:the |its |their )?((?:\S+ ){0,2}\S+?)\s*\?\s*$`)
