package text

import "strings"

// Stem is a light English suffix stripper for lower-case words: enough to
// match "papers" with "paper" and "studies" with "study" without a
// dictionary. It leaves "-ss", "-us" and "-is" words alone ("class",
// "status", "analysis").
func Stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case n > 3 && w[n-1] == 's' && w[n-2] != 's' && w[n-2] != 'u' && w[n-2] != 'i':
		return w[:n-1]
	}
	return w
}

// looseSuffixes are the endings LooseStem drops after Stem, longest first.
var looseSuffixes = [...]string{"ing", "ed", "es", "e"}

// LooseStem folds the inflections Stem leaves apart ("decided" and
// "decide", "goes" and "go", "restoring" and "restore"), for matching a
// sentence with a question. It over-folds ("bed" and "b" stay apart only by
// the two-letter minimum), so it is for scoring, not for showing.
func LooseStem(w string) string {
	s := Stem(w)
	for _, suf := range looseSuffixes {
		if len(s)-len(suf) >= 2 && strings.HasSuffix(s, suf) && (suf != "es" || len(s) > 3) {
			s = s[:len(s)-len(suf)]
			// "deferred", "running", "stopped": the doubled consonant goes
			// with the suffix (not l, s or z: "filled", "passed").
			if n := len(s); (suf == "ing" || suf == "ed") && n > 2 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouylsz", rune(s[n-1])) {
				s = s[:n-1]
			}
			return s
		}
	}
	return s
}

// TrimPlural drops a plural "s" from w, keeping its case ("Invoices" is
// "Invoice"). Unlike Stem, the result is always a prefix of w, so a name
// search for it matches the singular and the plural ("invoice.pdf",
// "invoices.pdf"; Stem's "study" would miss "studies.pdf"). Words of four
// letters or fewer and words ending in "ss" are kept.
func TrimPlural(w string) string {
	lw := strings.ToLower(w)
	if len(lw) > 4 && strings.HasSuffix(lw, "s") && !strings.HasSuffix(lw, "ss") {
		return w[:len(w)-1]
	}
	return w
}
