package text

import (
	"slices"
	"testing"
)

func TestSymbols(t *testing.T) {
	for _, tt := range []struct {
		query           string
		qualified, name []string
	}{
		{"what does context.WithCancel return", []string{"context.WithCancel"}, nil},
		{"where is WithCancel defined", nil, []string{"WithCancel"}},
		{"which error code is unique_violation", nil, []string{"unique_violation"}},
		{"what is time.RFC3339 and RFC1123", []string{"time.RFC3339"}, []string{"RFC1123"}},
		// A sentence's end, a version, a file name and a capitalised
		// word are not identifiers.
		{"How do I read a file. Then what", nil, nil},
		{"what changed in git 2.23.0", nil, nil},
		{"what does README.md say", nil, nil},
		{"is Go fast", nil, nil},
		{"io.EOF.", []string{"io.EOF"}, nil},
	} {
		q, n := Symbols(tt.query)
		if !slices.Equal(q, append([]string{}, tt.qualified...)) || !slices.Equal(n, append([]string{}, tt.name...)) {
			t.Errorf("Symbols(%q) = %q, %q; want %q, %q", tt.query, q, n, tt.qualified, tt.name)
		}
	}
}

func TestSymbolTitle(t *testing.T) {
	for _, tt := range []struct{ title, symbol, want string }{
		{"reader.go", "", "reader.go"},
		{"reader.go", "strings.NewReader", "reader.go strings NewReader New Reader"},
		{"sha256.go", "sha256.BlockSize", "sha256.go sha256 BlockSize Block Size"},
		{"pg_ctl.1", "pg_ctl", "pg_ctl.1 pg_ctl pg ctl"},
		{"io.go", "EOF", "io.go EOF"},
	} {
		if got := SymbolTitle(tt.title, tt.symbol); got != tt.want {
			t.Errorf("SymbolTitle(%q, %q) = %q, want %q", tt.title, tt.symbol, got, tt.want)
		}
	}
}
