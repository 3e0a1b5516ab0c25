package text

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name   string
		in     []byte
		want   string
		wantOK bool
	}{
		{"empty", nil, "", true},
		{"UTF-8", []byte("naïve café\n"), "naïve café\n", true},
		{"UTF-8 with BOM", []byte("\xef\xbb\xbfhello"), "hello", true},
		{"UTF-16 little-endian with BOM", []byte("\xff\xfeh\x00i\x00"), "hi", true},
		{"UTF-16 big-endian with BOM", []byte("\xfe\xff\x00h\x00i"), "hi", true},
		{"Latin-1", []byte("caf\xe9 na\xefve r\xe9sum\xe9"), "café naïve résumé", true},
		{"Windows-1252 quotes", []byte("\x93quoted\x94 \x96 dash"), "“quoted” – dash", true},
		{"colour codes removed", []byte("\x1b[1;31merror\x1b[0m: disk full"), "error: disk full", true},
		{"NUL is binary", []byte("ab\x00cd"), "", false},
		{"mostly high bytes is binary", bytes.Repeat([]byte{0x8f, 0xe3, 'a'}, 100), "", false},
		{"control characters are binary", bytes.Repeat([]byte{0x01, 0x02, 'a', 'b'}, 100), "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Decode(tc.in)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("Decode(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestIsText(t *testing.T) {
	long := strings.Repeat("é", SniffBytes) // the sample ends inside a rune
	tests := []struct {
		name string
		in   []byte
		want bool
	}{
		{"empty", nil, true},
		{"prose", []byte("plain text\twith tabs\r\n"), true},
		{"non-ASCII", []byte("héllo 日本"), true},
		{"PNG header", []byte("\x89PNG\r\n\x1a\n\x00\x00"), false},
		{"a rune cut by the sample", []byte(long), true},
		{"a rune cut at the real end", []byte("ab\xc3"), false},
		{"invalid UTF-8", []byte("caf\xe9"), false},
		{"NUL", []byte("a\x00"), false},
		{"one control character in a hundred", append(bytes.Repeat([]byte("a"), 99), 0x07), true},
		{"two in a hundred", append(bytes.Repeat([]byte("a"), 98), 0x07, 0x07), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsText(tc.in); got != tc.want {
				t.Errorf("IsText = %v, want %v", got, tc.want)
			}
		})
	}
}

// FuzzDecode checks that Decode never panics and always returns valid
// UTF-8 when it returns text.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"", "caf\xe9", "\xff\xfeh\x00", "\xfe\xff\x00", "\x1b[31mx", "\xef\xbb\xbf\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if s, ok := Decode(data); ok && !utf8.ValidString(s) {
			t.Fatalf("Decode(%q) = %q: not valid UTF-8", data, s)
		}
	})
}
