package text

import "strings"

// British and American spelling. A user who writes "licence" asks about
// the file that says "License:", one who writes "color" about a manual that
// says "colour": Stem folds both spellings of a word to the American one,
// and SpellingVariants gives a keyword query the other spelling, since the
// stores' full-text indexes hold words as written.
//
// The table is built from the usual families of spelling differences
// (-our/-or, -ise/-ize, -yse/-yze, -ence/-ense, -tre/-ter, -ogue/-og, a
// doubled l before a suffix, and a few single words), each from a list of
// the words it applies to rather than a suffix rule: "four", "exercise",
// "analyses" (of analysis) and "controlled" look like the families but are
// spelt the same on both sides.

// ourWords are the words spelt -our in British English and -or in
// American, with their derived forms ("colours", "coloured", "favourite",
// "behavioural"): the British stem starts each form.
var ourWords = []string{
	"armour", "behaviour", "clamour", "colour", "endeavour", "favour", "fervour", "flavour",
	"harbour", "honour", "humour", "labour", "neighbour", "odour", "parlour", "rigour",
	"rumour", "savour", "splendour", "tumour", "valour", "vapour", "vigour",
}

// izeRoots are the verbs spelt -ise in British English and -ize in
// American, as their root before "is"/"iz": "initial" for initialise,
// initialised, initialisation. Verbs spelt -ise on both sides (advise,
// exercise, promise, surprise, compromise, supervise …) are not here.
var izeRoots = []string{
	"apolog", "author", "capital", "categor", "central", "character", "critic", "custom",
	"deserial", "emphas", "final", "general", "initial", "legal", "local", "material", "maxim",
	"memor", "minim", "modern", "normal", "optim", "organ", "parameter", "parametr",
	"priorit", "random", "real", "recogn", "reinitial", "sanit", "serial", "special", "stabil",
	"standard", "summar", "synchron", "token", "util", "virtual", "visual",
}

// izeEndings are the endings of an -ise verb's forms after the root's "is".
var izeEndings = []string{"e", "ed", "es", "ing", "er", "ers", "ation", "ations", "able"}

// wordPairs are single British spellings and their American ones, whole
// words: the -yse verbs (not "analyses", also the plural of analysis),
// -ence, -tre and -ogue words, the doubled l before a suffix of verbs that
// keep one l in American English ("cancelled"; not "controlled", "compelled",
// spelt so on both sides), and words of their own.
var wordPairs = map[string]string{
	"analyse": "analyze", "analysed": "analyzed", "analysing": "analyzing",
	"paralyse": "paralyze", "paralysed": "paralyzed", "catalyse": "catalyze",
	"licence": "license", "licences": "licenses", "defence": "defense", "defences": "defenses",
	"offence": "offense", "offences": "offenses", "pretence": "pretense",
	"centre": "center", "centres": "centers", "centred": "centered", "metre": "meter",
	"metres": "meters", "litre": "liter", "litres": "liters", "fibre": "fiber",
	"fibres": "fibers", "theatre": "theater", "calibre": "caliber", "spectre": "specter",
	"catalogue": "catalog", "catalogues": "catalogs", "catalogued": "cataloged",
	"analogue": "analog", "analogues": "analogs",
	"cancelled": "canceled", "cancelling": "canceling", "labelled": "labeled",
	"labelling": "labeling", "modelled": "modeled", "modelling": "modeling",
	"travelled": "traveled", "travelling": "traveling", "traveller": "traveler",
	"signalled": "signaled", "signalling": "signaling", "fuelled": "fueled",
	"levelled": "leveled", "totalled": "totaled", "marshalled": "marshaled",
	"marshalling": "marshaling", "unmarshalled": "unmarshaled", "unmarshalling": "unmarshaling",
	"tunnelled": "tunneled", "tunnelling": "tunneling", "channelled": "channeled",
	"dialled": "dialed", "dialling": "dialing", "equalled": "equaled", "quarrelled": "quarreled",
	"unravelled": "unraveled", "grey": "gray", "programme": "program", "programmes": "programs", "judgement": "judgment",
	"acknowledgement": "acknowledgment", "ageing": "aging", "artefact": "artifact",
	"artefacts": "artifacts", "aluminium": "aluminum", "practise": "practice",
	"fulfil": "fulfill", "enrol": "enroll", "skilful": "skillful", "instil": "instill",
	"sceptical": "skeptical", "mould": "mold", "plough": "plow", "manoeuvre": "maneuver",
}

// toAmerican maps every British spelling the families make to its
// American spelling.
var toAmerican = spellingTable()

func spellingTable() map[string]string {
	am := make(map[string]string, len(wordPairs)+len(izeRoots)*len(izeEndings)+len(ourWords)*8)
	for b, a := range wordPairs {
		am[b] = a
	}
	for _, r := range izeRoots {
		for _, e := range izeEndings {
			am[r+"is"+e] = r + "iz" + e
		}
	}
	for _, w := range ourWords {
		stemB := strings.TrimSuffix(w, "our")
		for _, e := range []string{"", "s", "ed", "ing", "ite", "ites", "able", "al", "ful", "less", "hood", "hoods"} {
			am[stemB+"our"+e] = stemB + "or" + e
		}
	}
	return am
}

// AmericanSpelling returns the American spelling of a lower-case word
// spelt the British way ("licence" is "license", "initialise" is
// "initialize", "colours" is "colors"), and any other word as it is.
func AmericanSpelling(w string) string {
	if a, ok := toAmerican[w]; ok {
		return a
	}
	return w
}
