package main

import (
	"strings"
	"unicode"
)

// Chat resolves a follow-up's pronoun to the previous question's subject
// before the question runs, and says so: "does it lock the table?" after
// "what does VACUUM FULL do?" runs as "does VACUUM FULL lock the table?".
// Retrieval then searches for what the user meant instead of for "it", and
// the rewritten question is shown, so a wrong guess is visible.

// questionWords open a question; auxiliaries follow them.
var (
	questionWords = wordSet(`what how why when where who whom whose which`)
	// doAux are auxiliaries after which the subject is followed by the main
	// verb ("where do ospreys nest", "what does X do").
	doAux  = wordSet(`do does did can could should would will shall may might must`)
	beAux  = wordSet(`is are was were has have had`)
	filler = wordSet(`a an the of in on at to for from by with about into over under and or but not no
	me my i we our you your it its this that these those they them their he she him her his there
	is are was were be been being do does did done has have had can could should would will shall may might must
	what how why when where who whom whose which tell explain describe show give please about`)
	articles = wordSet(`the a an`)
	// singular and plural pronouns that may stand for the previous subject.
	singularRef = wordSet(`it this that`)
	pluralRef   = wordSet(`they them these those`)
	// dummyIt are words after "it is"/"is it" that make "it" no pronoun
	// ("is it possible to …").
	dummyIt = wordSet(`possible necessary safe ok okay true worth better best easy hard likely enough time`)
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// token is a word of a question with its byte offsets.
type token struct {
	text       string
	lower      string
	start, end int
}

func tokens(s string) []token {
	var out []token
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.' && start >= 0
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, mkToken(s, start, i))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, mkToken(s, start, len(s)))
	}
	return out
}

func mkToken(s string, start, end int) token {
	t := strings.TrimRight(s[start:end], ".-")
	end = start + len(t)
	return token{text: t, lower: strings.ToLower(t), start: start, end: end}
}

// subjectOf guesses what a question is about: the first run of content
// words, less the main verb that follows the subject after do-type
// auxiliaries ("where do ospreys nest in …" → "ospreys"; "what does VACUUM
// FULL do?" → "VACUUM FULL").
func subjectOf(question string) string {
	toks := tokens(question)
	i := 0
	aux := ""
	if i < len(toks) && questionWords[toks[i].lower] {
		i++
		if i < len(toks) && (doAux[toks[i].lower] || beAux[toks[i].lower]) {
			aux = toks[i].lower
			i++
		}
	} else if i < len(toks) && (doAux[toks[i].lower] || beAux[toks[i].lower]) {
		aux = toks[i].lower
		i++
	}
	for i < len(toks) && filler[toks[i].lower] {
		i++
	}
	j := i
	for j < len(toks) && !filler[toks[j].lower] {
		j++
	}
	if i == j {
		return ""
	}
	run := toks[i:j]
	// After "do"/"can", the subject is followed by the main verb: unless the
	// verb is a filler word right after the run ("… VACUUM FULL do?"), the
	// run's last word is that verb.
	if doAux[aux] && len(run) > 1 && (j == len(toks) || toks[j].lower != "do" && toks[j].lower != "does") {
		run = run[:len(run)-1]
	}
	start := run[0].start
	if i > 0 && articles[toks[i-1].lower] {
		start = toks[i-1].start // "the nightly backup" reads better in its place
	}
	return strings.TrimSpace(question[start:run[len(run)-1].end])
}

// maxFollowUpWords bounds the questions treated as follow-ups: a long
// question names its own subject.
const maxFollowUpWords = 10

// resolveFollowUp rewrites a short follow-up whose pronoun points at the
// previous question's subject; ok is false when query is left as it is.
func resolveFollowUp(query, previous string) (string, bool) {
	if previous == "" {
		return query, false
	}
	toks := tokens(query)
	if len(toks) == 0 || len(toks) > maxFollowUpWords {
		return query, false
	}
	subject := subjectOf(previous)
	if subject == "" || strings.Contains(strings.ToLower(query), strings.ToLower(subject)) {
		return query, false
	}
	for i, t := range toks {
		if !singularRef[t.lower] && !pluralRef[t.lower] && t.lower != "its" {
			continue
		}
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1].lower
		}
		// "that invoice", "those files": a determiner, not a pronoun.
		if t.lower != "it" && t.lower != "its" && t.lower != "they" && t.lower != "them" && next != "" && !filler[next] {
			continue
		}
		if t.lower == "it" && isDummyIt(toks, i) {
			continue
		}
		repl := subject
		if t.lower == "its" {
			repl = subject + "'s"
		}
		return query[:t.start] + repl + query[t.end:], true
	}
	return query, false
}

// isDummyIt reports whether toks[i] ("it") is an expletive: "is it
// possible …", "it is worth …".
func isDummyIt(toks []token, i int) bool {
	if i+2 < len(toks) && (toks[i+1].lower == "is" || toks[i+1].lower == "was") && dummyIt[toks[i+2].lower] {
		return true
	}
	if i > 0 && i+1 < len(toks) && (toks[i-1].lower == "is" || toks[i-1].lower == "was") && dummyIt[toks[i+1].lower] {
		return true
	}
	return false
}
