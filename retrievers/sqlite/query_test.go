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
		{"what is sync.Once for", "[sync once]", `"sync" OR "once"`},
		// A British spelling is searched in its American one, not the
		// other way round.
		{"yq licence", "[yq license]", `"yq" OR "license"`},
		{"Color of the license", "[color license]", `"color" OR "license"`},
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

func TestQueryFeaturesDeclares(t *testing.T) {
	block := "\tANSIC       = \"Mon Jan _2 15:04:05 2006\"\n\tRFC3339     = \"2006-01-02T15:04:05Z07:00\"\n\tKitchen     = \"3:04PM\""
	for _, tc := range []struct {
		query, symbol, text string
		want                bool
	}{
		{"what is sync.Once for", "sync.Once", "type Once struct {}", true},
		{"what is sync.Once for", "sync.Once.Do", "func (o *Once) Do(f func())", false},
		{"what is sync.Once for", "io.pipe", "\tonce sync.Once", false},
		{"where is WithCancel defined", "context.WithCancel", "func WithCancel(parent Context)", true},
		{"what is the RFC3339 layout", "time.ANSIC", block, true},
		{"what is time.RFC3339", "time.ANSIC", block, true},
		{"what is http.RFC3339", "time.ANSIC", block, false},
		{"what is the RFC3339 layout", "time.AppendFormat", "\tif layout == RFC3339 {", false},
		{"what is the RFC3339 layout", "", block, false},
	} {
		q := newQueryFeatures(tc.query, terms(tc.query))
		if got := q.declares(tc.symbol, tc.text); got != tc.want {
			t.Errorf("%q declares(%q, %.30q) = %v, want %v", tc.query, tc.symbol, tc.text, got, tc.want)
		}
	}
}
