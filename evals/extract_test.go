package evals

import "testing"

func TestExtractShort(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"The answer is Tori Amos [1].", "Tori Amos"},
		{"Tori Amos [2]", "Tori Amos"},
		{"Going by the excerpts, the reply to that is Tori Amos [1]. The passage about Tori Amos says as much [1].", "Tori Amos"},
		{"Yes, both bands are from the United States [1][2].", "yes"},
		{"No [3]", "no"},
		{"The answer is J. R. R. Tolkien [1]. He wrote it in 1937 [1].", "J. R. R. Tolkien"},
		{"Answer: 1,240 euros [2]", "1,240 euros"},
		{"The nightly backup runs at 02:00 and goes to the NAS [1].", "The nightly backup runs at 02:00 and goes to the NAS"},
		{"", ""},
	} {
		if got := ExtractShort(tc.in); got != tc.want {
			t.Errorf("ExtractShort(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
