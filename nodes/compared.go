package nodes

import (
	"maps"
	"slices"
	"strings"
)

// This file reads a question that asks for a judgement between two named
// things: "is zorpd faster than frobd", "is Zorp or Frob the better
// choice for …". Documents answer it only where a passage compares the
// two; a sentence that names one of them, or both without the judgement
// ("zorpd and frobd both read frob files"), answers another question.

// comparison is what a judgement question compares, and by what word.
type comparison struct {
	// a and b are the two names compared.
	a, b string
	// by are the forms of the judgement's word: "faster" and "fast";
	// "secure" for "more secure". Empty for a choice between two ("X or
	// Y"), which a sentence naming both and weighing them answers.
	by []string
}

// judgementWords ask for a choice between two things written "X or Y":
// "is Zorp or Frob the better choice", "should I use zorp or frob".
var judgementWords = toSet(`better best prefer preferred recommended recommend should`)

// notComparatives end in "er" and stand before "than" without comparing
// two named things: "rather than", "other than".
var notComparatives = toSet(`rather other`)

// quantityWords compare amounts, not named things: "more than 3 files".
var quantityWords = toSet(`more less fewer`)

// unnamedAlternatives stand for a thing not named: "… or something else?".
var unnamedAlternatives = toSet(`something anything else another other others alternative alternatives nothing`)

// comparedIn finds the comparison a question asks to judge, in the
// sentences that ask (askingPart, which the caller passes). ok is false
// for a question that compares nothing, or compares an amount ("larger
// than 2 GB") or an unnamed alternative ("… or something else?", "…
// rather than delete them").
func comparedIn(asking string) (comparison, bool) {
	toks := tokenize(asking)
	named := func(i int) bool {
		if i < 0 || i >= len(toks) {
			return false
		}
		w := toks[i].Lower
		return !stopWords[w] && !toks[i].Digit && !quantityWords[w] && !unnamedAlternatives[w] && len(w) > 1
	}
	for i, t := range toks {
		if t.Lower != "than" || i < 2 {
			continue
		}
		word := toks[i-1].Lower
		subject := i - 2
		switch {
		case notComparatives[word] || quantityWords[word]:
			continue
		case quantityWords[toks[i-2].Lower]: // "more secure than"
			subject = i - 3
		case !strings.HasSuffix(word, "er") && word != "worse":
			continue
		}
		if named(subject) && named(i+1) && !judgementWords[toks[subject].Lower] {
			return comparison{a: toks[subject].Lower, b: toks[i+1].Lower, by: comparativeForms(word)}, true
		}
	}
	judged := slices.ContainsFunc(toks, func(t token) bool { return judgementWords[t.Lower] })
	for i, t := range toks {
		if t.Lower == "or" && judged && named(i-1) && named(i+1) && !inCondition(asking, toks, i) && !actionsOfAWay(toks, i) {
			return comparison{a: toks[i-1].Lower, b: toks[i+1].Lower}, true
		}
	}
	return comparison{}, false
}

// irregularComparatives have no base form to strip "er" from.
var irregularComparatives = toSet(`better worse`)

// comparativeForms are the forms a passage may judge by: the comparative
// and its base ("faster": "fast"; "bigger": "big", its consonant
// undoubled).
func comparativeForms(word string) []string {
	base := strings.TrimSuffix(word, "er")
	if irregularComparatives[word] || base == word || len(base) < 3 {
		return []string{word}
	}
	forms := []string{word, base}
	if n := len(base); base[n-1] == base[n-2] {
		forms = append(forms, base[:n-1])
	}
	return forms
}

// choiceCues are the words a passage weighs two things with when it says
// which to choose: judgementWords, and "than", "instead", "rather" ("use
// zorp rather than frob").
var choiceCues = append(slices.Sorted(maps.Keys(judgementWords)), "than", "instead", "rather")

// answeredBy reports whether a quoted unit judges the comparison: it
// names both things and, for a comparative, its word; for a choice
// between the two, a word that weighs them (choiceCues). A sentence that
// names both side by side ("builds on Zorp stable and Frob LTS") does not
// say which is the better choice.
func (cmp comparison) answeredBy(c candidate) bool {
	has := func(w string) bool { return c.loose[looseStem(w)] }
	if !has(cmp.a) || !has(cmp.b) {
		return false
	}
	if len(cmp.by) == 0 {
		return slices.ContainsFunc(choiceCues, has)
	}
	return slices.ContainsFunc(cmp.by, has)
}

// conditionWords open a clause that says when something holds ("if I'm
// cross-compiling or building offline, …"): two things joined by "or" in
// it are the asker's situations, not a choice put to the files.
var conditionWords = toSet(`if when whenever unless while once`)

// inCondition reports whether toks[i] lies in a clause that a condition
// word opens: after the word, with no comma or semicolon between.
func inCondition(s string, toks []token, i int) bool {
	for j := i - 1; j >= 0; j-- {
		if strings.ContainsAny(s[toks[j].End:toks[j+1].Start], ",;") {
			return false
		}
		if conditionWords[toks[j].Lower] {
			return true
		}
	}
	return false
}

// mannerNouns name a way of doing something: "the best means to pin or
// unpin a frob" asks for the means, and the words around "or" are what
// it does, not two things to choose between.
var mannerNouns = toSet(`way ways method methods approach means`)

// actionsOfAWay reports whether the "or" at toks[i] joins what a way
// does: "<way> to <a> or <b>".
func actionsOfAWay(toks []token, i int) bool {
	return i >= 3 && toks[i-2].Lower == "to" && mannerNouns[toks[i-3].Lower]
}
