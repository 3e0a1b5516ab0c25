package text

import (
	"slices"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Token
	}{
		{"empty", "", nil},
		{"punctuation only", " -- '.' ?! ", nil},
		{"words", "Where does Ada live?", []Token{
			{Lower: "where", Stem: "where", Capital: true, Start: 0, End: 5, Opens: true},
			{Lower: "does", Stem: "doe", Start: 6, End: 10},
			{Lower: "ada", Stem: "ada", Capital: true, Start: 11, End: 14},
			{Lower: "live", Stem: "live", Start: 15, End: 19},
		}},
		{"inner apostrophe, hyphen, dot", "o'brien e-mail 1.2.3 file.txt", []Token{
			{Lower: "o'brien", Stem: "o'brien", Start: 0, End: 7, Opens: true},
			{Lower: "e-mail", Stem: "e-mail", Start: 8, End: 14},
			{Lower: "1.2.3", Stem: "1.2.3", Digit: true, Start: 15, End: 20},
			{Lower: "file.txt", Stem: "file.txt", Start: 21, End: 29},
		}},
		{"trailing joiners are not part of a word", "end. well- 'quoted' x'", []Token{
			{Lower: "end", Stem: "end", Start: 0, End: 3, Opens: true},
			{Lower: "well", Stem: "well", Start: 5, End: 9, Opens: true},
			{Lower: "quoted", Stem: "quoted", Start: 12, End: 18},
			{Lower: "x", Stem: "x", Start: 20, End: 21},
		}},
		{"possessive dropped", "Ada's papers and Bob’s", []Token{
			{Lower: "ada", Stem: "ada", Capital: true, Start: 0, End: 3, Opens: true},
			{Lower: "papers", Stem: "paper", Start: 6, End: 12},
			{Lower: "and", Stem: "and", Start: 13, End: 16},
			{Lower: "bob", Stem: "bob", Capital: true, Start: 17, End: 20},
		}},
		{"typographic apostrophe made plain", "don’t", []Token{
			{Lower: "don't", Stem: "don't", Start: 0, End: 7, Opens: true},
		}},
		{"digits", "RFC 9110 v2", []Token{
			{Lower: "rfc", Stem: "rfc", Capital: true, Start: 0, End: 3, Opens: true},
			{Lower: "9110", Stem: "9110", Digit: true, Start: 4, End: 8},
			{Lower: "v2", Stem: "v2", Digit: true, Start: 9, End: 11},
		}},
		{"non-ASCII letters", "Ærøskøbing café", []Token{
			{Lower: "ærøskøbing", Stem: "ærøskøbing", Capital: true, Start: 0, End: 13, Opens: true},
			{Lower: "café", Stem: "café", Start: 14, End: 19},
		}},
		{"a capital after a sentence's end opens one; so after an abbreviation's dot", "Moved it. How? My Write, e.g. U.S. Mail", []Token{
			{Lower: "moved", Stem: "moved", Capital: true, Opens: true, Start: 0, End: 5},
			{Lower: "it", Stem: "it", Start: 6, End: 8},
			{Lower: "how", Stem: "how", Capital: true, Opens: true, Start: 10, End: 13},
			{Lower: "my", Stem: "my", Capital: true, Opens: true, Start: 15, End: 17},
			{Lower: "write", Stem: "write", Capital: true, Start: 18, End: 23},
			{Lower: "e.g", Stem: "e.g", Start: 25, End: 28},
			{Lower: "u.s", Stem: "u.s", Capital: true, Opens: true, Start: 30, End: 33},
			{Lower: "mail", Stem: "mail", Capital: true, Opens: true, Start: 35, End: 39},
		}},
		{"commas split numbers", "1,240", []Token{
			{Lower: "1", Stem: "1", Digit: true, Start: 0, End: 1, Opens: true},
			{Lower: "240", Stem: "240", Digit: true, Start: 2, End: 5},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Tokenize(tc.in)
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Tokenize(%q)\n got %+v\nwant %+v", tc.in, got, tc.want)
			}
		})
	}
}

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"papers", "paper"},
		{"studies", "study"},
		{"classes", "class"},
		{"class", "class"},
		{"status", "status"},
		{"analysis", "analysis"},
		{"dogs", "dog"},
		{"its", "its"}, // too short
		{"ties", "tie"},
		{"go", "go"},
		{"", ""},
		// Irregular past forms are their verb, also under a prefix; a form
		// that is as often another word is left alone.
		{"wrote", "write"},
		{"written", "write"},
		{"overwritten", "overwrite"},
		{"rebuilt", "rebuild"},
		{"left", "left"},
		{"found", "found"},
	}
	for _, tc := range tests {
		if got := Stem(tc.in); got != tc.want {
			t.Errorf("Stem(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLooseStem(t *testing.T) {
	// Words LooseStem must fold together, and words it must keep apart.
	same := [][2]string{
		{"decided", "decide"},
		{"goes", "go"},
		{"restoring", "restore"},
		{"runs", "run"},
		{"studies", "study"},
		{"deferred", "defer"},
		{"running", "run"},
		{"stopped", "stop"},
		{"filled", "fill"},
		{"passed", "pass"},
		{"wrote", "writing"},
		{"written", "writes"},
		{"took", "taking"},
		{"precision", "precise"},
		{"construction", "constructs"},
		{"configuration", "configured"},
		{"validation", "validate"},
		{"integrations", "integrating"},
	}
	for _, p := range same {
		if a, b := LooseStem(p[0]), LooseStem(p[1]); a != b {
			t.Errorf("LooseStem(%q) = %q, LooseStem(%q) = %q: want them equal", p[0], a, p[1], b)
		}
	}
	apart := [][2]string{
		{"red", "re"},
		{"bed", "bee"},
		{"sing", "song"},
		{"union", "un"},
		{"nation", "nat"},
		{"formation", "form"},
	}
	for _, p := range apart {
		if a, b := LooseStem(p[0]), LooseStem(p[1]); a == b {
			t.Errorf("LooseStem(%q) = LooseStem(%q) = %q: want them apart", p[0], p[1], a)
		}
	}
}

func TestTrimPlural(t *testing.T) {
	tests := []struct{ in, want string }{
		{"invoices", "invoice"},
		{"Invoices", "Invoice"},
		{"INVOICES", "INVOICE"},
		{"studies", "studie"}, // a prefix of "studies", unlike Stem's "study"
		{"address", "address"},
		{"docs", "docs"}, // four letters or fewer are kept
		{"notes", "note"},
		{"resume", "resume"},
	}
	for _, tc := range tests {
		got := TrimPlural(tc.in)
		if got != tc.want {
			t.Errorf("TrimPlural(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if !strings.HasPrefix(tc.in, got) {
			t.Errorf("TrimPlural(%q) = %q is not a prefix of the word", tc.in, got)
		}
	}
}

func TestStemSet(t *testing.T) {
	got := StemSet("The studies' papers, and a paper.")
	for _, w := range []string{"the", "study", "paper", "and", "a"} {
		if !got.Has(w) {
			t.Errorf("StemSet lacks %q: %v", w, got)
		}
	}
	if len(got) != 5 {
		t.Errorf("StemSet = %v, want 5 stems", got)
	}
}

// FuzzTokenize checks that Tokenize never panics, that its words are the
// text at their offsets, in order and apart, and that each stem is Stem of
// the word.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "Ada's papers", "o'brien 1.2.3 e-mail", "don’t’s", "a.'b", "İstanbul’s KELVIN", "\xff\xfe'a-", "x-’y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		end := 0
		for _, tok := range Tokenize(s) {
			if tok.Start < end || tok.End <= tok.Start || tok.End > len(s) {
				t.Fatalf("token %+v out of order or out of range (previous end %d, len %d)", tok, end, len(s))
			}
			end = tok.End
			w := s[tok.Start:tok.End]
			if want := strings.ToLower(strings.ReplaceAll(w, "’", "'")); tok.Lower != want {
				t.Errorf("token %+v: Lower %q, want %q from the text %q", tok, tok.Lower, want, w)
			}
			if tok.Stem != Stem(tok.Lower) {
				t.Errorf("token %+v: Stem is not Stem(Lower)", tok)
			}
		}
	})
}
