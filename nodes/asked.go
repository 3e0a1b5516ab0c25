package nodes

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
)

// This file checks that an extractive answer is of the kind its question
// asks for, as fitsKind (grounding.go) does for a model's answer: a "who"
// question is answered by a name, a licence question by the licence of
// what it names. Quoting the
// best-matching sentence of passages that only mention the question's
// words ("type inference is designed to mostly work as expected" for "who
// designed Go") is an answer to another question; abstaining is the
// honest one.

// whoQuestion finds a question that asks for someone: "who wrote bzip2",
// "who holds the copyright on gzip", "whom did X marry". "who can run
// pg_dump" asks for a role ("superusers"), not a name, and is not one.
var whoQuestion = regexp.MustCompile(`(?i)^\s*(who|whom)\b(\s+(\w+))?`)

// roleVerbs follow "who" in a question that asks for a role or a class of
// users rather than a name.
var roleVerbs = toSet(`can could may might must should shall will would is are needs need has have gets get`)

// asksForName reports whether a question asks for a person or an
// organisation by name.
func asksForName(query string) bool {
	m := whoQuestion.FindStringSubmatch(query)
	return m != nil && !roleVerbs[strings.ToLower(m[3])]
}

// licenceQuestion finds a question that asks under which licence
// something is: "what license is jq distributed under", "which licence
// covers dpkg", "what license does liblzma have".
var licenceQuestion = regexp.MustCompile(`(?i)^\s*(what|which|under what|under which)\b.*` + licenceWordPattern)

// licenceWordPattern is the word a licence question says, in its forms:
// "licence", "license", "licensed", "licences".
const licenceWordPattern = `\blicen[cs]e[sd]?\b`

// asksLicence reports whether a question asks under which licence
// something is (licenceQuestion), from its start or in its asking
// sentence: "Zorpkit ships a frobcheck tool. Under which licence is that
// tool distributed?" asks it after a sentence that says what the tool is
// (askingPart).
func asksLicence(question string) bool {
	if licenceQuestion.MatchString(question) {
		return true
	}
	// Split into sentences only when a later one may ask it: most
	// questions never say "licence".
	return licenceWord.MatchString(question) && licenceQuestion.MatchString(askingPart(question))
}

// licenceWord finds the word a licence question says (licenceWordPattern).
var licenceWord = regexp.MustCompile(`(?i)` + licenceWordPattern)

// licenceName finds the name of a licence, or the words that grant one:
// SPDX-style short names ("GPL-2+", "MIT", "BSD-3-clause", "Apache-2.0"),
// the licences' own names and "public domain".
var licenceName = regexp.MustCompile(`(?i)\b(a?gpl|lgpl|gfdl|mit|x11|bsd|apache|mpl|expat|isc|zlib|artistic|cc0|cc-by(-sa)?|creative commons|epl|eclipse public|cddl|bsl|boost software|psf|openssl|ssleay|ofl|unlicense|wtfpl|zpl|public[- ]domain|general public licen[cs]e|permission is hereby granted|licen[cs]ed under)\b`)

// licenceWords are the words a licence question asks with besides what it
// asks about: "what license is the rustc compiler distributed under" is
// about "rustc compiler".
var licenceWords = toSet(`license licence licensed licences licenses licensing under distributed distribute released release covered covers cover apply applies applied terms term have has use uses used available`)

// holdsLicence reports whether a unit names a licence: a "License:" field
// or a licence's name.
func holdsLicence(c candidate) bool {
	return strings.EqualFold(c.unit.field, "License") || licenceName.MatchString(c.text) || namesOwnLicence(c.text)
}

// ownLicence finds a licence named after its project, which no list of
// licence names can hold: "version 3 of the Frobnitz license", "under the
// Wibble Licence". The name is a capitalised word (a hyphen, a dot or a
// digit inside it allowed) right before the word licence.
var ownLicence = regexp.MustCompile(`\b(\p{Lu}[\p{L}\d.+-]*)\s+[Ll]icen[cs]e\b`)

// namesOwnLicence reports whether text names a licence by its project's
// name. A determiner or pronoun before "license" ("This license", "The
// licence") names none.
func namesOwnLicence(s string) bool {
	for _, m := range ownLicence.FindAllStringSubmatch(s, -1) {
		if !stopWords[strings.ToLower(m[1])] {
			return true
		}
	}
	return false
}

// licenceSubject is what a licence question asks the licence of: its
// proper names and its other words that are not of the asking ("what
// license is the rustc compiler under" is about "rustc compiler"), nor
// say which of its documents is meant ("the Debian packaging of
// zorp-server" is about zorp-server: every copyright file of a Debian
// system names Debian; see documentQualifiers).
type licenceSubject struct {
	names, words []string // lower-cased
}

func licenceSubjectOf(query string) licenceSubject {
	s := licenceSubject{names: slices.DeleteFunc(properNames(query), func(n string) bool { return documentQualifiers[n] })}
	for _, t := range contentTerms(query) {
		if !licenceWords[t.Word] && !documentQualifiers[t.Word] && !slices.Contains(s.names, t.Word) {
			s.words = append(s.words, t.Word)
		}
	}
	return s
}

// of reports whether a unit naming a licence is of the subject: its
// passage (or heading, title, path) holds every name of it, or when the
// question gives it none, every word. Microsoft Word's licence is not the
// one of a copyright stanza that names "The Written Word, Inc.", nor the
// rustc compiler's that of a stanza for "boost/config/compiler/…". A file
// the subject names by its folder or file name (the package "libzorp2-1"
// of "the Zorp2 frob hashing library (libzorp2-1)") is the subject's own,
// and so is its licence, though its "License:" line holds none of the
// asker's description; so is a folder named as a distribution packages the
// subject ("libzorp2" for "zorp", "python3-zorp": packagedAs).
func (s licenceSubject) of(c candidate, h graphrag.Hit) bool {
	words := append(append([]string(nil), s.names...), s.words...)
	if slices.ContainsFunc(words, func(w string) bool {
		return pathNamed(h.Source.Path, map[string]bool{w: true}) || inPackagedFolder(h.Source.Path, w)
	}) {
		return true
	}
	if len(s.names) > 0 && !slices.ContainsFunc(s.names, func(w string) bool { return !holds(c, h, w) }) {
		// The unit speaks of every name the question gives its subject:
		// the asker's description of it ("encoder" in "the Quill-X9
		// encoder") is the asker's wording, which a "License:" field need
		// not repeat.
		return true
	}
	for _, w := range words {
		if !holds(c, h, w) {
			return false
		}
	}
	return true
}

// holds reports whether a unit of hit h speaks of w: in its words, its
// heading, the document's title, the chunk's symbol or the path; not
// elsewhere in the passage (a stanza's comment that mentions Microsoft
// does not make its licence Microsoft's).
func holds(c candidate, h graphrag.Hit, w string) bool {
	return c.stems[looseStem(w)] > 0 || looseSet(h.Chunk.Symbol)[looseStem(w)] || pathNamed(h.Source.Path, map[string]bool{w: true})
}

// answersAsked reports whether the units chosen for an answer answer what
// the question asks for (kinds are its askedKinds); why says what they
// lack. A "who" question's units name someone; a licence question's name
// the licence of what it asks about, or are the License field of the
// stanza of the part it names (partAsked); a question for the most of
// something ("the maximum number of zorps per frob") has one that states
// a limit, in a passage that speaks of what it counts (countedThing): the
// passages about zorps that state none do not say how many a frob may
// hold, nor does the limit of another count. A question for a version ("which
// release added frob mode") has one that states a version
// (statesVersion), or a date when it asks "when", or a default when it
// asks what is taken if none is named (kindAnswers), and that speaks of the
// settings or code names the question names, if any (speaksOf); a
// judgement between two named things has one that makes it (comparedIn);
// the default or the limit of a named setting is stated by a passage that
// names it (statesOfSettings); whether a thing supports something, by one
// that names what (supportedIn).
func answersAsked(query string, kinds []askKind, chosen []candidate, kept []graphrag.Hit) (ok bool, why string) {
	if len(chosen) == 0 {
		return false, "nothing quotable"
	}
	if asksForName(query) && !slices.ContainsFunc(chosen, func(c candidate) bool { return c.name || c.filesAsked && holderField(c) }) {
		return false, "the question asks who, and no passage quoted names anyone"
	}
	if asksLicence(query) {
		subject := licenceSubjectOf(query)
		if !slices.ContainsFunc(chosen, func(c candidate) bool {
			return holdsLicence(c) && (subject.of(c, kept[c.hit]) || partAsked(c))
		}) {
			return false, "the question asks for a licence, and no passage quoted names the licence of what it asks about"
		}
	}
	asking := askingPart(query)
	if cmp, ok := comparedIn(asking); ok && !slices.ContainsFunc(chosen, cmp.answeredBy) {
		return false, "the question asks to compare " + cmp.a + " with " + cmp.b + ", and no passage quoted does"
	}
	if obj := supportedIn(asking); len(obj) > 0 && !slices.ContainsFunc(chosen, func(c candidate) bool {
		return !slices.ContainsFunc(obj, func(w string) bool { return !c.loose[looseStem(w)] })
	}) {
		return false, "the question asks whether it supports " + strings.Join(obj, " ") + ", and no passage quoted names that"
	}
	settings := namedSettings(asking)
	code := qualifiedNames(asking)
	for _, k := range kinds {
		if k.name == "version" && !slices.ContainsFunc(chosen, func(c candidate) bool {
			return (statesVersion(k, c, kept[c.hit]) || kindAnswers(kinds, "time", c) || kindAnswers(kinds, "default", c)) && speaksOf(kept[c.hit], settings, code)
		}) {
			return false, "the question asks for a version, and no passage quoted about what it names states one"
		}
		if (k.name == "default" || k.name == "limit") && !statesOfSettings(k, settings, chosen, kept) {
			return false, "the question asks for the " + k.name + " of " + strings.Join(settings, ", ") + ", and no passage quoted that names it states one"
		}
		if k.name != "limit" {
			continue
		}
		if !slices.ContainsFunc(chosen, func(c candidate) bool { return k.in(c.masked) }) {
			return false, "the question asks for a limit, and no passage quoted states one"
		}
		if x := countedThing(asking); x != "" && !slices.ContainsFunc(chosen, func(c candidate) bool {
			return k.in(c.masked) && hitWordsOf(kept[c.hit]).has(term{Word: x, Stem: stem(x)})
		}) {
			return false, "the question asks for the most " + x + ", and no passage quoted that states a limit speaks of " + x
		}
	}
	return true, ""
}

// speaksOf reports whether a passage speaks of one of the settings and
// package-qualified names a question names (namedSettings,
// qualifiedNames): in its text, its heading or its file's name. The
// release that added zorp.Frob is not stated by the notes of another
// change. With nothing named, any passage does.
func speaksOf(h graphrag.Hit, settings []string, code []qualifiedName) bool {
	if len(settings) == 0 && len(code) == 0 {
		return true
	}
	passage := strings.ToLower(h.Chunk.Text + " " + h.Chunk.Heading)
	return slices.ContainsFunc(settings, func(n string) bool { return settingIn(h, passage, n) }) ||
		slices.ContainsFunc(code, func(q qualifiedName) bool { return q.heldBy(h) })
}

// statesVersion reports whether a quoted unit says which version (k is the
// version kind): in its own words, or where the notes it is part of are
// titled ("Zorp 2.3 Release Notes", a changelog's "zorp (2.3-1)" heading)
// or named (RelNotes/2.3.0.txt).
func statesVersion(k askKind, c candidate, h graphrag.Hit) bool {
	return k.in(c.text) || k.in(c.unit.heading) || k.in(c.unit.scope) || k.in(h.Chunk.Heading) || k.in(path.Base(h.Source.Path))
}

// kindAnswers reports whether a question for a version that also asks for
// the kind named ("when was the album released": a time; "which release
// does it fetch if I name none": a default) is answered by a unit that
// states that kind: a date answers it as a release number would, and so
// does the sentence that says which release is taken when none is named
// ("… the default version in the zorp's manifest").
func kindAnswers(kinds []askKind, name string, c candidate) bool {
	i := slices.IndexFunc(kinds, func(k askKind) bool { return k.name == name })
	return i >= 0 && kinds[i].in(c.masked)
}

// namedSettings are the settings and options the sentences that ask
// (askingPart, which the caller passes) name as code does:
// "zorp_max_frobs", "--frob-limit": an option without the space before
// it, which optionPattern matches to find where the option starts.
func namedSettings(asking string) []string {
	out := snakeCase.FindAllString(asking, -1)
	for _, m := range optionPattern.FindAllStringSubmatch(asking, -1) {
		out = append(out, m[1])
	}
	return out
}

// statesOfSettings reports whether a quoted unit states the default or
// the limit a question asks for (k) of the settings it names, from a
// passage that names them (in its text, its heading or its file's name):
// the default of zorp_max_frobs is not the default a passage about
// another setting states ("The default size is 16 megabytes."). With no
// setting named, any unit of the kind may.
func statesOfSettings(k askKind, names []string, chosen []candidate, kept []graphrag.Hit) bool {
	if len(names) == 0 {
		return true
	}
	return slices.ContainsFunc(chosen, func(c candidate) bool {
		if !k.in(c.masked) {
			return false
		}
		h := kept[c.hit]
		passage := strings.ToLower(h.Chunk.Text + " " + h.Chunk.Heading)
		return !slices.ContainsFunc(names, func(n string) bool { return !settingIn(h, passage, n) })
	})
}

// settingIn reports whether a hit names a setting: its passage (lower
// case, with its heading) holds it, or its file is named after it.
func settingIn(h graphrag.Hit, passage, name string) bool {
	name = strings.ToLower(name)
	return strings.Contains(passage, name) || pathNamed(h.Source.Path, map[string]bool{name: true})
}

// supportedIn is what the sentences that ask (askingPart, which the
// caller passes) ask whether something supports ("does zorpd support frob
// compression": frob, compression): the words after "support" up to the
// first function word after them. A passage that says so names it; one
// about the thing alone answers nothing. Nil for a question that asks no
// such thing.
func supportedIn(asking string) []string {
	toks := tokenize(asking)
	if len(toks) == 0 || !polarOpeners[toks[0].Lower] {
		return nil
	}
	for i, t := range toks {
		if t.Lower != "support" && t.Lower != "supports" {
			continue
		}
		var out []string
		for _, o := range toks[i+1:] {
			if stopWords[o.Lower] {
				if len(out) > 0 {
					break
				}
				continue
			}
			out = append(out, o.Lower)
		}
		return out
	}
	return nil
}

// polarOpeners open a question that asks whether something is so.
var polarOpeners = toSet(`does do can is are will`)

// countedPattern finds what a question for a limit counts: "the maximum
// number of frobs", "the largest count of zorps".
var countedPattern = regexp.MustCompile(`(?i)\b(?:max(?:imum)?|min(?:imum)?|most|largest|highest|lowest|smallest)\s+(?:number|count|amount)\s+of\s+([a-z][a-z-]+)`)

// countedThing is the lower-cased thing a question for a limit counts, or
// "" when it names none.
func countedThing(asking string) string {
	m := countedPattern.FindStringSubmatch(asking)
	if m == nil || stopWords[strings.ToLower(m[1])] {
		return ""
	}
	return strings.ToLower(m[1])
}
