package nodes

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzQuestionReadings feeds the readings of a question (its clauses and
// quoted spans, the comparison, the packages and settings it names, what
// it asks whether something supports, the kinds of answer it asks for, the
// examples it gives) whatever a user may type: none may panic,
// and what each returns is taken from the question.
func FuzzQuestionReadings(f *testing.F) {
	for _, q := range []string{
		"", "?", "'s", "“”", "`'", "is than", "more than", "x or", "or y",
		"Is zorpd faster than frobd?",
		"should I run zorp or frob; — what about “frob: can't open `x' file”?",
		"the zorp-utils package's copyright",
		"what's the default of zorp_max_frobs and --frob-limit?",
		"which release added ZorpMaxFrobSize in frob/zorp?",
		"Does zorp support frob’s graphics?", "does support",
		"\xff\xfe than \xffer",
		"paths like ", "names such as \"zorp", "e.g. `frob` or like 'x'",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if c, ok := comparedIn(q); ok && (!strings.Contains(strings.ToLower(q), c.a) || !strings.Contains(strings.ToLower(q), c.b)) {
			t.Errorf("comparedIn(%q) = %+v: names not in the question", q, c)
		}
		for _, n := range packageNames(q) {
			if !strings.Contains(strings.ToLower(q), n) {
				t.Errorf("packageNames(%q) has %q, not in the question", q, n)
			}
		}
		for _, s := range namedSettings(q) {
			if !strings.Contains(q, s) {
				t.Errorf("namedSettings(%q) has %q, not in the question", q, s)
			}
		}
		if w := askersFileWords(q); utf8.ValidString(q) && len(w) > len(q) {
			t.Errorf("askersFileWords(%q) = %q: longer than the question", q, w)
		}
		for _, w := range supportedIn(q) {
			if !strings.Contains(strings.ToLower(q), w) {
				t.Errorf("supportedIn(%q) has %q, not in the question", q, w)
			}
		}
		for _, e := range examplesGiven(q) {
			if !strings.Contains(strings.ToLower(q), e) {
				t.Errorf("examplesGiven(%q) has %q, not in the question", q, e)
			}
		}
		_ = filesAsObjects(q)
		_ = clauses(q)
		_ = askedKinds(q)
	})
}
