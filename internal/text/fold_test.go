package text

import (
	"strings"
	"testing"

	"golang.org/x/text/cases"
)

// ContainsFold's byte-by-byte path for ASCII answers as Unicode case
// folding does, and non-ASCII text still folds ("ΣΗΜΕΙΩΣΕΙΣ", the Kelvin
// sign that folds to "k").
func TestContainsFoldAgreesWithCaseFolding(t *testing.T) {
	ref := func(s, sub string) bool {
		fold := cases.Fold()
		return strings.Contains(fold.String(s), fold.String(sub))
	}
	for _, tc := range []struct {
		s, sub string
		want   bool
	}{
		{"/usr/share/doc/LibZorp2/Copyright", "/libzorp2/", true},
		{"/usr/share/doc/libzorp2/copyright", "ZORP2/COPY", true},
		{"/usr/share/doc/libzorp2/copyright", "/zorp2/", false},
		{"/src/quill/nib.go", "", true},
		{"nib", "nib.go", false},
		{"/home/me/ΣΗΜΕΙΩΣΕΙΣ.txt", "σημειωσεις", true},
		{"/notes/\u212a-files/a.txt", "k-files", true},
		{"/notes/k-files/a.txt", "\u212a-FILES", true},
		{"/home/me/Ärzte/Überblick.md", "ärzte", true},
	} {
		if got := ContainsFold(tc.s, tc.sub); got != tc.want || got != ref(tc.s, tc.sub) {
			t.Errorf("ContainsFold(%q, %q) = %v, want %v (folding says %v)", tc.s, tc.sub, got, tc.want, ref(tc.s, tc.sub))
		}
	}
}

func FuzzContainsFold(f *testing.F) {
	f.Add("/usr/share/doc/LibZorp2/copyright", "zorp2/C")
	f.Add("/notes/\u212a-files", "k-")
	f.Fuzz(func(t *testing.T, s, sub string) {
		fold := cases.Fold()
		if got, want := ContainsFold(s, sub), strings.Contains(fold.String(s), fold.String(sub)); got != want {
			t.Errorf("ContainsFold(%q, %q) = %v, folding says %v", s, sub, got, want)
		}
	})
}

// BenchmarkContainsFold compares the source filter's test on a Debian
// path, as every matched chunk asks it, with folding both strings:
//
//	go test ./internal/text -run '^$' -bench ContainsFold
func BenchmarkContainsFold(b *testing.B) {
	s, sub := "/usr/share/doc/libzorp-frobnicator-perl/changelog.Debian.gz", "/libzorp-utils/"
	b.Run("folding", func(b *testing.B) {
		for b.Loop() {
			fold := cases.Fold()
			_ = strings.Contains(fold.String(s), fold.String(sub))
		}
	})
	b.Run("ContainsFold", func(b *testing.B) {
		for b.Loop() {
			_ = ContainsFold(s, sub)
		}
	})
}
