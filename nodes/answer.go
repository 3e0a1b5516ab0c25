package nodes

import (
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
)

// The extractive answerer: with no model, an answer quotes the kept
// passages. Its steps are in files of their own: the candidate units and
// what each is about (candidates.go), the kinds of answer a question asks
// for (askkinds.go, askwords.go), choosing units (select.go), completing
// the choice (cover.go, references.go), and writing the answer (render.go).
// Its tuned numbers are answerWeights, here.

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
	sel.cover(cands, kept)
	sel.examples(cands, limit)
	sel.continuations(cands)
	sel.followOns(cands)
	sel.antecedents(cands)
	sel.references(cands)
	withSigners(query, sel.chosen, kept)
	if ok, why := answersAsked(query, sel.kinds, sel.chosen, kept); !ok {
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
	terms := situationWeighed(query, questionTerms(query))
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
		licence:   asksLicence(query),
		changes:   asksChanges(query),
		author:    asksAuthor(query),
		released:  released,
		query:     query,
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
	// situation scales a word that only the asker's situation writes
	// (see situationWeighed): set once at a half, not tuned.
	situation float64
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
	situation: 0.5,
	coverBase: 0.1, coverPreferred: 1, coverNear: 0.5, coverProse: 0.2, coverPos: 0.02,
}

// lowerAll lower-cases the names a question writes and trims the space a
// pattern took along with them (optionPattern's " --frob"), in place.
func lowerAll(ws []string) []string {
	for i, w := range ws {
		ws[i] = strings.ToLower(strings.TrimSpace(w))
	}
	return ws
}
