package text

import (
	"slices"
	"strings"
	"testing"
)

func TestSentences(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"blank", " \n\n ", nil},
		{"one", "One sentence.", []string{"One sentence."}},
		{"two", "It runs nightly. Backups go to /srv.", []string{"It runs nightly.", "Backups go to /srv."}},
		{"question and exclamation", "Is it? Yes! 42 times.", []string{"Is it?", "Yes!", "42 times."}},
		{"lower-case next word does not cut", "Use ls -l. then more.", []string{"Use ls -l. then more."}},
		{"abbreviations do not cut", "Dr. Smith met Mr. Jones, e.g. Today.", []string{"Dr. Smith met Mr. Jones, e.g. Today."}},
		{"initials do not cut", "J. R. R. Tolkien wrote it. It sold.", []string{"J. R. R. Tolkien wrote it.", "It sold."}},
		{"closing quote stays", `He said "stop." Then left.`, []string{`He said "stop."`, "Then left."}},
		{"closing bracket stays", "(See above.) Next one.", []string{"(See above.)", "Next one."}},
		{"opening quote or bracket next", `Done. "Quoted" and. (Aside) end.`, []string{"Done.", `"Quoted" and.`, "(Aside) end."}},
		{"blank line cuts", "A heading\n\nbody text here", []string{"A heading", "body text here"}},
		{"single newline does not", "a line\nanother line", []string{"a line\nanother line"}},
		{"no space after stop", "version 1.2.3 of x.y", []string{"version 1.2.3 of x.y"}},
		{"ellipsis apart leaves words out", "First run ALTER WIDGET ... DISABLE, then ALTER WIDGET ... SET (spool = NONE). Then drop it.",
			[]string{"First run ALTER WIDGET ... DISABLE, then ALTER WIDGET ... SET (spool = NONE).", "Then drop it."}},
		{"ellipsis on its word may end", "It waited... Then it ran.", []string{"It waited...", "Then it ran."}},
		{"stop at the end", "Ends here. ", []string{"Ends here."}},
		{"CJK stops cut without space", "今日は晴れ。明日は雨？はい！ OK.", []string{"今日は晴れ。", "明日は雨？", "はい！", "OK."}},
		{"other CJK punctuation does not", "東京、大阪「京都」", []string{"東京、大阪「京都」"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sentences(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("Sentences(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestChunkSentences(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"two", "It runs nightly. Backups go to /srv.", []string{"It runs nightly.", "Backups go to /srv."}},
		{"abbreviation cuts", "Ask Dr. Smith.", []string{"Ask Dr.", "Smith."}},
		{"lower-case next word cuts", "one. two? three! four", []string{"one.", "two?", "three!", "four"}},
		{"any white space", "one.\ttwo.\nthree.\u00a0four", []string{"one.", "two.", "three.", "four"}},
		{"no space after stop", "1.2.3 and x.y", []string{"1.2.3 and x.y"}},
		{"CJK stops cut without space", "今日は晴れ。明日は雨？はい！", []string{"今日は晴れ。", "明日は雨？", "はい！"}},
		{"closing quote is not a cut", `He said "stop." Then left.`, []string{`He said "stop." Then left.`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ChunkSentences(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("ChunkSentences(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzSentences checks that both splitters never panic and that their
// sentences cover the input: each is found in it after the one before,
// and together they hold every character of it that is not white space.
func FuzzSentences(f *testing.F) {
	for _, s := range []string{"", "One. Two.", "Dr. J. R. Smith? Yes!\n\nNext", "今日は晴れ。明日", `"a." (B) c.)`, "x.\u00a0Y", "\xff. \xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, split := range map[string]func(string) []string{"Sentences": Sentences, "ChunkSentences": ChunkSentences} {
			sents := split(s)
			rest := s
			for _, sent := range sents {
				if strings.TrimSpace(sent) != sent || sent == "" {
					t.Fatalf("%s(%q): sentence %q is blank or not trimmed", name, s, sent)
				}
				i := strings.Index(rest, sent)
				if i < 0 {
					t.Fatalf("%s(%q): sentence %q is not in the text after the one before", name, s, sent)
				}
				rest = rest[i+len(sent):]
			}
			if got, want := squeeze(strings.Join(sents, "")), squeeze(s); got != want {
				t.Fatalf("%s(%q) = %q: does not cover the text", name, s, sents)
			}
		}
	})
}

// squeeze drops the white space of s.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }
