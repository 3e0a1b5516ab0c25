package text

import "testing"

func TestAmericanSpelling(t *testing.T) {
	tests := []struct{ in, want string }{
		// Each family, with derived forms.
		{"licence", "license"}, {"licences", "licenses"},
		{"colour", "color"}, {"colours", "colors"}, {"favourite", "favorite"}, {"behavioural", "behavioral"},
		{"initialise", "initialize"}, {"initialised", "initialized"}, {"serialisation", "serialization"}, {"tokeniser", "tokenizer"},
		{"analyse", "analyze"}, {"centre", "center"}, {"catalogue", "catalog"},
		{"cancelled", "canceled"}, {"marshalling", "marshaling"}, {"grey", "gray"},
		// Spelt so on both sides, though they look like a family.
		{"four", "four"}, {"hour", "hour"}, {"your", "your"}, {"glamour", "glamour"},
		{"exercise", "exercise"}, {"promise", "promise"}, {"surprise", "surprise"}, {"realism", "realism"},
		{"analyses", "analyses"}, {"controlled", "controlled"}, {"filled", "filled"},
		// American and other words are left as they are.
		{"license", "license"}, {"color", "color"}, {"initialize", "initialize"}, {"go", "go"},
	}
	for _, tc := range tests {
		if got := AmericanSpelling(tc.in); got != tc.want {
			t.Errorf("AmericanSpelling(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestStemFoldsSpelling: both spellings of a word have one stem, so a
// question's "licence" meets a copyright file's "License:".
func TestStemFoldsSpelling(t *testing.T) {
	pairs := [][2]string{{"licence", "license"}, {"colours", "colors"}, {"organised", "organized"}, {"cancelled", "canceled"}}
	for _, p := range pairs {
		if Stem(p[0]) != Stem(p[1]) || LooseStem(p[0]) != LooseStem(p[1]) {
			t.Errorf("%q and %q stem apart: %q/%q, loose %q/%q", p[0], p[1], Stem(p[0]), Stem(p[1]), LooseStem(p[0]), LooseStem(p[1]))
		}
	}
}
