package text

import (
	"slices"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Where's the O'Brien e-mail?", []string{"where", "s", "the", "o", "brien", "e", "mail"}},
		{"Café ½ naïve", []string{"café", "½", "naïve"}},
		{"a a A", []string{"a", "a", "a"}},
		{"version 1.2.3", []string{"version", "1", "2", "3"}},
	}
	for _, tc := range tests {
		if got := Words(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFoldedWords(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"ASCII", "Where's the O'Brien e-mail? v1.2", []string{"where", "s", "the", "o", "brien", "e", "mail", "v1", "2"}},
		{"diacritics removed", "Café NAÏVE Ærø", []string{"cafe", "naive", "ærø"}},
		{"decomposed input", "Cafe\u0301", []string{"cafe"}},
		{"numbers", "½ and ²", []string{"½", "and", "²"}},
		{"invalid UTF-8 separates", "ab\xffcd é", []string{"ab", "cd", "e"}},
		{"punctuation and underscores separate", "Hello, World! 42x über-cool_stuff", []string{"hello", "world", "42x", "uber", "cool", "stuff"}},
		{"scripts without case", "日本語 テキスト", []string{"日本語", "テキスト"}},
		{"nothing but punctuation", "  ...  ", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := FoldedWords(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("FoldedWords(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// The ASCII fast path of FoldedWords agrees with the general one.
func TestFoldedWordsASCII(t *testing.T) {
	s := "The Quick brown FOX, jumped over 3 lazy dogs; e-mail: a.b@c.d"
	fast, general := FoldedWords(s), FoldedWords(s+" é")
	if !slices.Equal(fast, general[:len(general)-1]) {
		t.Errorf("ASCII %q, general %q", fast, general)
	}
}

func TestStopWordSets(t *testing.T) {
	if n := len(strings.Fields(snowballEnglish)); n != 174 {
		t.Errorf("snowballEnglish has %d words; Snowball's English list has 174", n)
	}
	for _, w := range []string{"the", "aren't", "t", "s", "ll", "also", "tell", "name", "whats"} {
		if !StopWords.Has(w) {
			t.Errorf("StopWords lacks %q", w)
		}
	}
	for _, w := range []string{"the", "aren", "t", "s", "ll", "will", "however", "cannot"} {
		if !QueryStopWords.Has(w) {
			t.Errorf("QueryStopWords lacks %q", w)
		}
	}
	// What a store's query keeps on purpose: the question frame and the
	// letters that are more often names than contraction pieces.
	for _, w := range []string{"name", "called", "like", "d", "m", "backup", "postgres"} {
		if QueryStopWords.Has(w) {
			t.Errorf("QueryStopWords has %q", w)
		}
	}
	for w := range QueryStopWords {
		if strings.ContainsAny(w, "'’") {
			t.Errorf("QueryStopWords has %q: store queries are split at apostrophes", w)
		}
		if w != strings.ToLower(w) {
			t.Errorf("QueryStopWords has %q: not lower case", w)
		}
	}
	for w := range StopWords {
		if w != strings.ToLower(w) {
			t.Errorf("StopWords has %q: not lower case", w)
		}
	}
	// Every function word a store drops, grounding drops too, but for the
	// first pieces of contractions ("aren"), which Tokenize keeps whole.
	heads := NewSet()
	for _, w := range strings.Fields(snowballEnglish) {
		if head, _, ok := strings.Cut(w, "'"); ok {
			heads[head] = true
		}
	}
	for w := range QueryStopWords {
		if !StopWords.Has(w) && !heads.Has(w) && !NewSet(queryOnlyFunctionWords).Has(w) {
			t.Errorf("QueryStopWords has %q, StopWords does not", w)
		}
	}
}

func TestQualifiedNames(t *testing.T) {
	tests := map[string][]string{
		"what is sync.Once for":                  {"once"},
		"compare io.EOF and io.ErrUnexpectedEOF": {"eof", "errunexpectedeof"},
		"what changed in git 2.23.0":             nil,
		"see Node.js and example.com":            nil,
	}
	for in, want := range tests {
		got := QualifiedNames(in)
		if len(got) != len(want) {
			t.Errorf("QualifiedNames(%q) = %v, want %v", in, got, want)
			continue
		}
		for _, w := range want {
			if !got[w] {
				t.Errorf("QualifiedNames(%q) = %v, want %v", in, got, want)
			}
		}
	}
}

func TestIdentWords(t *testing.T) {
	for name, want := range map[string]string{
		"BlockSize":      "Block Size",
		"defaultBufSize": "default Buf Size",
		"HTTPServer":     "HTTP Server",
		"LstdFlags":      "Lstd Flags",
		"read_all":       "read all",
		"SHA256":         "",
		"Reader":         "",
		"ErrNotExist":    "Err Not Exist",
		"_private":       "",
		"-m, --mode":     "",
		"GNU Gzip":       "",
	} {
		if got := strings.Join(IdentWords(name), " "); got != want {
			t.Errorf("IdentWords(%q) = %q, want %q", name, got, want)
		}
	}
}
