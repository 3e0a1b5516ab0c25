package nodes

import (
	"regexp"

	"github.com/graphrag/graphrag"
)

// rule is one routing guarantee: a decision that must not depend on what
// a model learned. Alternatives are separate patterns, so that a test can
// check that each one matches a row of the router's training data
// (TestRuleAlternativesEarnTheirPlace): a pattern no training row needs was
// fitted to something else.
type rule struct {
	Route        graphrag.Route
	Alternatives []*regexp.Regexp
	Reason       string
	// MaxTopic, when set, is how many topic words (content words that are
	// not numbers or units) the query may have: "what is 100 times 55"
	// is arithmetic, a long question that contains "2-6" is not.
	MaxTopic int
	// Masked: the rule sees the query with its identifiers masked
	// (maskIdentifiers), so "INV-2024-0117" is not a subtraction.
	Masked bool
	// Codes: a match that is a quantity ("15th", "8pm", "401k", "100mb")
	// does not count: an ordinal or a number with its unit names nothing.
	Codes bool
}

// rules are the guarantees, checked in order; the first match decides.
// Everything else is the learned router's (routerdata/policy.json): the
// web, small talk, definitions, questions about files.
var rules = []rule{
	{Route: graphrag.RouteDirect, Reason: "arithmetic: computed directly", MaxTopic: 2, Masked: true, Alternatives: []*regexp.Regexp{
		regexp.MustCompile(`\d\s*[-+*/x×^]\s*\d`),
		regexp.MustCompile(`(?i)\d+(\.\d+)?\s*(%|percent)\s*of\s*\d`),
		regexp.MustCompile(`(?i)\d+\s*(plus|minus|times|multiplied by|divided by|over|to the power of)\s*\d`),
		regexp.MustCompile(`(?i)square root of \d|\d+\s*(squared|cubed)\b`),
	}},
	{Route: graphrag.RouteHybrid, Reason: "an exact identifier: keyword and vector search together", Codes: true, Alternatives: []*regexp.Regexp{identifierPattern, dottedNamePattern}},
	{Route: graphrag.RouteHybrid, Reason: "a file name: keyword and vector search together", Alternatives: []*regexp.Regexp{fileNamePattern}},
}

// matchRule returns the first rule that matches the query.
func matchRule(query string) (rule, bool) {
	masked := maskIdentifiers(query)
	for _, r := range rules {
		q := query
		if r.Masked {
			q = masked
		}
		if r.matches(q) && (r.MaxTopic == 0 || topicWords(query) <= r.MaxTopic) {
			return r, true
		}
	}
	return rule{}, false
}

func (r rule) matches(q string) bool {
	for _, a := range r.Alternatives {
		if !r.Codes {
			if a.MatchString(q) {
				return true
			}
			continue
		}
		for _, m := range a.FindAllString(q, -1) {
			if !quantityToken.MatchString(m) {
				return true
			}
		}
	}
	return false
}

// unitWords are the words of arithmetic and unit conversion.
var unitWords = toSet(`cm centimeter centimeters centimetre centimetres inch inches feet foot mile miles
kilometer kilometers kilometre kilometres km meter meters metre metres pound pounds lb lbs kilo kilos
kilogram kilograms gram grams ounce ounces oz cup cups tablespoon tablespoons teaspoon teaspoons liter
liters litre litres gallon gallons pint pints quart quarts celsius fahrenheit second seconds minute
minutes hour hours day days plus minus times multiplied divided power square root squared cubed percent
convert conversion need use`)

// topicWords counts the content words of a query that are not numbers or
// units.
func topicWords(query string) int {
	n := 0
	for _, t := range contentTerms(query) {
		if !unitWords[t.Word] && !t.isNumber() {
			n++
		}
	}
	return n
}
