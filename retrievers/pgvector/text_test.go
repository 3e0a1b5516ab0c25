package pgvector

import (
	"slices"
	"testing"
)

func TestQueryWordsKeepQualifiedNames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"what is sync.Once for", []string{"sync", "once"}},
		{"is it done once or twice", []string{"done", "twice"}},
		{"yq licence", []string{"yq", "license"}},
		{"what does http.Get do", []string{"http", "get"}},
	} {
		if got := queryWords(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("queryWords(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
