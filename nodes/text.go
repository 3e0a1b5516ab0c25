package nodes

import (
	"strings"
	"unicode"

	"github.com/graphrag/graphrag/internal/text"
)

// The pipeline reads words, stems, stop words and sentences through
// internal/text, shared with the stores, the file tools and ingest. These
// short names bind it for this package's call sites.
type token = text.Token

// stopWords are dropped from keywords, grounding and coverage: English
// function words and the words a question is framed with ("tell", "name").
var stopWords = text.StopWords

// functionOnlyWords are the function words the stores' keyword queries drop
// beyond stopWords ("even", "now", "whether"): no passage needs to hold
// them to answer a question, so the evidence a question's passages are
// measured by skips them too (evidenceTerms). contentTerms keeps them, and
// so does the router's probe (probeTerms): its calibration was measured
// with them.
var functionOnlyWords = text.QueryOnlyFunctionWords

// functionWords are English function words alone (pronouns, articles,
// auxiliaries, prepositions, conjunctions), without the question-frame
// words ("name", "one") that stopWords adds.
var functionWords = text.QueryStopWords

func toSet(words string) map[string]bool { return text.NewSet(words) }
func tokenize(s string) []token          { return text.Tokenize(s) }
func stem(w string) string               { return text.Stem(w) }
func looseStem(w string) string          { return text.LooseStem(w) }
func stemSet(s string) map[string]bool   { return text.StemSet(s) }
func splitSentences(s string) []string   { return text.Sentences(s) }

// nameGlue are function words that stay stop words even when capitalised:
// "I" and its contractions are always written with a capital ("the user
// I'm logged in as").
var nameGlue = toSet(`the a an of and i i'm i've i'd i'll in on at to`)

// contentTerms returns the distinct stems of text's content words, in order
// of first appearance, with a weight each: names (capitalised after the
// first word), words with digits and long words count more, because they are
// what makes a question specific.
func contentTerms(text string) []term { return termsOf(text, nil, nil) }

// everydayWeight is the weight of an everyday word (generalWords): under
// 1, the weight of any other word, so that a question's names and rare
// words decide how well a passage matches it.
const everydayWeight = 0.35

// termsOf is contentTerms; also (when not nil) weighs a word as an
// everyday one when everyday says so, and skips the words of skip besides
// stopWords (functionOnlyWords, or nil).
func termsOf(text string, everyday func(lower string) bool, skip map[string]bool) []term {
	toks := tokenize(text)
	seen := make(map[string]int)
	var out []term
	for _, t := range toks {
		// A capitalised function word inside a question is part of a name
		// ("For Against", "The Who", the article apart); one
		// that opens a sentence is not ("… the old location. How do I fix
		// that?").
		nameWord := t.Capital && !t.Opens && !nameGlue[t.Lower]
		if ((stopWords[t.Lower] || skip[t.Lower]) && !nameWord) || (len(t.Lower) < 2 && !t.Digit) {
			continue
		}
		w := 1.0
		if generalWords[t.Lower] || generalWords[t.Stem] || mannerAdverb(t.Lower) || everyday != nil && everyday(t.Lower) {
			w = everydayWeight
		}
		if t.Digit {
			w += 1
		}
		if t.Capital && !t.Opens {
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

// adverbEndings are the endings of English adverbs made from adjectives
// and participles ("automatically", "previously", "recursively",
// "carefully", "repeatedly", "surprisingly", "currently", "separately",
// "possibly", "reliably"). Nouns and verbs ending in "-ly" ("family",
// "apply", "assembly", "anomaly") end otherwise.
var adverbEndings = [...]string{"ally", "ously", "ively", "fully", "lessly", "edly", "ingly", "ently", "antly", "ately", "ibly", "ably"}

// mannerAdverb reports whether a lower-case word is an adverb of manner,
// time or degree (adverbEndings): how the asker frames the question
// ("does it rotate logs automatically", "who first packaged it"), not a thing
// the files name, so it weighs as an everyday word.
func mannerAdverb(w string) bool {
	for _, e := range adverbEndings {
		if len(w) > len(e)+2 && strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
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
