package nodes

import "testing"

// The function words the stores' keyword queries drop are no words a
// passage must hold: "is there even a frob for zorp now" asks of frob
// and zorp. The router's probe still reads them.
func TestEvidenceTermsSkipFunctionWords(t *testing.T) {
	const q = "Is there even a frob for zorp now, or will there ever be?"
	if n := len(probeTerms(q)); n <= 2 {
		t.Errorf("probeTerms has %d terms, want the function words too", n)
	}
	var got []string
	for _, term := range evidenceTerms(q) {
		got = append(got, term.Word)
	}
	want := []string{"frob", "zorp"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("evidenceTerms = %q, want %q", got, want)
	}
}
