package sqlite

import (
	"fmt"
	"strings"
	"testing"
)

func TestTermsAndMatchExpr(t *testing.T) {
	tests := []struct{ in, terms, expr string }{
		{"What is the capital of France?", "[capital france]", `"capital" OR "france"`},
		{"The Who", "[the who]", `"the" OR "who"`},
		{`"NEAR(a b)" OR -c*`, "[near b c]", `"near" OR "b" OR "c"`},
		{"river river RIVER", "[river]", `"river"`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			ts := terms(tc.in)
			if fmt.Sprint(ts) != tc.terms || matchExpr(ts) != tc.expr {
				t.Errorf("terms %v expr %s, want %s and %s", ts, matchExpr(ts), tc.terms, tc.expr)
			}
		})
	}
	if n := len(terms(strings.Repeat("word ", 10) + strings.Repeat("x", 0))); n != 1 {
		t.Errorf("repeated word: %d terms", n)
	}
	var many []string
	for i := 0; i < 200; i++ {
		many = append(many, fmt.Sprintf("w%d", i))
	}
	if n := len(terms(strings.Join(many, " "))); n != maxQueryTerms {
		t.Errorf("%d terms, want the cap %d", n, maxQueryTerms)
	}
}
