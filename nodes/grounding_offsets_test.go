package nodes

import (
	"slices"
	"testing"

	"github.com/graphrag/graphrag"
)

// A missing name is quoted from the answer as written, whatever the byte
// length of its lower case: "İ" and "’" shrink, "Ⱥ" grows (and at the end
// of the answer, quoting by the lower case's length ran past it).
func TestCheckAnswerQuotesMissingNamesAsWritten(t *testing.T) {
	kept := []graphrag.Hit{doc("trip", "Trip", "The team flew out on Monday and came back on Friday.")}
	for _, tc := range []struct{ answer, missing string }{
		{"They flew to İSTANBUL", "İSTANBUL"},
		{"They met O’Neil there.", "O’Neil"},
		{"They flew to ȺRLES", "ȺRLES"},
	} {
		t.Run(tc.missing, func(t *testing.T) {
			c := checkAnswer("Where did the team fly?", graphrag.Answer{Text: tc.answer}, kept)
			if !slices.Contains(c.Missing, tc.missing) {
				t.Errorf("missing %q, want %q among them", c.Missing, tc.missing)
			}
		})
	}
}
