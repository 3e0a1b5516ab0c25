package nodes

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// candidate is a sentence of a kept hit that may be quoted in an
// extractive answer.
type candidate struct {
	text string
	hit  int
	pos  int
	// stems maps the stems the sentence is about to how much they count:
	// 1 when the sentence holds them, less when only its context does (its
	// section heading, the document title).
	stems map[string]float64
	// section numbers the sections of a passage; secPos is the sentence's
	// position in its section; item is true for a list item.
	section, secPos int
	item            bool
	// loose are the sentence's own words under looseStem.
	loose map[string]bool
	// prose is false for a fragment without a verb (a table row, a label).
	prose bool
	// masked is text with identifiers masked, for matching answer kinds:
	// the digits of "INV-2024-0117" are no amount.
	masked string
	// unit is the quoted unit: code and lead-ins are shown on lines of
	// their own.
	unit quoteUnit
	// declares is true for code that declares a name the question asks
	// about ("func NewReader" for "what does strings.NewReader return"),
	// or a manual's paragraph that defines an option it names ("--max-rate").
	// Asked for a function the question does not name ("which zorp
	// function converts a Frob into a Quux"), it is code that declares a
	// function, not a type the question names (asksUnnamedFunc).
	declares bool
	// test is true for a unit of a test file, test data or a vendored copy
	// of a kept file (setAside).
	test bool
	// defines is true for a manual's paragraph that defines a term the
	// question names ("RESTART IDENTITY"): like declares, but a one-word
	// term ("FULL") is as often only mentioned, so the answer may go on.
	defines bool
	// runs is true for an example that runs the command a "how do I"
	// question names: like defines, a bonus that lets the answer go on.
	runs bool
	// instructs is true for a unit that tells the reader to do what a
	// "how do I …" question asks how to do, with its verb as an
	// imperative: "Change it by running …" for "how do I change …"
	// (see howToVerb).
	instructs bool
	// naming is how many of the question's words name the unit's file or
	// folder ("gzip" and "copyright" name gzip/copyright).
	naming int
	// pkgDoc is true for a unit of the doc comment of the package a name
	// the question asks about is in (os/exec's package doc for
	// "exec.Command"): what the declaration's own doc leaves to it.
	pkgDoc bool
	// source is true for a unit of a source file (isCodeHit).
	source bool
	// name is true when the unit names a person or an organisation
	// (namesSomeone): what a "who" question asks for.
	name bool
	// filesAsked is true for a field of a copyright file's stanza whose
	// Files field names a file the question names (filesNamed): the
	// author of select-zorp is in the stanza of "Files: select-zorp*".
	// So is a field of a stanza whose Files field names a folder the
	// question names ("the frob plugins": "plugins/frob/*"), and of the
	// packaging's stanza ("Files: debian/*") when the question asks about
	// the packaging (packagingAsked).
	filesAsked bool
	// filesDepth is how closely a part's stanza names what the question
	// names (partFiles).
	filesDepth int
	// packageNamed is true for a unit of a file whose folder the question
	// names (packageWords): "zorp/copyright" for "…the packaging of zorp".
	packageNamed bool
	// copyright is true for a unit of a copyright file: a stanza, a
	// stand-alone licence's text, a file not written to DEP-5.
	copyright bool
	// agent is true when the unit names someone as who did something
	// (namesAgent): "written by Jim Meyering", "Author: Jim Meyering".
	agent bool
	// subheadAsked is true for a unit under a subheading of a release's
	// notes (not the release's own heading) holding a question word.
	subheadAsked bool
	// release is +1 for a unit under the heading of a release the question
	// names ("jq (1.6-2.1+deb12u1) …" for "which CVE does jq
	// 1.6-2.1+deb12u1 fix"), -1 under another release's, 0 otherwise.
	release int
	// newest is true for the line of the newest release of a changelog
	// whose package the question names, and for the units under it, when
	// the question asks which release is installed or who maintains the
	// package (asksNewestRelease).
	newest bool
	// restates is true for a sentence that says nothing the question,
	// its heading and its document's title do not say (restates).
	restates bool
}

func looseSet(text string) map[string]bool {
	set := make(map[string]bool)
	for _, t := range tokenize(text) {
		set[looseStem(t.Lower)] = true
		if t.Digit && strings.Contains(t.Lower, "-") {
			// A code holds its parts: "CVE-2025-48060" holds "CVE".
			for _, part := range strings.Split(t.Lower, "-") {
				if part != "" {
					set[looseStem(part)] = true
				}
			}
		}
	}
	return set
}

var (
	auxiliaries = toSet(`is are was were be been being am has have had do does did will would shall should can could may might must isn't aren't wasn't weren't won't can't don't doesn't didn't stays stay keeps keep goes go runs run takes take uses use owns own needs need means mean`)
	// imperativeRe finds a sentence that opens with an imperative: an
	// instruction ("Run …", "Set …") or, as changelogs write each entry,
	// what a release did ("Fix the spool path …", "Drop support for …",
	// "Bump …").
	imperativeRe = regexp.MustCompile(`(?i)^(run|use|open|click|copy|mount|select|type|enter|install|restart|start|stop|check|set|add|remove|edit|create|delete|make|put|see|ask|call|send|keep|move|write|read|` +
		`fix|update|bump|drop|switch|rename|replace|restore|disable|enable|avoid|allow|ensure|build|include|exclude|mark|document|improve|apply|upgrade|change|merge|split|skip|handle|reword|refresh|rebuild|revert|import)\b`)
)

// isProse reports whether a sentence reads as a statement rather than a
// label: it has a verb-like word (an auxiliary, a past or -ing form), starts
// with an imperative, or is long.
func isProse(s string) bool {
	toks := tokenize(s)
	if len(toks) >= 8 || imperativeRe.MatchString(s) {
		return true
	}
	for _, t := range toks {
		if auxiliaries[t.Lower] || len(t.Lower) > 4 && (strings.HasSuffix(t.Lower, "ed") || strings.HasSuffix(t.Lower, "ing")) {
			return true
		}
	}
	return false
}

// questionTerms are the question's content terms, with each part of a
// dotted name added ("strings.NewReader" also asks for "NewReader"): code
// and its documentation name the parts apart.
func questionTerms(query string) []term {
	terms := contentTerms(query)
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		seen[t.Stem] = true
	}
	for _, t := range append([]term(nil), terms...) {
		for _, part := range compoundParts(t.Word) {
			// "right-align" asks for a right alignment: documentation
			// writes it "right-alignment" (see wholeCompounds), code
			// AlignRight (whose words are align and right). The parts
			// count as the compound does: a general word alone
			// ("right") is specific within it. A unit's own hyphenated
			// words are not split: one that writes the compound as the
			// question does scores for it once, as before.
			if st := stem(part); !seen[st] {
				seen[st] = true
				terms = append(terms, term{Stem: st, Word: part, Weight: t.Weight})
			}
		}
		if !strings.Contains(t.Word, ".") || t.isNumber() {
			continue
		}
		parts := strings.Split(t.Word, ".")
		for i, part := range parts {
			// The identifier of a qualified name is asked about even when
			// it is a stop word ("Once" of "sync.Once").
			name := i == len(parts)-1 && qualifiedKey(query, t.Word)
			if st := stem(part); len(part) > 1 && !seen[st] && (!stopWords[part] || name) {
				seen[st] = true
				terms = append(terms, term{Stem: st, Word: part, Weight: t.Weight})
			}
		}
	}
	return terms
}

// situationWeighed scales the weight of the terms that only the asker's
// situation writes (the statements before the asking sentence, see
// askingPart) by answerWeights.situation: "My zorpd crashed after the
// frob upgrade. How do I roll back the spool?" is answered by what says
// how to roll back the spool, which need not say zorpd crashed. The words
// still count: the situation often names the subject the asking sentence
// calls "it". When the asking sentence names nothing of its own (only
// everyday words: "Zorpd renamed its spool directory. What was it called
// back then?"), the situation is its subject, and weighs in full.
// (evidenceTerms weighs them as everyday words instead: the evidence
// measures whether the files hold the question at all.)
func situationWeighed(query string, terms []term) []term {
	asking := askingPart(query)
	if asking == query {
		return terms
	}
	asked := map[string]bool{}
	own := false
	for _, t := range questionTerms(asking) {
		asked[t.Stem] = true
		own = own || t.Weight >= 1
	}
	if !own {
		return terms
	}
	for i := range terms {
		if !asked[terms[i].Stem] {
			terms[i].Weight *= answerWeights.situation
		}
	}
	return terms
}

// askedNamesAndOptions are the identifiers and command-line options the
// question asks about, whose declarations answer first: those of its
// asking sentence (see askingPart), when it writes any. "I pass --zap to
// zorpctl and it hangs. Which lock is it waiting on?" is not answered
// by what --zap does. When the asking sentence writes none, it asks about
// those of the situation ("I call frob.Open with a nil config. Can that
// panic?").
func askedNamesAndOptions(query string) ([]askedIdent, [][]string) {
	asking := askingPart(query)
	idents, options := askedIdents(asking), optionPattern.FindAllStringSubmatch(asking, -1)
	if asking != query && len(idents)+len(options) == 0 {
		idents, options = askedIdents(query), optionPattern.FindAllStringSubmatch(query, -1)
	}
	return idents, options
}

// howToPattern finds the verb of a question that asks how to do
// something: "how do I change …", "how can we stop …", "how to add …".
var howToPattern = regexp.MustCompile(`(?i)^\s*how\s+(?:(?:do|can|should|would|could)\s+(?:i|we|you|one)\s+|to\s+)(\w+)`)

// lightVerbs say little of what a "how do I" question asks ("how do I
// make it …", "how do I get …"): a sentence opening with one is no
// instruction to do the thing asked.
var lightVerbs = toSet(`make get do have let go be use`)

// howToVerb is the verb a "how do I …" question asks how to do, lower
// case, or "" when the question is none or its verb is a light one.
func howToVerb(query string) string {
	m := howToPattern.FindStringSubmatch(query)
	if m == nil {
		return ""
	}
	v := strings.ToLower(m[1])
	if lightVerbs[v] || stopWords[v] {
		return ""
	}
	return v
}

// instructsTo reports whether a sentence tells the reader to do verb:
// it opens with the verb as an imperative ("Change it by running …"),
// or with "To <verb>" ("To change it, run …").
func instructsTo(sent, verb string) bool {
	toks := tokenize(sent)
	if len(toks) > 1 && toks[0].Lower == "to" {
		toks = toks[1:]
	}
	if len(toks) < 2 || toks[0].Start >= 4 || looseStem(toks[0].Lower) != looseStem(verb) {
		return false
	}
	// A verb in capitals names a command ("DROP TABLE drops a table",
	// "COPY moves data"): the sentence's subject, not an imperative.
	word := sent[toks[0].Start:toks[0].End]
	return len(word) < 2 || strings.ToUpper(word) != word
}

// actionNames adds to a question's name words (nameWordsWeighted) the
// action it asks about, a verb and its object across an article, joined
// as a manual names a command's page: "how do I shred a vault" names
// SHRED_VAULT.7, the page of what the question wants to do, over pages
// that only mention vaults. Each counts two words, as a pair of words
// side by side does.
func actionNames(query string, named []string, weights map[string]int) []string {
	toks := tokenize(query)
	for i := 0; i+2 < len(toks); i++ {
		v, art, obj := toks[i].Lower, toks[i+1].Lower, toks[i+2].Lower
		if !articles[art] || stopWords[v] || stopWords[obj] || len(v) < 2 || len(obj) < 2 {
			continue
		}
		for _, w := range []string{v + "_" + obj, v + "-" + obj} {
			if _, ok := weights[w]; !ok {
				named = append(named, w)
				weights[w] = 2
			}
		}
	}
	return named
}

// compoundParts are the words a hyphenated word is made of, when it is
// made of words: "right-align" gives right and align, "row-level" row and
// level; a code or version with digits ("CVE-2024-1234", "utf-8") gives
// none, and neither do function words ("if" of "if-exists").
func compoundParts(word string) []string {
	if !strings.Contains(word, "-") || strings.IndexFunc(word, unicode.IsDigit) >= 0 {
		return nil
	}
	var out []string
	for _, part := range strings.Split(word, "-") {
		if len(part) > 1 && !stopWords[part] {
			out = append(out, part)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// wholeCompounds are the compounds (hyphenated words of the question)
// that one word of text holds whole: every part of the compound begins
// one of the word's parts, in any order ("right-alignment" and
// AlignRight hold "right-align"; "row_level" holds "row-level").
func wholeCompounds(s string, compounds []string) []string {
	if len(compounds) == 0 {
		return nil
	}
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_')
	}) {
		var parts []string
		for _, p := range strings.FieldsFunc(f, func(r rune) bool { return r == '-' || r == '_' }) {
			for _, w := range text.IdentWords(p) {
				parts = append(parts, strings.ToLower(w))
			}
		}
		if len(parts) < 2 {
			continue
		}
		for _, c := range compounds {
			if !slices.Contains(out, c) && slices.IndexFunc(compoundParts(c), func(q string) bool {
				return !slices.ContainsFunc(parts, func(p string) bool { return strings.HasPrefix(p, q) })
			}) < 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

// qualifiedKey reports whether a dotted term of query is one of its
// package-qualified names.
func qualifiedKey(query, word string) bool {
	return slices.ContainsFunc(qualifiedNames(query), func(q qualifiedName) bool { return q.key() == word })
}

// askedNames are the identifiers a question names, lower-cased: the last
// part of a dotted name (of two letters or more) and any word written in
// CamelCase or with an underscore ("WithCancel", "io.EOF",
// "unique_violation"); not a file's extension in a path
// ("/etc/zorp.conf"). A possessive "'s" is no part of the name: "ZorpDB's"
// names ZorpDB. Names joined by "/" are named each ("on zorpOS/frobOS": on
// either), an acronym's plural names the acronym ("URLs": URL), and type
// arguments or an index are left out ("Pointer[T]": Pointer).
func askedNames(query string) map[string]bool {
	out := map[string]bool{}
	name := func(w string) {
		if hasInnerCapital(w) || strings.Contains(w, "_") {
			out[strings.ToLower(w)] = true
		}
	}
	for _, f := range strings.FieldsFunc(query, func(r rune) bool {
		return r == ' ' || r == '?' || r == ',' || r == '(' || r == ')' || r == '"' || r == '`'
	}) {
		f = text.TrimPossessive(strings.Trim(f, ".:;!'"))
		if i := strings.IndexByte(f, '['); i > 0 && isNameByte(f[i-1]) {
			// Go's type arguments or an index are no part of the name:
			// "atomic.Pointer[T]" names Pointer, "Typ[Byte]" Typ.
			f = f[:i]
		}
		if i := strings.LastIndex(f, "."); i >= 0 && i+1 < len(f) {
			if strings.Contains(f[:i], "/") && !strings.ContainsFunc(f[i+1:], func(r rune) bool { return !unicode.IsLower(r) }) {
				// A file in a path ("/etc/zorp.conf", "src/zorp/frob.go"):
				// its extension names nothing.
				continue
			}
			if i+2 < len(f) {
				out[strings.ToLower(f[i+1:])] = true
			}
			// else one letter after the dot: an abbreviation ("e.g"),
			// or a file's extension ("zorp.c", "frob.n").
			continue
		}
		if !joinsNames(f) {
			name(f)
			continue
		}
		for _, part := range strings.FieldsFunc(f, func(r rune) bool { return r == '/' || r == '+' }) {
			name(part)
		}
	}
	for _, id := range identifierPattern.FindAllString(query, -1) {
		if a, ok := pluralAcronym(id); ok {
			out[a] = true
		} else if !versionPattern.MatchString(id) {
			out[strings.ToLower(id)] = true
		}
	}
	return out
}

// joinsNames reports whether w is names joined by "/" or "+"
// ("darwin/iOS", "Open+Read"), one of them written as a name: a file
// holds them apart ("darwin", "ios"), seldom as the pair, so each is named
// on its own. A word with none is a path ("net/http"), matched as one
// (namedPaths).
func joinsNames(w string) bool {
	return strings.ContainsAny(w, "/+") && hasInnerCapital(w)
}

// pluralAcronym reports the lower-cased acronym a word writes in the
// plural: "URLs" is URL, "MACs" MAC. A file names the thing in the
// singular as often, and "urls" is no identifier to find whole.
func pluralAcronym(w string) (string, bool) {
	a, ok := strings.CutSuffix(w, "s")
	if !ok || len(a) < 2 || strings.ToUpper(a) != a || strings.ToLower(a) == a {
		return "", false
	}
	return strings.ToLower(a), true
}

// hasInnerCapital reports whether w has an upper-case letter after a lower-case
// one ("NewReader", "iPhone") or is a capital followed by a capital word
// ("EOF" is not: all capitals).
func hasInnerCapital(w string) bool {
	lower := false
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= 'A' && r <= 'Z' && lower:
			return true
		}
	}
	return false
}

// answerCandidates are the quotable units of the kept hits, with what each
// is about, and how many hits hold each query stem.
func answerCandidates(query string, kept []graphrag.Hit, terms []term) ([]candidate, map[string]int) {
	idents, options := askedNamesAndOptions(query)
	releases := versionPattern.FindAllString(query, -1)
	named, nameWeights := nameWordsWeighted(query)
	named = actionNames(query, named, nameWeights)
	qLoose := looseSet(query)
	qAll := looseSet(query) // with function words: "only", "no"
	for _, t := range tokenize(query) {
		qAll[looseStem(t.Lower)] = true
	}
	kinds := askedKinds(query)
	steps := slices.ContainsFunc(kinds, func(k askKind) bool { return k.name == "steps" })
	// A long code block is cut around the line that holds the kind of
	// answer asked for, when a kind is held by a line of its own.
	var lineAsked *regexp.Regexp
	if i := slices.IndexFunc(kinds, func(k askKind) bool { return k.codeLine }); i >= 0 {
		lineAsked = kinds[i].has
	}
	verb := howToVerb(query)
	otherFunc := asksUnnamedFunc(query)
	overview := asksOverview(query)
	asksRelated := relatedAsked.MatchString(query)
	newestAsked := asksNewestRelease(query)
	// Read only when needed: for a part's stanza of a copyright file, a
	// label under a release's heading, a folder named after an exact name.
	fileWords := sync.OnceValue(func() []string { return stanzaFileWords.FindAllString(strings.ToLower(query), -1) })
	pinned := sync.OnceValue(func() []string { return constrainingTerms(query) })
	// The loose stems of the names the question writes as a package's or
	// a program's (packageNames: "the file command").
	var software map[string]bool
	softwareNamed := func(stem string) bool {
		if software == nil {
			software = map[string]bool{}
			for _, n := range packageNames(query) {
				software[looseStem(n)] = true
			}
		}
		return software[stem]
	}
	var compounds []string // the question's hyphenated words
	for _, t := range terms {
		if compoundParts(t.Word) != nil {
			compounds = append(compounds, t.Word)
		}
	}
	qStems := make(map[string]bool, len(terms))
	for _, t := range terms {
		qStems[t.Stem] = true
		if w, ok := codeSpelling[looseStem(t.Word)]; ok {
			// A code window's line that writes the word as code does
			// ("-Inf" for "negative infinity") holds it.
			qStems[w] = true
		}
	}
	// A code window's line that writes two of the question's words as
	// one ("canonical filenames" for "canonical file names") holds them.
	compoundsClosed := closedCompounds(query)
	for _, c := range compoundsClosed {
		qStems[c.stem] = true
	}
	var cands []candidate
	df := make(map[string]int)
	for i, h := range kept {
		hs := stemSet(h.Source.Title + " " + h.Chunk.Text)
		for _, t := range terms {
			if hs[t.Stem] {
				df[t.Stem]++
			}
		}
		title := looseSet(h.Source.Title)
		// How much of the question names the hit's file or folder
		// ("gzip" and "copyright" name gzip/copyright): see lessNamed.
		// An exact name of the question also names a folder Debian
		// names after it ("libZorp" names libzorp7/, with the library's
		// soname: packagedAs); an everyday word would name too many
		// ("python" every python3-* folder).
		naming := 0
		for _, w := range named {
			if pathNamed(h.Source.Path, map[string]bool{w: true}) || slices.Contains(pinned(), w) && inPackagedFolder(h.Source.Path, w) {
				naming += nameWeights[w]
			}
		}
		// A copyright file's stanzas are of the work its header names
		// ("Upstream-Name: zorpkit", which ingest makes the passage's
		// heading) when its package's folder is named otherwise
		// ("libzorp0"): a question that names zorpkit names them too.
		workNaming := 0
		if h.Chunk.Kind == kindFields && h.Chunk.Heading != "" {
			heading := looseSet(h.Chunk.Heading)
			for _, w := range named {
				if heading[looseStem(w)] && !pathNamed(h.Source.Path, map[string]bool{w: true}) {
					workNaming += nameWeights[w]
				}
			}
		}
		code := isCodeHit(h)
		var commands []string // the named words that name this hit's manual page
		if strings.Contains(h.Source.Path, "/man") || convertedText(h) {
			for _, w := range named {
				if pathNamed(h.Source.Path, map[string]bool{w: true}) {
					commands = append(commands, w)
				}
			}
		}
		// A passage named by what the question names, as a whole ("what
		// is pg_rewind for": the first paragraph of pg_rewind's
		// DESCRIPTION, which ingest names pg_rewind).
		lead := overview && !code && h.Chunk.Kind != kindFields && symbolNamed(h.Chunk.Symbol, named)
		var units []quoteUnit
		if code {
			units = sourceUnits(h, qStems, lineAsked)
			for k := range units {
				// "what is the value of http.StatusTeapot": its line of the
				// const block, not the block.
				decl := units[k].text
				if units[k].block != "" {
					decl = units[k].block
				}
				if e, name, ok := entryOf(decl, idents, h); ok {
					units[k].text, units[k].entry = inGroup(e, h.Chunk.Text), name
				}
			}
		} else if h.Chunk.Kind == kindFields {
			units = fieldUnits(h.Chunk.Text)
			markStanzas(units, h.Chunk.Heading)
		} else {
			units = splitUnits(h.Chunk.Text, convertedText(h))
			if len(units) > 0 && slices.ContainsFunc(units[0].defines, func(d string) bool {
				return slices.ContainsFunc(options, func(o []string) bool { return o[1] == d }) || termAsked(d, query, qLoose)
			}) {
				// The term the question asks about, defined in a passage of
				// its own: quoted whole.
				units = wholeDefinition(units, h.Chunk.Heading)
			}
		}
		test := setAside(h.Source.Path, kept)
		// The newest release of the changelog of a package the question
		// names, asked which release is installed or who maintains it.
		newestLine := ""
		if newestAsked && releaseNaming(query, h) != namesNone {
			newestLine = newestReleaseLine(h)
		}
		pkgDoc := h.Chunk.Kind == kindPackage && slices.ContainsFunc(idents, func(a askedIdent) bool { return a.Pkg != "" && inPackage(h, a.Pkg) })
		// The question's words that name the package of the hit's file
		// (packageWords), read for its first unit of a part's stanza.
		var pkgWords []string
		pkgRead := false
		for j, u := range units {
			heading := u.heading
			if heading == "" {
				heading = h.Chunk.Heading
			}
			if crossReferences(heading) && !asksRelated {
				// A manual's SEE ALSO section lists the pages of the
				// commands it names ("ALTER ZORP (ALTER_ZORP(7)), DROP
				// ZORP (DROP_ZORP(7))"): it holds the question's words and
				// answers nothing, unless asked which pages are related.
				continue
			}
			sent := u.text
			own := looseSet(sent)
			for _, t := range tokenize(sent) {
				// "ssh-keygen" speaks of ssh; a compound the question
				// writes as well ("custom-format", or "custom-formats"
				// for it) counts once, whole.
				if !slices.ContainsFunc(compounds, func(c string) bool { return looseStem(c) == looseStem(t.Lower) }) {
					for _, part := range compoundParts(t.Lower) {
						own[looseStem(part)] = true
					}
				}
			}
			for _, w := range wholeCompounds(sent, compounds) {
				// The compound asked about, as one word: "right-alignment"
				// or AlignRight for "right-align", not "right" here and
				// "aligned" there.
				own[looseStem(w)] = true
			}
			if u.code {
				// "const BlockSize = 64" speaks of a block size.
				for k := range identWordSet(sent) {
					own[k] = true
				}
			}
			for _, w := range negatedMeanings(sent) {
				// "will not succeed if …" says when it fails.
				own[looseStem(w)] = true
			}
			for _, c := range compoundsClosed {
				// "the stopword file" speaks of a stop word file.
				if own[c.loose] {
					own[c.first], own[c.second] = true, true
				}
			}
			st := make(map[string]float64, len(own))
			for k := range own {
				st[k] = 1
			}
			headingWords := looseSet(heading)
			for k := range headingWords {
				if st[k] == 0 {
					st[k] = answerWeights.heading
				}
			}
			for k := range title {
				if st[k] == 0 {
					st[k] = answerWeights.title
				}
			}
			if u.stanza == stanzaWhole {
				// A copyright file's stanza of the whole work is about the
				// work its path names ("quux/copyright"), though its
				// Copyright field names only people and years.
				for _, w := range named {
					if k := looseStem(w); st[k] == 0 && pathNamed(h.Source.Path, map[string]bool{w: true}) {
						st[k] = answerWeights.heading
					}
				}
			}
			kindText := sent
			if u.field != "" {
				// A field's kind of answer is in its value: "Copyright:"
				// names no one, "Julian R Seward" does.
				kindText = strings.TrimSpace(strings.TrimPrefix(sent, u.field+":"))
			}
			c := candidate{text: sent, hit: i, pos: j, stems: st, loose: own, prose: code || u.lead || u.field != "" || isProse(sent) && !usageLine(sent), masked: maskIdentifiers(kindText),
				section: u.section, secPos: u.secPos, item: u.item, unit: u, test: test, release: releaseScope(releases, scopeOf(u, heading)), naming: naming, pkgDoc: pkgDoc, source: code}
			if u.stanza != stanzaNone {
				c.naming += workNaming
			}
			c.restates = !u.code && u.field == "" && restates(own, qLoose, title, headingWords)
			c.newest = newestLine != "" && (strings.TrimSpace(heading) == newestLine || strings.TrimSpace(sent) == newestLine)
			if u.code {
				// The doc comment of a declaration cut in parts (a long
				// doc above "func Search") is of the declaration too, and
				// so is a later part of its body that holds the line a
				// question for an error's or a panic's text asks for (a
				// long switch ending in "panic(…)"); a package's doc is not
				// what "the block size of SHA-256 in crypto/sha256"
				// declares.
				c.declares = u.entry != "" || slices.ContainsFunc(idents, func(a askedIdent) bool {
					return a.declaredIn(sent, h) || a.symbolOf(h) && (docComment(sent) && h.Chunk.Kind != kindPackage || lineAsked != nil && lineAsked.MatchString(sent))
				})
			}
			if u.code && otherFunc {
				// Asked for a function it does not name, the declaration
				// of a type the question names is what the function
				// takes; a named function's doc may name the one asked
				// for ("… recommend which newer function").
				c.declares = declaresOtherFunc(sent, idents) || c.declares && funcDeclaration.MatchString(sent)
			}

			for _, o := range options {
				c.declares = c.declares || slices.Contains(u.defines, o[1])
			}
			c.defines = slices.ContainsFunc(u.defines, func(d string) bool { return termAsked(d, query, qLoose) || optionWordsAsked(d, qAll) })
			if u.field != "" && c.defines && symbolNamed(h.Chunk.Symbol, named) && !softwareNamed(looseStem(strings.ToLower(u.field))) {
				// The field asked about of the work the question names:
				// the Copyright of gzip's upstream stanza, not of the
				// packaging's ("Files: debian/*"). Not a field whose
				// name the question writes as a program's ("the file
				// command" names no "Files:" field).
				c.declares = true
			}
			if c.release > 0 && u.heading != "" && releaseOf(u.heading) == "" {
				for k := range looseSet(u.heading) {
					c.subheadAsked = c.subheadAsked || qLoose[k]
				}
			}
			c.copyright = h.Chunk.Kind == kindFields || path.Base(h.Source.Path) == "copyright"
			if u.stanza == stanzaPart || u.stanza == stanzaPackaging {
				if !pkgRead {
					pkgWords, pkgRead = packageWords(h.Source.Path, fileWords()), true
				}
				c.filesDepth = partFiles(u.files, h.Source.Path, fileWords(), pkgWords)
				c.filesAsked = c.filesDepth > 0 || u.stanza == stanzaPackaging && packagingAsked(query, fileWords())
				c.packageNamed = len(pkgWords) > 0
			}
			c.name = namesSomeone(c.masked)
			c.agent = c.name && namesAgent(sent)
			if lead && !u.code || overview && naming > 0 && !code && endsWithText(sent, h.Source.Title) {
				// Also the document's own title line, when the question
				// names the file: a manual page's NAME ("pg_archivecleanup
				// - clean up PostgreSQL WAL archive files").
				c.declares = true
			}
			if steps && (u.code || u.lead) && len(commands) > 0 {
				// For "how do I …", the example that runs the command the
				// question names ("… with pg_restore": "$ pg_restore -C -d
				// postgres db.dump", not "$ pg_dump -Fc mydb").
				c.runs = runsCommand(sent, commands) && holdsBeyond(own, qLoose, commands)
			}
			// A lead-in's example is weighed by the command it runs
			// (runs), not by its opening verb.
			c.instructs = verb != "" && !u.code && !u.lead && instructsTo(sent, verb)
			// An instruction is a sentence, however short ("Switch it
			// with 'setfont NAME'."), not a label.
			c.prose = c.prose || c.instructs
			if !c.prose && len(tokenize(sent)) < 3 {
				// A label or a term on its own ("RPO") answers nothing,
				// but a changelog's entry that is only an exact name the
				// question pins its answer to (the CVE asked about) says
				// as a sentence would that its release fixed it.
				if !u.item || !releaseHeading(u.heading) || !holdsForm(strings.ToLower(sent), pinned()) {
					continue
				}
				c.prose = true
			}
			cands = append(cands, c)
		}
	}
	return cands, df
}

// restates reports whether a sentence's words (own) are all words of the
// question, its document's title or its heading: "ALTER ZORP changes the
// definition of a zorp." under "ALTER_ZORP - change the definition of a
// zorp" says nothing to "which parts of a zorp does ALTER ZORP modify?".
// A sentence with no word of its own says nothing either, but restates
// nothing.
func restates(own, question, title, heading map[string]bool) bool {
	if len(own) == 0 {
		return false
	}
	for w := range own {
		if !question[w] && !title[w] && !heading[w] {
			return false
		}
	}
	return true
}

// termAsked reports whether the question names a defined term that is not
// an option: every content word of it is in the question ("RESTART
// IDENTITY" for "what does TRUNCATE RESTART IDENTITY do"), and not right
// after a word that excludes it ("VACUUM without FULL" is not about FULL).
func termAsked(term, question string, loose map[string]bool) bool {
	if strings.HasPrefix(term, "-") {
		return false // options are matched as they are written
	}
	n := 0
	for _, t := range tokenize(term) {
		if stopWords[t.Lower] {
			continue
		}
		if !loose[looseStem(t.Lower)] {
			return false
		}
		n++
	}
	if n == 0 {
		return false
	}
	toks := tokenize(question)
	first := tokenize(term)[0].Lower
	for i := 1; i < len(toks); i++ {
		if toks[i].Lower == first && excluding[toks[i-1].Lower] {
			return false
		}
	}
	return true
}

// optionWordsAsked reports whether the question says what a long option
// says in two words or more: "--schema-only" for "how do I dump only the
// schema", "--if-exists" for "drop it only if it exists". An option of one
// word ("--schema", "--file") names a topic rather than what is asked.
func optionWordsAsked(opt string, question map[string]bool) bool {
	if !strings.HasPrefix(opt, "--") {
		return false
	}
	words := strings.Split(strings.TrimPrefix(opt, "--"), "-")
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		if w == "" || !question[looseStem(w)] {
			return false
		}
	}
	return true
}

// excluding are the words that put what follows them out of a question:
// "VACUUM without FULL", "files except logs".
var excluding = toSet(`without not no except excluding besides but`)

// releaseScope is +1 when heading heads the notes of a release the
// question names (versions), -1 when it heads another release's, 0 when
// it names no version or the question none. "2.23.0" names the release
// "Git 2.23 Release Notes" heads: trailing zero parts do not count.
func releaseScope(versions []string, heading string) int {
	if len(versions) == 0 {
		return 0
	}
	// In a heading path, the first heading that names a version is the
	// release's: "Git 2.30 Release Notes > Updates since v2.29" are the
	// notes of 2.30, which a subheading compares with 2.29.
	var hv []string
	for _, h := range strings.Split(heading, " > ") {
		if hv = versionPattern.FindAllString(h, -1); len(hv) > 0 {
			break
		}
	}
	if len(hv) == 0 {
		return 0
	}
	for _, v := range versions {
		for _, h := range hv {
			if trimZeros(v) == trimZeros(h) || trimZeros(v) == trimZeros(upstreamVersion(h)) {
				return 1
			}
		}
	}
	return -1
}

// upstreamVersion is a packaged version's upstream part, without the
// packaging's revision after its last hyphen (deb-version(7)):
// "zorp (3.4.1-2)" is a release of zorp 3.4.1. A version with no
// hyphen is its own.
func upstreamVersion(v string) string {
	if i := strings.LastIndexByte(v, '-'); i > 0 {
		return v[:i]
	}
	return v
}

// scopeOf is the heading path a unit is under: its own (splitUnits), or
// the chunk's heading when the passage holds none.
func scopeOf(u quoteUnit, heading string) string {
	if u.scope != "" {
		return u.scope
	}
	return heading
}

// trimZeros drops a version's trailing ".0" parts: "2.23.0" is "2.23".
func trimZeros(v string) string {
	for strings.HasSuffix(v, ".0") {
		v = strings.TrimSuffix(v, ".0")
	}
	return v
}

// holdsBeyond reports whether a unit's own words hold a word of the
// question that is not part of the commands' names: an example is the
// answer when it speaks of what is asked ("… recreate it from the dump"),
// not only when it runs the command.
func holdsBeyond(own, question map[string]bool, commands []string) bool {
	names := map[string]bool{}
	for _, c := range commands {
		for k := range looseSet(c) {
			names[k] = true
		}
	}
	for k := range own {
		if question[k] && !names[k] && !stopWords[k] {
			return true
		}
	}
	return false
}

// runsCommand reports whether a code block or a lead-in's block has a line
// that runs one of commands: "$ pg_restore -l db.dump", "pg_restore -C …".
func runsCommand(text string, commands []string) bool {
	runs := func(s string) bool {
		f := strings.Fields(s)
		return len(f) > 1 && slices.Contains(commands, strings.ToLower(f[0]))
	}
	for _, line := range strings.Split(text, "\n") {
		if runs(strings.TrimLeft(strings.TrimSpace(line), "$#>% ")) {
			return true
		}
		// A shell prompt inside a line ("… the dump: $ dropdb mydb $
		// pg_restore -C -d postgres db.dump", an example run into prose).
		for rest := line; ; {
			i := strings.Index(rest, "$ ")
			if i < 0 {
				break
			}
			rest = rest[i+2:]
			if runs(rest) {
				return true
			}
		}
	}
	return false
}

// usageLine reports whether a sentence is a command's usage, as a
// manual's synopsis writes it ("pg_resetwal [-f | --force] [option...]"):
// it says how to call, not what the command does.
func usageLine(s string) bool {
	return strings.Count(s, "[") >= 2 && (strings.Contains(s, "|") || strings.Contains(s, "..."))
}

// stanzaFileWords finds the words of a question that may name a file:
// letters and digits, with the dots, dashes and pluses of "select-zorp",
// "frob.conf", "zorp++".
var stanzaFileWords = regexp.MustCompile(`[a-z0-9][a-z0-9._+-]*[a-z0-9+]`)

// symbolNamed reports whether a prose chunk's symbol (the work a Debian
// copyright file's header names: "GNU Gzip") is named by one of the
// question's name words ("gzip").
func symbolNamed(symbol string, named []string) bool {
	if symbol == "" {
		return false
	}
	words := nameWords(symbol)
	return slices.ContainsFunc(named, func(w string) bool { return slices.Contains(words, w) })
}

// identifier finds the identifiers of code.
var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// identWordSet is the loose stems of the words code's identifiers are
// written with (text.IdentWords): "defaultBufSize" gives default, buf,
// size.
func identWordSet(code string) map[string]bool {
	out := map[string]bool{}
	for _, id := range identifier.FindAllString(code, -1) {
		for _, w := range text.IdentWords(id) {
			out[looseStem(strings.ToLower(w))] = true
		}
	}
	return out
}

// crossReferences reports whether a section heading heads a manual's list
// of related pages.
func crossReferences(heading string) bool {
	return strings.EqualFold(strings.TrimSpace(heading), "SEE ALSO")
}

// relatedAsked finds a question that asks for related pages or commands:
// "what else should I read", "which commands are related to frobctl".
var relatedAsked = regexp.MustCompile(`(?i)\b(see also|related|similar|other (commands?|pages?|manuals?|tools?)|read (next|more))\b`)
