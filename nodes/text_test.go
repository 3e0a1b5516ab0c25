package nodes

import "testing"

// The function words the stores' keyword queries drop are no words a
// passage must hold: "is there even a frob for zorp now" asks of frob
// and zorp.
func TestContentTermsSkipFunctionWords(t *testing.T) {
	var got []string
	for _, term := range contentTerms("Is there even a frob for zorp now, or will there ever be?") {
		got = append(got, term.Word)
	}
	want := []string{"frob", "zorp"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("contentTerms = %q, want %q", got, want)
	}
}
