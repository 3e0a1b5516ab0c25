package graphrag_test

import (
	"slices"
	"testing"

	"github.com/graphrag/graphrag"
)

func TestPlanSearchQueries(t *testing.T) {
	for _, tc := range []struct {
		name    string
		query   string
		queries []string
		max     int
		want    []string
	}{
		{"no alternatives", "when is invoice INV-2041 due", nil, 4, []string{"when is invoice INV-2041 due"}},
		{"alternatives follow the query", "when is the invoice due", []string{"invoice due date", "payment deadline"}, 4,
			[]string{"when is the invoice due", "invoice due date", "payment deadline"}},
		{"case, spacing and end punctuation are the same query", "When is the invoice due?", []string{"  when is  the INVOICE due ", "invoice due date", "Invoice due date."}, 4,
			[]string{"When is the invoice due?", "invoice due date"}},
		{"blank alternatives are dropped", "q", []string{"", "  ", "?"}, 4, []string{"q"}},
		{"max counts the query", "q", []string{"a", "b", "c"}, 2, []string{"q", "a"}},
		{"max 1 is the query alone", "q", []string{"a"}, 1, []string{"q"}},
		{"no max", "q", []string{"a", "b", "c", "d"}, 0, []string{"q", "a", "b", "c", "d"}},
		{"alternatives are trimmed", "q", []string{"  a b  "}, 0, []string{"q", "a b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := graphrag.Plan{Query: tc.query, Queries: tc.queries}
			if got := p.SearchQueries(tc.max); !slices.Equal(got, tc.want) {
				t.Errorf("SearchQueries(%d) = %q, want %q", tc.max, got, tc.want)
			}
		})
	}
}
