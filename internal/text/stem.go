package text

import "strings"

// Stem is a light English suffix stripper for lower-case words: enough to
// match "papers" with "paper" and "studies" with "study" without a
// dictionary. It leaves "-ss", "-us" and "-is" words alone ("class",
// "status", "analysis"). An irregular verb form is its verb ("wrote",
// "written": write; see irregularVerbs), which no suffix rule reaches. A
// British spelling is its American one first ("licences": license; see
// AmericanSpelling).
func Stem(w string) string {
	w = AmericanSpelling(w)
	if base, ok := irregularVerb(w); ok {
		return base
	}
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
// "decide", "goes" and "go", "restoring" and "restore"), and a verb or an
// adjective with its noun in "-ion" (foldNoun), for matching a sentence
// with a question. It over-folds ("bed" and "b" stay apart only by the
// two-letter minimum), so it is for scoring, not for showing.
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
			return foldNoun(s)
		}
	}
	return foldNoun(s)
}

// nounStem is the fewest letters a stem has before foldNoun drops an
// ending: "nation", "union" and "format" are words of their own, not
// endings on one.
const nounStem = 7

// foldNoun folds a noun made with "-ion" or "-ation" into the stem of the
// word it is made from, once LooseStem has dropped that word's own ending:
// "precision" and "precise" (precis), "construction" and "construct",
// "configuration" and "configure" (configur), "validation" and "validate"
// (valid). A question asks in the asker's word, the document answers in
// its own.
func foldNoun(s string) string {
	if len(s) >= nounStem && strings.HasSuffix(s, "ion") {
		s = s[:len(s)-len("ion")]
	}
	if len(s) >= nounStem && strings.HasSuffix(s, "at") {
		s = s[:len(s)-len("at")]
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

// irregularVerbs maps the past forms of common English irregular verbs to
// the verb, so that a question's "who wrote it" meets a file's "written
// by" and "what was taken" meets "takes". Forms that are as often another
// word are left out: "left" (a side), "found" (to found), "saw" (a tool),
// "lay", "lead", "bound", "wound", "ground", "fell", "rose", "felt", "lit",
// "spoke" (of a wheel), "shot", "sat". The list is the usual table of
// English irregular verbs (past and past participle) minus those.
var irregularVerbs = map[string]string{
	"wrote": "write", "written": "write",
	"ran":   "run",
	"began": "begin", "begun": "begin",
	"broke": "break", "broken": "break",
	"chose": "choose", "chosen": "choose",
	"drove": "drive", "driven": "drive",
	"forgot": "forget", "forgotten": "forget",
	"froze": "freeze", "frozen": "freeze",
	"gave": "give", "given": "give",
	"went": "go", "gone": "go",
	"grew": "grow", "grown": "grow",
	"hid": "hide", "hidden": "hide",
	"knew": "know", "known": "know",
	"spoken": "speak",
	"stole":  "steal", "stolen": "steal",
	"took": "take", "taken": "take",
	"threw": "throw", "thrown": "throw",
	"woke": "wake", "woken": "wake",
	"wore": "wear", "worn": "wear",
	"bought": "buy", "brought": "bring", "built": "build", "caught": "catch",
	"taught": "teach", "thought": "think", "sought": "seek",
	"sent": "send", "spent": "spend", "kept": "keep", "slept": "sleep",
	"meant": "mean", "sold": "sell", "told": "tell", "held": "hold",
	"made": "make", "paid": "pay", "said": "say", "stood": "stand",
	"came": "come", "became": "become", "got": "get", "gotten": "get",
	"shown": "show", "drawn": "draw", "drew": "draw", "dealt": "deal",
	"fought": "fight", "forbade": "forbid", "forbidden": "forbid",
	"undid": "undo", "undone": "undo", "withdrew": "withdraw", "withdrawn": "withdraw",
}

// verbPrefixes are the prefixes an irregular verb keeps its forms under:
// "rewrote", "overwritten", "rebuilt", "mistaken", "undertook".
var verbPrefixes = [...]string{"re", "over", "under", "mis", "out", "up", "fore"}

// irregularVerb returns the verb of an irregular past form, also under a
// prefix ("overwritten": overwrite).
func irregularVerb(w string) (string, bool) {
	if base, ok := irregularVerbs[w]; ok {
		return base, true
	}
	for _, p := range verbPrefixes {
		if rest, ok := strings.CutPrefix(w, p); ok && len(rest) > 3 {
			if base, ok := irregularVerbs[rest]; ok {
				return p + base, true
			}
		}
	}
	return "", false
}
