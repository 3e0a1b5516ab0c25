package nodes

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// candidate is a sentence of a kept hit that may be quoted in an
// extractive answer.
type candidate struct {
	text string
	hit  int
	pos  int
	// stems maps the stems the sentence is about to how much they count:
	// 1 when the sentence holds them, less when only its context does (its
	// section heading, the document title).
	stems map[string]float64
	// section numbers the sections of a passage; secPos is the sentence's
	// position in its section; item is true for a list item.
	section, secPos int
	item            bool
	// loose are the sentence's own words under looseStem.
	loose map[string]bool
	// prose is false for a fragment without a verb (a table row, a label).
	prose bool
	// masked is text with identifiers masked, for matching answer kinds:
	// the digits of "INV-2024-0117" are no amount.
	masked string
	// unit is the quoted unit: code and lead-ins are shown on lines of
	// their own.
	unit quoteUnit
	// declares is true for code that declares a name the question asks
	// about ("func NewReader" for "what does strings.NewReader return"),
	// or a manual's paragraph that defines an option it names ("--max-rate").
	declares bool
	// test is true for a unit of a test file, test data or vendored copy.
	test bool
	// defines is true for a manual's paragraph that defines a term the
	// question names ("RESTART IDENTITY"): like declares, but a one-word
	// term ("FULL") is as often only mentioned, so the answer may go on.
	defines bool
	// runs is true for an example that runs the command a "how do I"
	// question names: like defines, a bonus that lets the answer go on.
	runs bool
	// instructs is true for a unit that tells the reader to do what a
	// "how do I …" question asks how to do, with its verb as an
	// imperative: "Change it by running …" for "how do I change …"
	// (see howToVerb).
	instructs bool
	// naming is how many of the question's words name the unit's file or
	// folder ("gzip" and "copyright" name gzip/copyright).
	naming int
	// pkgDoc is true for a unit of the doc comment of the package a name
	// the question asks about is in (os/exec's package doc for
	// "exec.Command"): what the declaration's own doc leaves to it.
	pkgDoc bool
	// source is true for a unit of a source file (isCodeHit).
	source bool
	// name is true when the unit names a person or an organisation
	// (namesSomeone): what a "who" question asks for.
	name bool
	// agent is true when the unit names someone as who did something
	// (namesAgent): "written by Jim Meyering", "Author: Jim Meyering".
	agent bool
	// subheadAsked is true for a unit under a subheading of a release's
	// notes (not the release's own heading) holding a question word.
	subheadAsked bool
	// release is +1 for a unit under the heading of a release the question
	// names ("jq (1.6-2.1+deb12u1) …" for "which CVE does jq
	// 1.6-2.1+deb12u1 fix"), -1 under another release's, 0 otherwise.
	release int
}

// An askKind is a kind of answer a question part asks for: "when" wants a
// time, "where" a place, "how much" an amount. A multi-part question ("when
// does it run and where does it go?") asks for several.
type askKind struct {
	name string
	// ask finds the kind in a question; has in a sentence, once what
	// matches not (when set) is removed.
	ask, has, not *regexp.Regexp
	// prefer are words that mark the sentence that answers the kind best
	// ("total" for an amount).
	prefer map[string]bool
}

var askKinds = []askKind{
	{name: "time",
		ask: regexp.MustCompile(`(?i)\b(when|what time|what day|which day|what date|how often|how long)\b`),
		has: regexp.MustCompile(`(?i)\b\d{1,2}[:.]\d{2}\b|\b(1[89]|20)\d{2}\b|\b\d{1,2}(st|nd|rd|th)\b|\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(january|february|march|april|may|june|july|august|september|october|november|december)\b|\b(daily|weekly|monthly|yearly|nightly|hourly|every|each|tomorrow|yesterday|midnight|noon|morning|evening|night|quarter|minutes?|hours?|days?|weeks?|months?|years?|am|pm)\b`)},
	// A question that asks when software changed asks, in its documents'
	// words, for a release: "when will Go drop the setting" is answered
	// by "… will be removed in Go 1.27", "which version of the LGPL" by
	// "LGPL v2.1". The answer holds a version number.
	{name: "version",
		ask: regexp.MustCompile(`(?i)\b(which|what) (\w+ )?(version|release)s?\b|\bin which (version|release)\b|\bsince (when|which)\b|\bwhen (was|were|did|will|is|does|do)\b[^?]*\b(add|added|introduced?|removed?|drop|dropped|deprecated?|go away|gone|fixed|released?|supported|changed?|appear(ed)?)\b`),
		has: regexp.MustCompile(`(?i)\b(v|version|release)?\s?\d+\.\d+(\.\d+)*([-+~][\w.+~]+)?\b`)},
	{name: "place",
		ask: regexp.MustCompile(`(?i)\b(where|which (folder|directory|server|host|bucket|disk|drive|place|city|country|room|site))\b`),
		has: regexp.MustCompile("(?i)\\b(to|into|in|at|on|under|from|inside|throughout|across|near|outside|within|between)\\s+(the\\s+|a\\s+)?(?-i:[A-Z`/\"'~])|\\b(locations?|venues?|addresses)\\b|\\b(to|into|in|at|on)\\s+(the\\s+|a\\s+)?[\\w-]+\\s+(bucket|folder|directory|server|disk|drive|host|room|office|street|city|cloud|share)\\b|(^|\\s)[~/][\\w.-]+/|\\b\\w+://"),
		// "on Tuesday", "in March" are times, not places.
		not: regexp.MustCompile(`(?i)\b(on|in|at|from|to|until|between|within|since|by)\s+(the\s+)?(mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(on|in|at|from|to|until|between|within|since|by)\s+(the\s+)?(january|february|march|april|may|june|july|august|september|october|november|december)\b`)},
	{name: "amount",
		ask:    regexp.MustCompile(`(?i)\b(how much|how many|what (was|is|were|are) the (total|cost|price|amount|fee|sum)|cost|price)\b`),
		has:    regexp.MustCompile(`(?i)(€|\$|£|¥|\b(eur|usd|gbp|chf|jpy|cad|aud)\b)\s?\d|\d[\d,.]*\s?(€|\$|£|%|\b(eur|usd|gbp|euros?|dollars?|pounds?|percent)\b)|\b\d+([.,]\d+)?\b`),
		prefer: toSet(`total due amount sum balance price cost`)},
	{name: "person",
		ask: regexp.MustCompile(`(?i)\b(who|whom)\b`),
		has: regexp.MustCompile(`\S\s+[A-Z][a-z]+|^[A-Z][a-z]+:`)},
	{name: "reason",
		ask: regexp.MustCompile(`(?i)\bwhy\b`),
		has: regexp.MustCompile(`(?i)\b(because|since|so that|due to|as a result|in order to|reason|rejected|fails?|failed)\b`)},
	// A question that leaves something out asks what happens then: "what
	// does the archiver name its output when I pass no name", "which mode
	// does the tool pick if I don't set one", "the default timeout". The answer
	// is the sentence that says so ("The default is …", "If no mode is
	// specified, …"), not one that only shares the subject's words. "Does
	// it do X automatically" asks the same: whether X is done unasked.
	{name: "default",
		ask:    regexp.MustCompile(`(?i)\bdefaults?\b|\bautomatic(ally)?\b|\bwithout (a|an|any)\b|\bif (i|you|we|one) (don't|do not|didn't|did not|never) (give|name|pass|specify|set|provide|choose|pick|say)\b|\bif (i|you|we|one) (omit|leave out|leave off)\b`),
		has:    regexp.MustCompile(`(?i)\b(default|defaults|by default)\b|\bif (no|none)\b|\bif (it is |they are )?(not|never) (specified|given|set|supplied|provided)\b|\b(if|when|is) omitted\b|\botherwise\b`),
		prefer: toSet(`default defaults`)},
	// A question that asks what something needs asks for a condition:
	// "what must the mirror have so that syncing works", "which privilege
	// is required to …". The answer is the sentence that states the
	// condition ("… is only allowed if …", "… must have …"), which often
	// comes after the one that describes the thing itself.
	{name: "requirement",
		ask: regexp.MustCompile(`(?i)^\s*(what|which)\b[^?]*\b(needs?|needed|requires?|required|prerequisites?)\b`),
		has: regexp.MustCompile(`(?i)\bonly (be )?(allowed|possible|permitted|supported|accepted|works?|succeeds?) (if|when)\b|\bonly if\b|\bmust (be|have|hold|own)\b|\b(requires|required|prerequisites?)\b|\b(needs?|needed)\b|\bat least one\b`)},
	// A question that asks what happens (when, if) asks for a
	// consequence: "what happens when two writers lock the same page".
	// The answer says what follows ("… will cause an error", "… is
	// ignored", "nothing is done"), not one that only restates the
	// situation the question describes.
	{name: "consequence",
		ask: whatHappens,
		has: regexp.MustCompile(`(?i)\b(will|would|may|can) (cause|raise|fail|abort|result in|be (ignored|skipped|rejected|discarded|lost|raised|reported))\b|\b(causes|caused|results in|is raised|fails|is (ignored|skipped|rejected|discarded|lost|reported))\b|\bnothing (is done|happens)\b|\bno effect\b|\b(errors?|violations?)\b`)},
	{name: "steps",
		ask: regexp.MustCompile(`(?i)^\s*(how (do|can|should|would|to) (i|we|you|one)?|how to)\b|\b(steps?|procedure|instructions?)\b`),
		// An instruction opens with its verb, quotes a command, or names
		// the option to use ("… fails unless you use the FORCE option").
		has: regexp.MustCompile("(?i)^(run|use|open|click|copy|mount|select|type|enter|install|restart|start|stop|check|go|set|add|remove|edit|create|delete)\\b|`[^`]+`|\\b(use|pass|give|add|specify) (the |a )?[\\w-]+ (option|flag|switch)\\b")},
}

// whatHappens finds a question that asks what happens: "what happens
// when …", "what will happen if …". Its "when" opens a condition, not a
// question for a time (see askedKinds).
var whatHappens = regexp.MustCompile(`(?i)\bwhat (happens|will happen|would happen|happened)\b`)

// in reports whether text holds this kind of answer.
func (k askKind) in(text string) bool {
	if k.not != nil {
		text = k.not.ReplaceAllString(text, " ")
	}
	return k.has.MatchString(text)
}

// askedKinds returns the kinds of answer a question asks for, in order.
func askedKinds(query string) []askKind {
	type at struct {
		k   askKind
		pos int
	}
	var found []at
	happens := whatHappens.FindStringIndex(query)
	for _, k := range askKinds {
		loc := k.ask.FindStringIndex(query)
		if loc == nil {
			continue
		}
		if k.name == "time" && happens != nil && loc[0] > happens[0] && strings.EqualFold(query[loc[0]:loc[1]], "when") {
			// "what happens when a writer dies": the condition of a
			// consequence, not a question for a time.
			continue
		}
		found = append(found, at{k, loc[0]})
	}
	slices.SortStableFunc(found, func(a, b at) int { return a.pos - b.pos })
	out := make([]askKind, len(found))
	for i, f := range found {
		out[i] = f.k
	}
	return out
}

func looseSet(text string) map[string]bool {
	set := make(map[string]bool)
	for _, t := range tokenize(text) {
		set[looseStem(t.Lower)] = true
		if t.Digit && strings.Contains(t.Lower, "-") {
			// A code holds its parts: "CVE-2025-48060" holds "CVE".
			for _, part := range strings.Split(t.Lower, "-") {
				if part != "" {
					set[looseStem(part)] = true
				}
			}
		}
	}
	return set
}

var (
	auxiliaries  = toSet(`is are was were be been being am has have had do does did will would shall should can could may might must isn't aren't wasn't weren't won't can't don't doesn't didn't stays stay keeps keep goes go runs run takes take uses use owns own needs need means mean`)
	imperativeRe = regexp.MustCompile(`(?i)^(run|use|open|click|copy|mount|select|type|enter|install|restart|start|stop|check|set|add|remove|edit|create|delete|make|put|see|ask|call|send|keep|move|write|read)\b`)
)

// isProse reports whether a sentence reads as a statement rather than a
// label: it has a verb-like word (an auxiliary, a past or -ing form), starts
// with an imperative, or is long.
func isProse(s string) bool {
	toks := tokenize(s)
	if len(toks) >= 8 || imperativeRe.MatchString(s) {
		return true
	}
	for _, t := range toks {
		if auxiliaries[t.Lower] || len(t.Lower) > 4 && (strings.HasSuffix(t.Lower, "ed") || strings.HasSuffix(t.Lower, "ing")) {
			return true
		}
	}
	return false
}

// extractive builds an answer by quoting the kept hits: select picks the
// units (sentences, list items, code blocks) that best cover the query's
// terms, cover adds one for each kind of answer the question asks for and
// the quotes still miss, render writes them in reading order with [n]
// marks. The weights are answerWeights.
func extractive(query string, kept []graphrag.Hit, limit int) graphrag.Answer {
	a, _ := extractiveWhy(query, kept, limit)
	return a
}

// extractiveWhy is extractive, and when it abstains from passages it had,
// why.
func extractiveWhy(query string, kept []graphrag.Hit, limit int) (graphrag.Answer, string) {
	sel, cands := newSelection(query, kept)
	sel.pick(cands, limit)
	sel.cover(cands)
	sel.examples(cands, limit)
	sel.continuations(cands)
	sel.references(cands)
	if ok, why := answersAsked(query, sel.chosen, kept); !ok {
		// Quotes of another kind than asked for.
		return graphrag.Answer{Text: NoAnswer, Abstained: true, By: "abstain"}, why
	}
	withReleaseLines(query, sel.chosen)
	a := render(sel.chosen, kept)
	if contentFree(a.Text) {
		// Nothing quotable: an empty answer would read as an answer.
		return graphrag.Answer{Text: NoAnswer, Abstained: true, By: "abstain"}, "nothing quotable"
	}
	return a, ""
}

// newSelection is the start of choosing an answer: the candidate units of
// the kept hits and nothing chosen.
func newSelection(query string, kept []graphrag.Hit) (*selection, []candidate) {
	terms := questionTerms(query)
	kinds := askedKinds(query)
	cands, df := answerCandidates(query, kept, terms)
	for i := range terms {
		terms[i].Stem = looseStem(terms[i].Word)
	}
	mostNamed := 0
	for _, c := range cands {
		mostNamed = max(mostNamed, c.naming)
	}
	released := map[string]bool{}
	for _, n := range versionedNames(query) {
		released[looseStem(n[0])] = true
	}
	named := map[string]bool{}
	var asked []string
	for _, a := range askedIdents(query) {
		asked = append(asked, strings.ToLower(a.Name))
		named[looseStem(strings.ToLower(a.Name))] = true
		if a.Pkg != "" {
			named[looseStem(strings.ToLower(a.Pkg))] = true
		}
	}
	return &selection{terms: terms, kinds: kinds, df: df, kept: len(kept), mostNamed: mostNamed, named: named, asked: asked,
		steps:     slices.ContainsFunc(kinds, func(k askKind) bool { return k.name == "steps" }),
		licence:   licenceQuestion.MatchString(query),
		changes:   asksChanges(query),
		author:    asksAuthor(query),
		released:  released,
		covered:   make(map[string]bool),
		satisfied: make([]bool, len(kinds)),
	}, cands
}

// contentFree reports whether an answer says nothing: no word that is not
// a stop word, once citation marks and code fences are gone.
func contentFree(text string) bool {
	text = citationMark.ReplaceAllString(strings.ReplaceAll(text, "```", " "), " ")
	for _, t := range tokenize(text) {
		if !stopWords[t.Lower] {
			return false
		}
	}
	return true
}

// answerWeights are the extractive answerer's tuned numbers, in one place.
// They were set by hand on graphrag's own unit tests and the dev set's
// answer F1 (evals/datasets); the code-related ones (decl, test) on the
// fixtures of quote_test.go, before the real-documents benchmark was run.
var answerWeights = struct {
	// heading and title: how much a word of the section heading or the
	// document title counts towards what a unit is about (a word of the
	// unit itself counts 1). Passages say "he" for their subject, and a
	// section's sentences rarely repeat its heading.
	heading, title float64
	// covered scales a term already in the answer: a second unit must bring
	// something new.
	covered float64
	// kind is the bonus for holding a kind of answer asked for (a time, a
	// place, an amount); preferred adds to it for a preferred word ("total").
	kind, preferred float64
	// label scales a fragment without a verb (a table row, a label).
	label float64
	// secPos and hitRank: a unit's score is divided by 1+secPos×position in
	// its section and 1+hitRank×rank of its hit: earlier and better-ranked
	// first.
	secPos, hitRank float64
	// next is the least score of a unit after the first; nextFresh of one
	// next to a quoted unit that brings a new question word; step of the
	// next step of a quoted procedure (plus stepBonus to its score).
	next, nextFresh, step, stepBonus float64
	// decl is the bonus of code that declares a name the question asks
	// about; test scales a unit of a test file, test data or vendored copy.
	decl, test float64
	// instructs is the bonus of a unit that tells the reader to do what
	// a "how do I" question asks, with the question's verb (see
	// candidate.instructs): it answers the question as a declaration
	// answers about a name, so it is set like decl, not tuned.
	instructs float64
	// lessNamed scales a unit of a file the question names less than
	// another kept file ("who holds the copyright on gzip": a copyright
	// file of another package that mentions gzip, beside gzip/copyright).
	// Set like test, not tuned.
	lessNamed float64
	// release is the bonus of a unit under the heading of the release the
	// question names, otherRelease scales one under another release's
	// heading: set like decl and test, not tuned.
	release, otherRelease float64
	// coverBase, coverPreferred, coverNear, coverProse and coverPos score
	// the unit that fills an asked kind left open (see cover).
	coverBase, coverPreferred, coverNear, coverProse, coverPos float64
}{
	heading: 0.6, title: 0.3,
	covered: 0.2,
	kind:    0.6, preferred: 0.6,
	label:  0.5,
	secPos: 0.1, hitRank: 0.05,
	next: 0.5, nextFresh: 0.25, step: 0.01, stepBonus: 1,
	decl: 2, test: 0.3,
	instructs: 2,
	release:   2, otherRelease: 0.3,
	lessNamed: 0.5,
	coverBase: 0.1, coverPreferred: 1, coverNear: 0.5, coverProse: 0.2, coverPos: 0.02,
}

// questionTerms are the question's content terms, with each part of a
// dotted name added ("strings.NewReader" also asks for "NewReader"): code
// and its documentation name the parts apart.
func questionTerms(query string) []term {
	terms := contentTerms(query)
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		seen[t.Stem] = true
	}
	for _, t := range append([]term(nil), terms...) {
		for _, part := range compoundParts(t.Word) {
			// "right-align" asks for a right alignment: documentation
			// writes it "right-alignment" (see wholeCompounds), code
			// AlignRight (whose words are align and right). The parts
			// count as the compound does: a general word alone
			// ("right") is specific within it. A unit's own hyphenated
			// words are not split: one that writes the compound as the
			// question does scores for it once, as before.
			if st := stem(part); !seen[st] {
				seen[st] = true
				terms = append(terms, term{Stem: st, Word: part, Weight: t.Weight})
			}
		}
		if !strings.Contains(t.Word, ".") || t.isNumber() {
			continue
		}
		parts := strings.Split(t.Word, ".")
		for i, part := range parts {
			// The identifier of a qualified name is asked about even when
			// it is a stop word ("Once" of "sync.Once").
			name := i == len(parts)-1 && qualifiedKey(query, t.Word)
			if st := stem(part); len(part) > 1 && !seen[st] && (!stopWords[part] || name) {
				seen[st] = true
				terms = append(terms, term{Stem: st, Word: part, Weight: t.Weight})
			}
		}
	}
	return terms
}

// howToPattern finds the verb of a question that asks how to do
// something: "how do I change …", "how can we stop …", "how to add …".
var howToPattern = regexp.MustCompile(`(?i)^\s*how\s+(?:(?:do|can|should|would|could)\s+(?:i|we|you|one)\s+|to\s+)(\w+)`)

// lightVerbs say little of what a "how do I" question asks ("how do I
// make it …", "how do I get …"): a sentence opening with one is no
// instruction to do the thing asked.
var lightVerbs = toSet(`make get do have let go be use`)

// howToVerb is the verb a "how do I …" question asks how to do, lower
// case, or "" when the question is none or its verb is a light one.
func howToVerb(query string) string {
	m := howToPattern.FindStringSubmatch(query)
	if m == nil {
		return ""
	}
	v := strings.ToLower(m[1])
	if lightVerbs[v] || stopWords[v] {
		return ""
	}
	return v
}

// instructsTo reports whether a sentence tells the reader to do verb:
// it opens with the verb as an imperative ("Change it by running …"),
// or with "To <verb>" ("To change it, run …").
func instructsTo(sent, verb string) bool {
	toks := tokenize(sent)
	if len(toks) > 1 && toks[0].Lower == "to" {
		toks = toks[1:]
	}
	if len(toks) < 2 || toks[0].Start >= 4 || looseStem(toks[0].Lower) != looseStem(verb) {
		return false
	}
	// A verb in capitals names a command ("DROP TABLE drops a table",
	// "COPY moves data"): the sentence's subject, not an imperative.
	word := sent[toks[0].Start:toks[0].End]
	return len(word) < 2 || strings.ToUpper(word) != word
}

// actionNames adds to a question's name words (nameWordsWeighted) the
// action it asks about, a verb and its object across an article, joined
// as a manual names a command's page: "how do I shred a vault" names
// SHRED_VAULT.7, the page of what the question wants to do, over pages
// that only mention vaults. Each counts two words, as a pair of words
// side by side does.
func actionNames(query string, named []string, weights map[string]int) []string {
	toks := tokenize(query)
	for i := 0; i+2 < len(toks); i++ {
		v, art, obj := toks[i].Lower, toks[i+1].Lower, toks[i+2].Lower
		if !articles[art] || stopWords[v] || stopWords[obj] || len(v) < 2 || len(obj) < 2 {
			continue
		}
		for _, w := range []string{v + "_" + obj, v + "-" + obj} {
			if _, ok := weights[w]; !ok {
				named = append(named, w)
				weights[w] = 2
			}
		}
	}
	return named
}

// compoundParts are the words a hyphenated word is made of, when it is
// made of words: "right-align" gives right and align, "row-level" row and
// level; a code or version with digits ("CVE-2024-1234", "utf-8") gives
// none, and neither do function words ("if" of "if-exists").
func compoundParts(word string) []string {
	if !strings.Contains(word, "-") || strings.IndexFunc(word, unicode.IsDigit) >= 0 {
		return nil
	}
	var out []string
	for _, part := range strings.Split(word, "-") {
		if len(part) > 1 && !stopWords[part] {
			out = append(out, part)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// wholeCompounds are the compounds (hyphenated words of the question)
// that one word of text holds whole: every part of the compound begins
// one of the word's parts, in any order ("right-alignment" and
// AlignRight hold "right-align"; "row_level" holds "row-level").
func wholeCompounds(s string, compounds []string) []string {
	if len(compounds) == 0 {
		return nil
	}
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_')
	}) {
		var parts []string
		for _, p := range strings.FieldsFunc(f, func(r rune) bool { return r == '-' || r == '_' }) {
			for _, w := range text.IdentWords(p) {
				parts = append(parts, strings.ToLower(w))
			}
		}
		if len(parts) < 2 {
			continue
		}
		for _, c := range compounds {
			if !slices.Contains(out, c) && slices.IndexFunc(compoundParts(c), func(q string) bool {
				return !slices.ContainsFunc(parts, func(p string) bool { return strings.HasPrefix(p, q) })
			}) < 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

// qualifiedKey reports whether a dotted term of query is one of its
// package-qualified names.
func qualifiedKey(query, word string) bool {
	return slices.ContainsFunc(qualifiedNames(query), func(q qualifiedName) bool { return q.key() == word })
}

// askedNames are the identifiers a question names, lower-cased: the last
// part of a dotted name and any word written in CamelCase or with an
// underscore ("WithCancel", "io.EOF", "unique_violation").
func askedNames(query string) map[string]bool {
	out := map[string]bool{}
	for _, f := range strings.FieldsFunc(query, func(r rune) bool {
		return r == ' ' || r == '?' || r == ',' || r == '(' || r == ')' || r == '"' || r == '`'
	}) {
		f = strings.Trim(f, ".:;!'")
		if i := strings.LastIndex(f, "."); i >= 0 && i+1 < len(f) {
			out[strings.ToLower(f[i+1:])] = true
			continue
		}
		if hasInnerCapital(f) || strings.Contains(f, "_") {
			out[strings.ToLower(f)] = true
		}
	}
	for _, id := range identifierPattern.FindAllString(query, -1) {
		if !versionPattern.MatchString(id) {
			out[strings.ToLower(id)] = true
		}
	}
	return out
}

// hasInnerCapital reports whether w has an upper-case letter after a lower-case
// one ("NewReader", "iPhone") or is a capital followed by a capital word
// ("EOF" is not: all capitals).
func hasInnerCapital(w string) bool {
	lower := false
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= 'A' && r <= 'Z' && lower:
			return true
		}
	}
	return false
}

// answerCandidates are the quotable units of the kept hits, with what each
// is about, and how many hits hold each query stem.
func answerCandidates(query string, kept []graphrag.Hit, terms []term) ([]candidate, map[string]int) {
	idents := askedIdents(query)
	options := optionPattern.FindAllStringSubmatch(query, -1)
	releases := versionPattern.FindAllString(query, -1)
	named, nameWeights := nameWordsWeighted(query)
	named = actionNames(query, named, nameWeights)
	qLoose := looseSet(query)
	qAll := looseSet(query) // with function words: "only", "no"
	for _, t := range tokenize(query) {
		qAll[looseStem(t.Lower)] = true
	}
	steps := slices.ContainsFunc(askedKinds(query), func(k askKind) bool { return k.name == "steps" })
	verb := howToVerb(query)
	overview := asksOverview(query)
	var compounds []string // the question's hyphenated words
	for _, t := range terms {
		if compoundParts(t.Word) != nil {
			compounds = append(compounds, t.Word)
		}
	}
	qStems := make(map[string]bool, len(terms))
	for _, t := range terms {
		qStems[t.Stem] = true
	}
	var cands []candidate
	df := make(map[string]int)
	for i, h := range kept {
		hs := stemSet(h.Source.Title + " " + h.Chunk.Text)
		for _, t := range terms {
			if hs[t.Stem] {
				df[t.Stem]++
			}
		}
		title := looseSet(h.Source.Title)
		// How much of the question names the hit's file or folder
		// ("gzip" and "copyright" name gzip/copyright): see lessNamed.
		naming := 0
		for _, w := range named {
			if pathNamed(h.Source.Path, map[string]bool{w: true}) {
				naming += nameWeights[w]
			}
		}
		code := isCodeHit(h)
		var commands []string // the named words that name this hit's manual page
		if strings.Contains(h.Source.Path, "/man") || convertedText(h) {
			for _, w := range named {
				if pathNamed(h.Source.Path, map[string]bool{w: true}) {
					commands = append(commands, w)
				}
			}
		}
		// A passage named by what the question names, as a whole ("what
		// is pg_rewind for": the first paragraph of pg_rewind's
		// DESCRIPTION, which ingest names pg_rewind).
		lead := overview && !code && h.Chunk.Kind != kindFields && symbolNamed(h.Chunk.Symbol, named)
		var units []quoteUnit
		if code {
			units = sourceUnits(h, qStems)
			for k := range units {
				// "what is the value of http.StatusTeapot": its line of the
				// const block, not the block.
				if e, name, ok := entryOf(units[k].text, idents, h); ok {
					units[k].text, units[k].entry = inGroup(e, h.Chunk.Text), name
				}
			}
		} else if h.Chunk.Kind == kindFields {
			units = fieldUnits(h.Chunk.Text)
			markStanzas(units, h.Chunk.Heading)
		} else {
			units = splitUnits(h.Chunk.Text, convertedText(h))
			if len(units) > 0 && slices.ContainsFunc(units[0].defines, func(d string) bool {
				return slices.ContainsFunc(options, func(o []string) bool { return o[1] == d }) || termAsked(d, query, qLoose)
			}) {
				// The term the question asks about, defined in a passage of
				// its own: quoted whole.
				units = wholeDefinition(units, h.Chunk.Heading)
			}
		}
		test := isTestPath(h.Source.Path)
		pkgDoc := h.Chunk.Kind == kindPackage && slices.ContainsFunc(idents, func(a askedIdent) bool { return a.Pkg != "" && inPackage(h, a.Pkg) })
		for j, u := range units {
			sent := u.text
			own := looseSet(sent)
			for _, t := range tokenize(sent) {
				// "ssh-keygen" speaks of ssh; a compound the question
				// writes as well ("custom-format", or "custom-formats"
				// for it) counts once, whole.
				if !slices.ContainsFunc(compounds, func(c string) bool { return looseStem(c) == looseStem(t.Lower) }) {
					for _, part := range compoundParts(t.Lower) {
						own[looseStem(part)] = true
					}
				}
			}
			for _, w := range wholeCompounds(sent, compounds) {
				// The compound asked about, as one word: "right-alignment"
				// or AlignRight for "right-align", not "right" here and
				// "aligned" there.
				own[looseStem(w)] = true
			}
			if u.code {
				// "const BlockSize = 64" speaks of a block size.
				for k := range identWordSet(sent) {
					own[k] = true
				}
			}
			st := make(map[string]float64, len(own))
			for k := range own {
				st[k] = 1
			}
			heading := u.heading
			if heading == "" {
				heading = h.Chunk.Heading
			}
			for k := range looseSet(heading) {
				if st[k] == 0 {
					st[k] = answerWeights.heading
				}
			}
			for k := range title {
				if st[k] == 0 {
					st[k] = answerWeights.title
				}
			}
			if u.stanza == stanzaWhole {
				// A copyright file's stanza of the whole work is about the
				// work its path names ("quux/copyright"), though its
				// Copyright field names only people and years.
				for _, w := range named {
					if k := looseStem(w); st[k] == 0 && pathNamed(h.Source.Path, map[string]bool{w: true}) {
						st[k] = answerWeights.heading
					}
				}
			}
			kindText := sent
			if u.field != "" {
				// A field's kind of answer is in its value: "Copyright:"
				// names no one, "Julian R Seward" does.
				kindText = strings.TrimSpace(strings.TrimPrefix(sent, u.field+":"))
			}
			c := candidate{text: sent, hit: i, pos: j, stems: st, loose: own, prose: code || u.lead || u.field != "" || isProse(sent) && !usageLine(sent), masked: maskIdentifiers(kindText),
				section: u.section, secPos: u.secPos, item: u.item, unit: u, test: test, release: releaseScope(releases, scopeOf(u, heading)), naming: naming, pkgDoc: pkgDoc, source: code}
			if u.code {
				// The doc comment of a declaration cut in parts (a long
				// doc above "func Search") is of the declaration too; a
				// package's doc is not what "the block size of SHA-256 in
				// crypto/sha256" declares.
				c.declares = u.entry != "" || slices.ContainsFunc(idents, func(a askedIdent) bool {
					return a.declaredIn(sent, h) || a.symbolOf(h) && docComment(sent) && h.Chunk.Kind != kindPackage
				})
			}

			for _, o := range options {
				c.declares = c.declares || slices.Contains(u.defines, o[1])
			}
			c.defines = slices.ContainsFunc(u.defines, func(d string) bool { return termAsked(d, query, qLoose) || optionWordsAsked(d, qAll) })
			if u.field != "" && c.defines && symbolNamed(h.Chunk.Symbol, named) {
				// The field asked about of the work the question names:
				// the Copyright of gzip's upstream stanza, not of the
				// packaging's ("Files: debian/*").
				c.declares = true
			}
			if c.release > 0 && u.heading != "" && !releaseVersion.MatchString(u.heading) {
				for k := range looseSet(u.heading) {
					c.subheadAsked = c.subheadAsked || qLoose[k]
				}
			}
			c.name = namesSomeone(c.masked)
			c.agent = c.name && namesAgent(sent)
			if lead && !u.code || overview && naming > 0 && !code && endsWithText(sent, h.Source.Title) {
				// Also the document's own title line, when the question
				// names the file: a manual page's NAME ("pg_archivecleanup
				// - clean up PostgreSQL WAL archive files").
				c.declares = true
			}
			if steps && (u.code || u.lead) && len(commands) > 0 {
				// For "how do I …", the example that runs the command the
				// question names ("… with pg_restore": "$ pg_restore -C -d
				// postgres db.dump", not "$ pg_dump -Fc mydb").
				c.runs = runsCommand(sent, commands) && holdsBeyond(own, qLoose, commands)
			}
			// A lead-in's example is weighed by the command it runs
			// (runs), not by its opening verb.
			c.instructs = verb != "" && !u.code && !u.lead && instructsTo(sent, verb)
			// An instruction is a sentence, however short ("Switch it
			// with 'setfont NAME'."), not a label.
			c.prose = c.prose || c.instructs
			if !c.prose && len(tokenize(sent)) < 3 {
				// A label or a term on its own ("RPO") answers nothing.
				continue
			}
			cands = append(cands, c)
		}
	}
	return cands, df
}

// termAsked reports whether the question names a defined term that is not
// an option: every content word of it is in the question ("RESTART
// IDENTITY" for "what does TRUNCATE RESTART IDENTITY do"), and not right
// after a word that excludes it ("VACUUM without FULL" is not about FULL).
func termAsked(term, question string, loose map[string]bool) bool {
	if strings.HasPrefix(term, "-") {
		return false // options are matched as they are written
	}
	n := 0
	for _, t := range tokenize(term) {
		if stopWords[t.Lower] {
			continue
		}
		if !loose[looseStem(t.Lower)] {
			return false
		}
		n++
	}
	if n == 0 {
		return false
	}
	toks := tokenize(question)
	first := tokenize(term)[0].Lower
	for i := 1; i < len(toks); i++ {
		if toks[i].Lower == first && excluding[toks[i-1].Lower] {
			return false
		}
	}
	return true
}

// optionWordsAsked reports whether the question says what a long option
// says in two words or more: "--schema-only" for "how do I dump only the
// schema", "--if-exists" for "drop it only if it exists". An option of one
// word ("--schema", "--file") names a topic rather than what is asked.
func optionWordsAsked(opt string, question map[string]bool) bool {
	if !strings.HasPrefix(opt, "--") {
		return false
	}
	words := strings.Split(strings.TrimPrefix(opt, "--"), "-")
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		if w == "" || !question[looseStem(w)] {
			return false
		}
	}
	return true
}

// excluding are the words that put what follows them out of a question:
// "VACUUM without FULL", "files except logs".
var excluding = toSet(`without not no except excluding besides but`)

// releaseScope is +1 when heading heads the notes of a release the
// question names (versions), -1 when it heads another release's, 0 when
// it names no version or the question none. "2.23.0" names the release
// "Git 2.23 Release Notes" heads: trailing zero parts do not count.
func releaseScope(versions []string, heading string) int {
	if len(versions) == 0 {
		return 0
	}
	// In a heading path, the first heading that names a version is the
	// release's: "Git 2.30 Release Notes > Updates since v2.29" are the
	// notes of 2.30, which a subheading compares with 2.29.
	var hv []string
	for _, h := range strings.Split(heading, " > ") {
		if hv = versionPattern.FindAllString(h, -1); len(hv) > 0 {
			break
		}
	}
	if len(hv) == 0 {
		return 0
	}
	for _, v := range versions {
		for _, h := range hv {
			if trimZeros(v) == trimZeros(h) {
				return 1
			}
		}
	}
	return -1
}

// scopeOf is the heading path a unit is under: its own (splitUnits), or
// the chunk's heading when the passage holds none.
func scopeOf(u quoteUnit, heading string) string {
	if u.scope != "" {
		return u.scope
	}
	return heading
}

// trimZeros drops a version's trailing ".0" parts: "2.23.0" is "2.23".
func trimZeros(v string) string {
	for strings.HasSuffix(v, ".0") {
		v = strings.TrimSuffix(v, ".0")
	}
	return v
}

// holdsBeyond reports whether a unit's own words hold a word of the
// question that is not part of the commands' names: an example is the
// answer when it speaks of what is asked ("… recreate it from the dump"),
// not only when it runs the command.
func holdsBeyond(own, question map[string]bool, commands []string) bool {
	names := map[string]bool{}
	for _, c := range commands {
		for k := range looseSet(c) {
			names[k] = true
		}
	}
	for k := range own {
		if question[k] && !names[k] && !stopWords[k] {
			return true
		}
	}
	return false
}

// runsCommand reports whether a code block or a lead-in's block has a line
// that runs one of commands: "$ pg_restore -l db.dump", "pg_restore -C …".
func runsCommand(text string, commands []string) bool {
	runs := func(s string) bool {
		f := strings.Fields(s)
		return len(f) > 1 && slices.Contains(commands, strings.ToLower(f[0]))
	}
	for _, line := range strings.Split(text, "\n") {
		if runs(strings.TrimLeft(strings.TrimSpace(line), "$#>% ")) {
			return true
		}
		// A shell prompt inside a line ("… the dump: $ dropdb mydb $
		// pg_restore -C -d postgres db.dump", an example run into prose).
		for rest := line; ; {
			i := strings.Index(rest, "$ ")
			if i < 0 {
				break
			}
			rest = rest[i+2:]
			if runs(rest) {
				return true
			}
		}
	}
	return false
}

// usageLine reports whether a sentence is a command's usage, as a
// manual's synopsis writes it ("pg_resetwal [-f | --force] [option...]"):
// it says how to call, not what the command does.
func usageLine(s string) bool {
	return strings.Count(s, "[") >= 2 && (strings.Contains(s, "|") || strings.Contains(s, "..."))
}

// selection is the state of choosing an answer's units.
type selection struct {
	terms     []term
	mostNamed int // the most question words naming one kept file
	// named are the loose stems of the identifiers the question asks
	// about and of their packages ("tally", "new" of "tally.New").
	named map[string]bool
	// asked are the identifiers the question asks about, lower-cased
	// ("openfat" of "macho.OpenFat").
	asked   []string
	kinds   []askKind
	df      map[string]int
	kept    int
	steps   bool
	licence bool // the question asks for a licence (licenceQuestion)
	changes bool // the question asks what a release changed (asksChanges)
	author  bool // the question asks who made or owns a work (asksAuthor)
	// whole is true when the answer opens with a field of a copyright
	// file's stanza of the whole work, for a question asking its licence
	// or author: the other stanzas' units are not more of the answer.
	whole bool
	// released are the loose stems of the names the question gives a
	// version ("sed" of "sed 4.9": see versionedNames).
	released  map[string]bool
	covered   map[string]bool
	satisfied []bool
	chosen    []candidate
}

func (s *selection) weight(t term) float64 {
	return t.Weight * (1 + math.Log(float64(s.kept+1)/float64(s.df[stem(t.Word)]+1)))
}

func (s *selection) isChosen(c candidate) bool {
	return slices.ContainsFunc(s.chosen, func(x candidate) bool { return x.hit == c.hit && x.pos == c.pos })
}

func (s *selection) adjacent(c candidate) bool {
	return slices.ContainsFunc(s.chosen, func(x candidate) bool { return x.hit == c.hit && (x.pos == c.pos-1 || x.pos == c.pos+1) })
}

// quoted reports whether the answer already holds this text: Debian
// ships one changelog or copyright file in several packages, and a
// repeated quote says nothing new.
func (s *selection) quoted(text string) bool {
	return slices.ContainsFunc(s.chosen, func(x candidate) bool { return x.text == text })
}

// take adds c to the answer and marks what it covers.
func (s *selection) take(c candidate) {
	s.chosen = append(s.chosen, c)
	for _, t := range s.terms {
		if c.stems[t.Stem] > 0 {
			s.covered[t.Stem] = true
		}
	}
	for k, kind := range s.kinds {
		if kind.in(c.masked) {
			s.satisfied[k] = true
		}
	}
}

// score is what c adds to the answer chosen so far, and the least score it
// needs to be added.
func (s *selection) score(c candidate) (sc, needed float64) {
	w := answerWeights
	fresh, own := false, false
	for _, t := range s.terms {
		f := c.stems[t.Stem]
		if f == 0 || c.release > 0 && s.released[t.Stem] {
			// Under the release asked about, the name of what was
			// released says nothing more: its heading already does.
			continue
		}
		own = own || f == 1
		tw := s.weight(t) * f
		if s.covered[t.Stem] {
			tw *= w.covered
		} else if f == 1 {
			fresh = true
		}
		sc += tw
	}
	near := len(s.chosen) > 0 && s.adjacent(c)
	// An asked kind of answer the unit holds, when the unit is about the
	// question or next to a chosen one.
	if sc > 0 || near {
		for k, kind := range s.kinds {
			if s.satisfied[k] || !kind.in(c.masked) {
				continue
			}
			bonus := w.kind
			for word := range kind.prefer {
				if c.loose[word] {
					bonus += w.preferred
					break
				}
			}
			sc += bonus
		}
	}
	if (c.declares || c.defines || c.runs) && sc > 0 {
		sc += w.decl
	}
	if c.instructs && (sc > 0 || near) {
		sc += w.instructs
	}
	switch {
	case c.release > 0 && (own || c.subheadAsked):
		// Under the release asked about and saying something of the
		// question itself (not only under its heading: a changelog
		// entry's signature line is not its news), or under a
		// subheading of the release's notes that does ("** New
		// Features" for "what new features came in grep 3.8").
		sc += w.release
	case c.release < 0:
		sc *= w.otherRelease
	}
	if !c.prose && !c.defines {
		// A fragment is a label, unless it defines what is asked
		// ("SB: Static base pointer …" for "what is SB"): a glossary
		// entry is written without a verb.
		sc *= w.label
	}
	if c.test {
		sc *= w.test
	}
	if c.naming < s.mostNamed {
		sc *= w.lessNamed
	}
	sc *= 1 / (1 + w.secPos*float64(c.secPos)) / (1 + w.hitRank*float64(c.hit))
	needed = w.next
	switch {
	case near && c.item && s.steps && slices.ContainsFunc(s.chosen, func(x candidate) bool { return x.hit == c.hit && x.item && x.section == c.section }):
		// A step next to one quoted: the procedure goes on.
		sc, needed = sc+w.stepBonus, w.step
	case near && fresh:
		needed = w.nextFresh
	}
	return sc, needed
}

// examples is the last step: a quoted sentence that holds a kind of
// answer the question asks for takes along the lead-in that follows it in
// its section, with its example ("… is not enabled by default." and "To
// enable it, run: systemctl enable …"), while the answer has room: the
// example shows how to do what the sentence says.
func (s *selection) examples(cands []candidate, limit int) {
	for _, x := range append([]candidate(nil), s.chosen...) {
		if x.unit.lead || !slices.ContainsFunc(s.kinds, func(k askKind) bool { return k.in(x.masked) }) {
			continue
		}
		for _, c := range cands {
			if len(s.chosen) < limit && c.hit == x.hit && c.pos == x.pos+1 && c.section == x.section && c.unit.lead && !s.isChosen(c) {
				s.take(c)
			}
		}
	}
}

// maxShortLead is the most words a lead-in may have to be read as the
// quoted sentence before it going on to its example (see continuations).
const maxShortLead = 10

// continuations takes along, after each quoted sentence, a short lead-in
// that follows it in its section with its list or code ("If you get an
// error that the data is out of date, look for a newer package in your
// distribution's updates." and "On Debian, this is: deb … stable-updates
// main"; "… ping: icmp open socket: Operation not permitted" and "Now set
// the missing capability: $ sudo setcap cap_net_raw+ep /bin/ping"), past
// the limit if need be: a few words that point at what follows are the
// sentence's own end, and the example is what it says.
func (s *selection) continuations(cands []candidate) {
	for _, x := range append([]candidate(nil), s.chosen...) {
		if x.unit.lead || x.unit.code {
			continue
		}
		for _, c := range cands {
			if c.hit != x.hit || c.pos != x.pos+1 || c.section != x.section || !c.unit.lead || s.isChosen(c) {
				continue
			}
			if lead, _, _ := strings.Cut(c.text, "\n"); len(strings.Fields(lead)) <= maxShortLead {
				s.take(c)
			}
		}
	}
}

// bringsAsked reports whether c holds a word of the question the answer
// does not hold yet, besides the names asked about (the package's doc
// names its package everywhere): not a general word ("use", "way": see
// generalWords), nor a dotted name.
func (s *selection) bringsAsked(c candidate) bool {
	return slices.ContainsFunc(s.terms, func(t term) bool {
		return t.Weight >= 1 && !s.covered[t.Stem] && !s.named[t.Stem] && !strings.Contains(t.Word, ".") && c.stems[t.Stem] == 1
	})
}

// pick is the select step: it adds the best-scoring unit while one scores
// enough, up to limit units.
func (s *selection) pick(cands []candidate, limit int) {
	if s.changes && s.releaseNotes(cands, limit) {
		return
	}
	// The declaration (or option) the question names answers first: a
	// function that mentions it scores higher only by saying more words.
	declared := slices.ContainsFunc(cands, func(c candidate) bool { return c.declares && !c.test })
	// A "who" question is answered first by a unit that names someone,
	// when one does: "Upstream-Name: bzip2" matches "who wrote bzip2"
	// better by its words, "Copyright: 1996-2010 Julian R Seward" answers.
	who := slices.ContainsFunc(s.kinds, func(k askKind) bool { return k.name == "person" }) &&
		slices.ContainsFunc(cands, func(c candidate) bool { return c.name })
	// Asked who made a work, among those by one that names someone as
	// who did something, when one does: "Written by Jim Meyering" over
	// "the GNU Savannah Git server", a name too.
	agent := who && s.author && slices.ContainsFunc(cands, func(c candidate) bool { return c.agent })
	// A licence question, by a unit that names a licence; by the whole
	// work's License field when a copyright file's stanza gives one: the
	// stanzas of a few vendored files name the package in their paths.
	licence := s.licence && slices.ContainsFunc(cands, holdsLicence)
	wholeLicence := licence && slices.ContainsFunc(cands, wholeLicenceField)
	// Asked who wrote a work, by a field recording authorship of the work
	// (or a part of it) when a copyright file's stanza gives one: the
	// header's comment names who packaged it, "by" and all.
	// The whole work's stanza first, a part's when no whole one says.
	record := stanzaNone
	if who && s.author {
		for _, scope := range []stanzaScope{stanzaPart, stanzaWhole} {
			if slices.ContainsFunc(cands, func(c candidate) bool { return authorshipField(c, scope) }) {
				record = scope
			}
		}
	}
	for len(s.chosen) < limit {
		best, bestScore, bestNeeded := -1, 0.0, 0.0
		for i, c := range cands {
			if s.isChosen(c) {
				continue
			}
			if s.quoted(c.text) {
				continue // the same words from another copy of the file
			}
			if len(s.chosen) == 0 && (declared && !c.declares || who && !c.name || agent && !c.agent || licence && !holdsLicence(c) ||
				wholeLicence && !wholeLicenceField(c) || record != stanzaNone && !authorshipField(c, record)) {
				continue
			}
			if len(s.chosen) > 0 && s.chosen[0].declares && !c.declares && !(c.hit != s.chosen[0].hit && s.bringsAsked(c)) {
				// The declaration asked about answers: its neighbours are
				// not more of the answer, and another passage is only when
				// it holds a word of the question the declaration leaves
				// out. A function's doc says what it does; its package's
				// doc what all of it assumes (that no shell is run, that a
				// name is looked up in $PATH), the constant it falls back
				// to what it does when an option is left out (an encoder's
				// DefaultQuality, for "which quality if I pass no
				// options").
				continue
			}
			if len(s.chosen) > 0 && len(s.named) == 0 && !s.chosen[0].source && c.source && !c.declares {
				// A question that names no identifier, answered from a
				// document: source code that shares a word with it
				// ("func Trim" for trimming a disk) is about something
				// else.
				continue
			}
			if s.whole && (c.unit.stanza == stanzaPart || c.unit.stanza == stanzaPackaging) {
				// The licence or authors of the whole work answer: those
				// of its vendored files and its packaging are other
				// answers.
				continue
			}
			if sc, needed := s.score(c); sc > bestScore {
				best, bestScore, bestNeeded = i, sc, needed
			}
		}
		if best < 0 || (len(s.chosen) > 0 && bestScore < bestNeeded) {
			break
		}
		s.take(cands[best])
		s.whole = s.whole || wholeLicence && wholeLicenceField(cands[best]) || record == stanzaWhole && authorshipField(cands[best], record)
	}
	if len(s.chosen) == 0 && len(cands) > 0 {
		s.chosen = append(s.chosen, cands[0])
	}
}

// authorshipFields are the fields of a copyright file that record who
// made a work, lower case.
var authorshipFields = toSet(`copyright author authors upstream-author`)

// authorshipField reports whether c is a field of a stanza of scope
// that records who made the work and names someone.
func authorshipField(c candidate, scope stanzaScope) bool {
	return c.unit.stanza == scope && authorshipFields[strings.ToLower(c.unit.field)] && c.name
}

// wholeLicenceField reports whether c is the License field of a copyright
// file's stanza of the whole work.
func wholeLicenceField(c candidate) bool {
	return c.unit.stanza == stanzaWhole && strings.EqualFold(c.unit.field, "License")
}

// cover is the cover step: each kind of answer asked for and not yet in
// the answer is taken from the passages already quoted, from the unit that
// has it with the most uncovered query terms, preferred words ("total" for
// an amount) and nearness to a quoted unit.
func (s *selection) cover(cands []candidate) {
	w := answerWeights
	for k, kind := range s.kinds {
		if s.satisfied[k] || len(s.chosen) == 0 {
			continue
		}
		best, bestScore := -1, 0.0
		for i, c := range cands {
			if !kind.in(c.masked) || s.isChosen(c) || s.quoted(c.text) ||
				!slices.ContainsFunc(s.chosen, func(x candidate) bool { return x.hit == c.hit }) {
				continue
			}
			sc := w.coverBase
			for _, t := range s.terms {
				if c.loose[t.Stem] && !s.covered[t.Stem] {
					sc += s.weight(t)
				}
			}
			for word := range kind.prefer {
				if c.loose[word] {
					sc += w.coverPreferred
				}
			}
			if s.adjacent(c) {
				sc += w.coverNear
			}
			if c.prose {
				sc += w.coverProse
			}
			sc /= 1 + w.coverPos*float64(c.pos)
			if sc > bestScore {
				best, bestScore = i, sc
			}
		}
		if best >= 0 {
			s.take(cands[best])
		}
	}
}

// render is the render step: the chosen units in reading order (by hit,
// then position), each followed by [n], the number of its hit. Prose
// sentences run on in a paragraph; a code block, a lead-in with its list or
// block, and a list item stand on lines of their own, code fenced.
func render(chosen []candidate, kept []graphrag.Hit) graphrag.Answer {
	slices.SortStableFunc(chosen, func(a, b candidate) int {
		if a.hit != b.hit {
			return a.hit - b.hit
		}
		return a.pos - b.pos
	})
	var b strings.Builder
	cited := map[int]int{}
	var cites []graphrag.Citation
	blockMode := slices.ContainsFunc(chosen, func(c candidate) bool { return c.unit.multiline() })
	for i, c := range chosen {
		n, ok := cited[c.hit]
		if !ok {
			n = len(cites) + 1
			cited[c.hit] = n
			h := kept[c.hit]
			if c.unit.entry != "" {
				// The block's chunk is named by its first entry: the
				// citation names the one quoted ("http.StatusTeapot").
				h.Chunk.Symbol = c.unit.entry
				if pkg, _, ok := strings.Cut(kept[c.hit].Chunk.Symbol, "."); ok {
					h.Chunk.Symbol = pkg + "." + c.unit.entry
				}
			}
			cites = append(cites, graphrag.Citation{N: n, Hit: h, Quote: c.text})
		}
		switch {
		case i == 0:
		case blockMode:
			b.WriteString("\n\n")
		default:
			b.WriteByte(' ')
		}
		switch {
		case c.unit.code:
			fmt.Fprintf(&b, "%s\n[%d]", fence(c.text), n)
		case blockMode && c.item:
			fmt.Fprintf(&b, "- %s [%d]", c.text, n)
		case c.unit.lead && strings.HasSuffix(c.text, "```"):
			fmt.Fprintf(&b, "%s\n[%d]", c.text, n)
		default:
			fmt.Fprintf(&b, "%s [%d]", c.text, n)
		}
	}
	return graphrag.Answer{Text: b.String(), Citations: cites, By: "extractive"}
}

// symbolNamed reports whether a prose chunk's symbol (the work a Debian
// copyright file's header names: "GNU Gzip") is named by one of the
// question's name words ("gzip").
func symbolNamed(symbol string, named []string) bool {
	if symbol == "" {
		return false
	}
	words := nameWords(symbol)
	return slices.ContainsFunc(named, func(w string) bool { return slices.Contains(words, w) })
}

// personName finds a name as prose writes one: two or more capitalised
// words in a row, initials and lower-case particles allowed between them
// ("Julian R Seward", "D. Richard Hipp", "Free Software Foundation",
// "Ludwig van Beethoven"). A capital opening a sentence before a word in
// lower case ("The panic built-in"), or one capitalised word alone, is
// not one; identifiers are masked before (maskIdentifiers).
var personName = regexp.MustCompile(`\b[A-Z][a-z\x{00DF}-\x{00FF}]+(?:\s+(?:[A-Z]\.?|van|von|de|der|da|del|di|du|le|la|bin|ibn))*(?:\s+[A-Z][a-z\x{00DF}-\x{00FF}]+)+`)

// namesSomeone reports whether text names a person or an organisation
// (personName), the name's first word not a function word ("The Written
// Word" counts by "Written Word", "In Sydney" is no name).
func namesSomeone(text string) bool {
	for _, loc := range personName.FindAllStringIndex(text, -1) {
		first := strings.ToLower(strings.Fields(text[loc[0]:loc[1]])[0])
		if !stopWords[first] {
			return true
		}
		// "The Written Word": the words after the function word.
		if rest := strings.Fields(text[loc[0]:loc[1]])[1:]; len(rest) >= 2 {
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
var authorWords = toSet(`wrote write writes written author authors authored maintain maintains maintained maintainer maintainers create creates created develop develops developed developer developers design designs designed copyright`)

// asksAuthor reports whether a question asks who made or owns a work
// (authorWords).
func asksAuthor(query string) bool {
	return slices.ContainsFunc(tokenize(query), func(t token) bool { return authorWords[t.Lower] })
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

// releaseNotes is the select step of a question that asks what a release
// changed: the first entries under the heading of that release, in the
// order the notes give them (the notes lead with what matters most), up to
// limit; none of them need hold the question's words. It reports whether
// it chose any.
func (s *selection) releaseNotes(cands []candidate, limit int) bool {
	var notes []candidate
	for _, c := range cands {
		if c.release > 0 && c.item && !c.test {
			notes = append(notes, c)
		}
	}
	slices.SortStableFunc(notes, func(a, b candidate) int {
		if a.hit != b.hit {
			return a.hit - b.hit
		}
		return a.pos - b.pos
	})
	for _, c := range notes {
		if len(s.chosen) >= limit {
			break
		}
		if !s.quoted(c.text) {
			s.take(c)
		}
	}
	return len(s.chosen) > 0
}

// identifier finds the identifiers of code.
var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// identWordSet is the loose stems of the words code's identifiers are
// written with (text.IdentWords): "defaultBufSize" gives default, buf,
// size.
func identWordSet(code string) map[string]bool {
	out := map[string]bool{}
	for _, id := range identifier.FindAllString(code, -1) {
		for _, w := range text.IdentWords(id) {
			out[looseStem(strings.ToLower(w))] = true
		}
	}
	return out
}
