package nodes

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// versionPattern finds version numbers ("2.23.0", "1.6-2.1+deb12u1"),
// optionPattern command-line options ("--max-rate"), backslashCommand a
// command written after a backslash, as an interactive shell's
// meta-commands and a typesetter's macros are ("\zset", "\frobnote"; two
// letters at least: "\n" and "\t" are escapes) and settingPattern a
// setting written with its value ("sslmode=verify-full", "compression=zstd").
var (
	versionPattern   = regexp.MustCompile(`\b\d+(?:\.\d+)+(?:[-+~][\w.+~-]*\w)?`)
	optionPattern    = regexp.MustCompile(`(?:^|\s)(--?[a-z][\w-]*[a-z0-9])`)
	backslashCommand = regexp.MustCompile(`(?:^|[\s"'\x60(])(\\[a-z][A-Za-z0-9_+]+)\b`)
	settingPattern   = regexp.MustCompile(`(?:^|[\s"'\x60(])([A-Za-z][\w.]*=[\w.-]*\w)`)
)

// callLiteral finds a quoted literal passed to a call in a question's
// code: the "10.0.0.1" of net.ParseIP("10.0.0.1").
var callLiteral = regexp.MustCompile(`(\w\(\s*(?:[^()"'\x60]*,\s*)*)("[^"]*"|'[^']*'|\x60[^\x60]*\x60)`)

// withoutArguments blanks the quoted literals a question's code passes to
// a call: "why does len(net.ParseIP("10.0.0.1")) give 16" asks about
// ParseIP; the address is the asker's example, which no manual writes,
// not a name the answer must hold.
func withoutArguments(question string) string {
	return callLiteral.ReplaceAllStringFunc(question, func(m string) string {
		loc := callLiteral.FindStringSubmatchIndex(m)
		lit := m[loc[4]:loc[5]]
		return m[:loc[4]] + lit[:1] + strings.Repeat(" ", len(lit)-2) + lit[len(lit)-1:]
	})
}

// statementArguments are the asker's own names and values in a statement
// the question quotes, lower-cased: the lower-case identifier or quoted
// literal right after an upper-case keyword of a statement of two
// keywords or more ("my_vault" and "'/srv/v'" of "CREATE VAULT my_vault
// LOCATION '/srv/v'", "olduser" of "HAND OVER BY olduser"). A manual
// writes the statement with its placeholders, never the asker's values,
// so one of them that no passage holds says nothing of whether the files
// answer; one the passages hold ("page_size" of "ZAP SYSTEM SET
// page_size") is a name they document, and stays a constraint.
func statementArguments(question string) map[string]bool {
	args := map[string]bool{}
	keywords := 0 // keywords of the statement so far
	after := false
	for _, f := range strings.Fields(question) {
		w := strings.Trim(f, ",;:()?!")
		switch {
		case isKeyword(w):
			keywords++
			after = true
			continue
		case w == "..." || w == "…":
			continue // an elided part of the statement
		case after && keywords >= 2 && (isLowerIdent(w) || len(w) > 2 && w[0] == '\'' && w[len(w)-1] == '\''):
			args[strings.ToLower(strings.Trim(w, "'"))] = true
		default:
			keywords = 0
		}
		after = false
	}
	return args
}

// exampleMarker opens an example the asker gives of a kind of thing:
// "paths like …", "names such as …", "e.g. …".
var exampleMarker = regexp.MustCompile(`(?i)\b(?:like|such as|e\.g\.,?|for example,?|for instance,?)\s+`)

// examplesGiven are the examples the asker gives of what the question
// means, lower-cased: "/srv/zorp/frob" of "how do I refuse paths like
// /srv/zorp/frob?", "zorp | frob" of "will quill read a pipeline like "zorp |
// frob"". An example is a quoted phrase or one word. It is the asker's
// own, as a value in a quoted statement is (statementArguments): the
// files say what holds of every such path, and seldom write the one the
// asker thought of.
func examplesGiven(question string) []string {
	var out []string
	for _, loc := range exampleMarker.FindAllStringIndex(question, -1) {
		rest := question[loc[1]:]
		if rest == "" {
			continue
		}
		var ex string
		if q := rest[:1]; strings.ContainsAny(q, "\"'`") {
			if end := strings.Index(rest[1:], q); end >= 0 {
				ex = rest[1 : 1+end]
			}
		} else if f := strings.Fields(rest); len(f) > 0 {
			ex = strings.TrimRight(f[0], ",;:?!.)")
		}
		if ex = strings.TrimSpace(ex); ex != "" {
			out = append(out, strings.ToLower(ex))
		}
	}
	return out
}

// isKeyword reports whether w is written as a statement's keyword: two
// or more upper-case letters and nothing else ("CREATE", "BY").
func isKeyword(w string) bool {
	return lettersOnly(w, 'A', 'Z')
}

// lettersOnly reports whether w is two or more letters from lo to hi
// (ASCII) and nothing else.
func lettersOnly(w string, lo, hi rune) bool {
	if len(w) < 2 {
		return false
	}
	for _, r := range w {
		if r < lo || r > hi {
			return false
		}
	}
	return true
}

// isLowerIdent reports whether w is a lower-case identifier: letters,
// digits and underscores, a letter or underscore first.
func isLowerIdent(w string) bool {
	for i, r := range w {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return w != ""
}

// constrainingTerms are the exact names a question pins its answer to:
// identifiers and codes ("unique_violation", "E1045", "StatusTeapot" of
// "http.StatusTeapot"), versions ("2.23.0"), file names and command-line
// options. A passage that lacks one of them does not answer the question,
// however well the rest of it matches; one that has all of them is worth
// reading however weak its overall score. Lower-cased.
func constrainingTerms(question string) []string {
	var out []string
	add := func(s string) {
		s = strings.ToLower(strings.Trim(s, ".,:;!?'\"()`"))
		if len(s) < 2 || slices.Contains(out, s) {
			return
		}
		out = append(out, s)
	}
	for _, v := range versionPattern.FindAllString(question, -1) {
		add(v)
	}
	for _, f := range fileNamePattern.FindAllString(question, -1) {
		add(f)
	}
	for _, m := range optionPattern.FindAllStringSubmatch(question, -1) {
		add(m[1])
	}
	for _, m := range backslashCommand.FindAllStringSubmatch(question, -1) {
		add(m[1])
	}
	// A name glued to its release ("quux8.2", as Debian names a package
	// of one release of a language) is that package's name: another
	// package's 8.2 does not answer about it.
	for _, n := range versionedName.FindAllString(question, -1) {
		add(n)
	}
	// A setting with its value is asked about as written: a page that
	// lists the setting's other values does not say what this one does.
	// An option's value ("--format=custom") is not one: manuals write the
	// option with a placeholder and list its values apart.
	for _, m := range settingPattern.FindAllStringSubmatch(question, -1) {
		add(m[1])
	}
	// A dotted package name is asked about whole (see dottedPackages),
	// not by its last part.
	packages := dottedPackages(question)
	for _, q := range packages {
		add(q.key())
	}
	for name := range askedNames(question) {
		if !slices.ContainsFunc(packages, func(q qualifiedName) bool { return strings.ToLower(q.Name) == name }) {
			add(name)
		}
	}
	for _, q := range qualifiedNames(question) {
		add(q.key()) // matched by qualifiedName.heldBy
	}
	for _, id := range identifierPattern.FindAllString(question, -1) {
		if a, ok := pluralAcronym(id); ok {
			add(a)
			continue
		}
		if versionPattern.MatchString(id) && slices.ContainsFunc(out, func(s string) bool { return strings.Contains(s, strings.ToLower(id)) }) {
			continue // part of a version already there
		}
		add(id)
	}
	slices.Sort(out)
	return out
}

// pathPattern finds a relative path as questions write a Go package or a
// folder: lower-case words joined by "/" ("archive/tar", "net/http/pprof").
var pathPattern = regexp.MustCompile(`(?:^|[\s("'\x60])([a-z][\w.+-]*(?:/[a-z0-9][\w.+-]*)+)`)

// namedPaths are the relative paths a question names, lower-cased, without
// a trailing "/" or sentence punctuation.
func namedPaths(question string) []string {
	var out []string
	for _, m := range pathPattern.FindAllStringSubmatch(question, -1) {
		p := strings.ToLower(strings.TrimRight(m[1], "/.,:;!?"))
		if strings.Contains(p, "/") && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// underPath reports whether a file lies under the folder rel names, or is
// the file it names: src/archive/tar/reader.go is under archive/tar.
func underPath(file, rel string) bool {
	f := "/" + strings.ToLower(strings.ReplaceAll(file, "\\", "/"))
	return strings.Contains(f, "/"+rel+"/") || strings.HasSuffix(f, "/"+rel)
}

// constraintMatch says which constraining terms the hits hold: in their
// text, title or path.
type constraintMatch struct {
	Terms   []string
	Missing []string
	// Hits are the indexes of the hits holding every term, best first.
	Hits []int
	// Apart lists the question's anchors when each is in some hit but the
	// passages of the question's subject do not hold them all (see
	// anchors).
	Apart []string
	// Unmet are the proper names of Apart that no passage of the
	// subject holds.
	Unmet []string
}

// matchConstraints looks for the question's constraining terms in hits,
// and for its anchors together in one of them.
func matchConstraints(question string, hits []graphrag.Hit) constraintMatch {
	question = withoutArguments(question)
	// The examples the asker gives of what it means (see examplesGiven,
	// "paths like /srv/zorp/frob") are its own, not the files': they
	// constrain nothing.
	examples := examplesGiven(question)
	example := func(t string) bool {
		return slices.ContainsFunc(examples, func(e string) bool { return strings.Contains(e, t) })
	}
	m := constraintMatch{Terms: slices.DeleteFunc(constrainingTerms(question), example)}
	// A package or folder path the question names ("archive/tar",
	// "mime/multipart") is an exact name a hit under it meets. One no hit
	// lies under constrains nothing: it is as often prose ("read/write")
	// as a path, and whether the files hold it the search has not said.
	for _, p := range namedPaths(question) {
		if !slices.Contains(m.Terms, p) && slices.ContainsFunc(hits, func(h graphrag.Hit) bool { return underPath(h.Source.Path, p) }) {
			m.Terms = append(m.Terms, p)
		}
	}
	qualified := map[string]qualifiedName{}
	for _, q := range qualifiedNames(question) {
		qualified[q.key()] = q
	}
	packages := map[string]qualifiedName{}
	for _, q := range dottedPackages(question) {
		packages[q.key()] = q
	}
	// A statement's upper-case phrase ("FOR NO KEY UPDATE") beside an
	// exact name is one more thing that name's passages must hold: of the
	// passages that hold zorp_lock, the one about FOR NO KEY UPDATE. A
	// phrase alone only ends the search when no hit holds it (below):
	// ordering the hits by it puts any passage that writes the clause
	// ahead of the page about it.
	var phrases map[string]string
	keywords := keywordPhrases(question)
	if len(m.Terms) > 0 {
		for _, k := range keywords {
			if l := strings.ToLower(k); !slices.Contains(m.Terms, l) {
				if phrases == nil {
					phrases = map[string]string{}
				}
				phrases[l] = k
				m.Terms = append(m.Terms, l)
			}
		}
	}
	an := questionAnchors(question, hits)
	found := make([]bool, len(m.Terms))
	// named are the proper names held by the passages of the question's
	// subject (see anchors.ofSubject).
	named := map[string]bool{}
	for i, h := range hits {
		hay := newHaystack(h)
		all := true
		for j, t := range m.Terms {
			held := hay.holds(t)
			if k, ok := phrases[t]; ok {
				held = phraseHeldBy(k, h)
			} else if q, ok := qualified[t]; ok {
				held = q.heldBy(h)
			} else if q, ok := packages[t]; ok {
				held = held || q.heldBy(h)
			}
			if held {
				found[j] = true
			} else {
				all = false
			}
		}
		if all && len(m.Terms) > 0 {
			m.Hits = append(m.Hits, i)
		}
		if an.apply() && an.ofSubject(h, hay, all) {
			for _, n := range an.names {
				if hay.holdsName(n) || an.acronyms[n] && hay.spellsOut(n) {
					named[n] = true
				}
			}
		}
	}
	for j, t := range m.Terms {
		if !found[j] {
			m.Missing = append(m.Missing, t)
		}
	}
	// A name and its version ("jq 2.5", "git 2.23.0") must meet in one hit:
	// jq's README and Python's 2.5 licence line do not answer about jq 2.5,
	// nor does jq's NEWS where 2.5 is another library's version.
	for _, p := range versionedNames(question) {
		if !slices.ContainsFunc(hits, func(h graphrag.Hit) bool { return versionMeetsName(h, p[0], p[1]) }) {
			m.Missing = append(m.Missing, p[0]+" "+p[1])
		}
	}
	// A release asked about by its bare number ("Quill 9") must be
	// written after its name in one hit: a "19" anywhere is no release.
	for _, r := range releaseNames(question) {
		if !slices.ContainsFunc(hits, func(h graphrag.Hit) bool { return r.heldBy(h) }) {
			m.Missing = append(m.Missing, r.name+" "+r.number)
		}
	}
	// An upper-case phrase ("FOR NO KEY UPDATE") is a clause of a
	// statement: a hit with some of its words has another clause.
	for _, k := range keywords {
		if len(phrases) > 0 {
			break // among the terms, missing when no hit holds them
		}
		if !slices.ContainsFunc(hits, func(h graphrag.Hit) bool { return phraseHeldBy(k, h) }) {
			m.Missing = append(m.Missing, strings.ToLower(k))
		}
	}
	// A method or field named with its type ("zorp.Spool.Len", "the
	// Spool's Len method") is the type's: a hit that holds the type and
	// the word apart does not show it.
	for _, n := range memberNames(question) {
		if !slices.ContainsFunc(hits, n.heldBy) {
			m.Missing = append(m.Missing, n.key())
		}
	}
	// A proper name the question limits its answer to ("on Zephyrix"):
	// what the hits say of other systems does not answer for it.
	m.Missing = append(m.Missing, unscoped(question, hits)...)
	// The asker's own values in a statement the question quotes are
	// nowhere in the files by nature (see statementArguments).
	args := statementArguments(question)
	m.Missing = slices.DeleteFunc(m.Missing, func(t string) bool { return args[t] })
	m.Missing = slices.DeleteFunc(m.Missing, example)
	// So are the exact names only the asker's situation writes (see
	// askingPart): "Zorp 2.3 lets me frob twice now. What does Frob
	// return then?" is answered by Frob's doc, which need not say 2.3.
	if asking := askingPart(question); asking != question {
		asked := strings.ToLower(asking)
		m.Missing = slices.DeleteFunc(m.Missing, func(t string) bool { return !strings.Contains(asked, t) })
	}
	met := !slices.ContainsFunc(an.names, func(n string) bool { return !named[n] })
	if an.apply() && !met && len(m.Missing) == 0 {
		m.Apart = append(append(append([]string(nil), m.Terms...), an.named...), an.names...)
		for _, n := range an.names {
			if !named[n] {
				m.Unmet = append(m.Unmet, n)
			}
		}
	}
	return m
}

// haystack is where a hit is searched for a constraining term: its text,
// heading, symbol, title and path, lower-cased.
type haystack struct {
	text     string
	squashed string // text without hyphens, made when first needed
	path     string // the hit's file, whose name's words holdsName reads
	// words are text's runs of letters, made when spellsOut first needs
	// them: a question may write several acronyms.
	words []string
}

func newHaystack(h graphrag.Hit) *haystack {
	return &haystack{text: strings.ToLower(h.Chunk.Text + "\n" + h.Chunk.Heading + "\n" + h.Chunk.Symbol + "\n" + h.Source.Title + "\n" + h.Source.Path),
		path: h.Source.Path}
}

// holds reports whether the hit holds term (lower-cased). A hyphenated
// term is also found written without its hyphens: "SHA-256" and "SHA256",
// "e-mail" and "email" are the same name. A command-line option is not:
// its leading dashes are what make it an option ("--force" is not the word
// "force" of "by brute force"). A module name of "::"-joined parts is also
// found written with hyphens, as its distribution and package are named
// ("Zorp::Frob" is distributed as Zorp-Frob, packaged as libzorp-frob-perl).
func (hs *haystack) holds(term string) bool {
	if containsEnded(hs.text, term) || hs.librarysPackage(term) {
		return true
	}
	if strings.Contains(term, "::") && containsEnded(hs.text, strings.ReplaceAll(term, "::", "-")) {
		return true
	}
	if !strings.Contains(term, "-") || strings.HasPrefix(term, "-") {
		return false
	}
	if hs.squashed == "" {
		hs.squashed = strings.ReplaceAll(hs.text, "-", "")
	}
	return containsEnded(hs.squashed, strings.ReplaceAll(term, "-", ""))
}

// librarysPackage reports whether the hit's file is in the folder of the
// package Debian names after the library lib (lower-cased) and its
// soname's version (packagedAs: "libzorp6" or "libzorp-2.0-0" for
// libZorp). A library's copyright file seldom writes the library's name;
// its folder does.
func (hs *haystack) librarysPackage(lib string) bool {
	return strings.HasPrefix(lib, "lib") && len(lib) > len("lib") && inPackagedFolder(hs.path, lib)
}

// containsEnded reports whether text holds term where the term ends: a
// name is not held inside a longer one ("zorp_dump" in "zorp_dumpall",
// "NewFrob" in "NewFrobSize"). What comes before it may be anything: a
// version glued to its name ("libzorp5.3") or a path ("RelNotes/2.23.0")
// holds it.
func containsEnded(text, term string) bool {
	if term == "" {
		return false
	}
	last := term[len(term)-1]
	if !isNameByte(last) {
		return strings.Contains(text, term)
	}
	for at := 0; ; {
		i := strings.Index(text[at:], term)
		if i < 0 {
			return false
		}
		end := at + i + len(term)
		if end == len(text) || !isNameByte(text[end]) {
			return true
		}
		at += i + 1
	}
}

// isNameByte reports whether b may go on a name: a letter, a digit or
// "_" (ASCII: what a name's end is compared with).
func isNameByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// shortNameLen is the length from which a proper name is also held as the
// start of a longer word: a short form of the name ("Zorpgres" of
// ZorpgreSQL). Shorter names begin too many other words ("Java" of
// JavaScript, "Go" of Google). Set once, not tuned.
const shortNameLen = 6

// holdsName is holdsWord for a proper name of the question, which may be
// a short form of the name the hit writes (see shortNameLen), or a word
// of its file's name: a part of ZORP_TABLE.7 is of "ZORP TABLE" though
// it never writes it (as phraseHeldBy reads it).
func (hs *haystack) holdsName(n string) bool {
	return hs.holdsWord(n) || len(n) >= shortNameLen && startsWord(hs.text, n) ||
		hasWord(strings.ToLower(fileNameWords.Replace(path.Base(hs.path))), n)
}

// startsWord reports whether text holds w at the start of a word.
func startsWord(text, w string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		if at := i + j; at == 0 || !isIdentByte(text[at-1]) {
			return true
		}
		i += j + 1
	}
}

// The length of the acronyms a passage may spell out (acronymsIn), set by
// reasoning, not tuned: two letters ("OK", "IO") are spelled by chance by
// any two words in a row, and an abbreviation of more than five capitals
// is rarely one word per letter.
const (
	minAcronym = 3
	maxAcronym = 5
)

// acronymsIn returns the words text writes in capitals only
// (writtenInCapitals), without digits, minAcronym to maxAcronym letters
// long, lower-cased: "WAL" and "RLS", not "Go" or "AVX512". Nil when it
// writes none.
func acronymsIn(text string) map[string]bool {
	var out map[string]bool
	for _, t := range tokenize(text) {
		w := text[t.Start:t.End]
		if len(w) >= minAcronym && len(w) <= maxAcronym && !t.Digit && writtenInCapitals(w) {
			if out == nil {
				out = map[string]bool{}
			}
			out[t.Lower] = true
		}
	}
	return out
}

// spellsOut reports whether the hit spells out an acronym (lower-cased):
// it holds words in a row whose first letters are the acronym's, a
// hyphenated word counting as its parts. A manual says "write-ahead log"
// where the asker writes WAL, and "row-level security" for RLS.
func (hs *haystack) spellsOut(acronym string) bool {
	if hs.words == nil {
		hs.words = strings.FieldsFunc(hs.text, func(r rune) bool { return r < 'a' || r > 'z' })
	}
	words := hs.words
	for i := 0; i+len(acronym) <= len(words); i++ {
		spelled := true
		for j := range len(acronym) {
			if words[i+j][0] != acronym[j] {
				spelled = false
				break
			}
		}
		if spelled {
			return true
		}
	}
	return false
}

// holdsWord is holds for a word of a name: a whole word, so that "Go" is
// not found in "good".
func (hs *haystack) holdsWord(w string) bool {
	if hasWord(hs.text, w) || hs.librarysPackage(w) {
		return true
	}
	if !strings.Contains(w, "-") || strings.HasPrefix(w, "-") {
		return false
	}
	if hs.squashed == "" {
		hs.squashed = strings.ReplaceAll(hs.text, "-", "")
	}
	return hasWord(hs.squashed, strings.ReplaceAll(w, "-", ""))
}

// anchors are what pins a question to its subject's passages besides its
// constraining terms: the proper names it writes with a capital
// ("Python's" in "the value of http.StatusTeapot in Python's http module",
// "GPU" in "GPU acceleration in pgbench"), with the options it asks about
// when it names a file, and the words that name a file or folder of a hit
// ("pgbench" for pgbench.1.gz). When the question has proper names and
// something exact for them to qualify (a constraining term or a named
// file), the passages of that subject must hold them all (see ofSubject):
// the page of pgbench that never says GPU, beside a kernel changelog that
// does, does not answer about GPU acceleration in pgbench. Questions whose
// names stand alone ("Were Ada Lovelace and Charles Babbage born in the
// same city?") are not held to it: their answer may span two passages.
type anchors struct {
	names []string // proper names and the options of a named command, lower-cased
	named []string // words naming a hit's file or folder
	terms bool     // the question has constraining terms
	// acronyms are the names written in capitals only ("WAL", "FAQ"),
	// lower-cased: a passage that spells one out ("write-ahead log")
	// holds it (haystack.spellsOut).
	acronyms map[string]bool
}

func questionAnchors(question string, hits []graphrag.Hit) anchors {
	a := anchors{terms: hasExactName(question)}
	if _, _, choice := choiceOptions(question); choice {
		return a // "A or B": two passages by design
	}
	// A name in the phrase that says what kind of answer the question
	// wants ("which HTTP route does …") describes the answer, and the
	// passage that holds the answer writes it, not its kind.
	asking := askingPart(question)
	if names := properNames(asking); len(names) > 0 {
		kinds := askedKindWords(question, asking)
		for _, n := range names {
			if !kinds[n] {
				a.names = append(a.names, n)
			}
		}
	}
	var options []string
	for _, m := range optionPattern.FindAllStringSubmatch(question, -1) {
		if o := strings.ToLower(m[1]); !slices.Contains(options, o) {
			options = append(options, o)
		}
	}
	if len(a.names) == 0 && len(options) == 0 {
		return a
	}
	for _, w := range nameWords(question) {
		if slices.ContainsFunc(hits, func(h graphrag.Hit) bool { return pathNamed(h.Source.Path, map[string]bool{w: true}) }) {
			a.named = append(a.named, w)
		}
	}
	// A proper name that names a file is an anchor of its own, not a
	// qualifier: "Svalbard" and "Longyearbyen" over svalbard.md and
	// longyearbyen.md may be answered from the two.
	var qualifiers []string
	for _, n := range a.names {
		if !slices.Contains(a.named, n) {
			qualifiers = append(qualifiers, n)
		}
	}
	if len(a.named) > 0 {
		// An option of the command the question names is that command's:
		// frobidx's page, not frobvac's, says what frobidx's
		// --skip-locked does, if it has one.
		qualifiers = append(qualifiers, options...)
	}
	a.names = qualifiers
	if a.apply() {
		a.acronyms = acronymsIn(asking)
	}
	return a
}

// askingPart is the part of a question that asks: its sentences that end
// in a question mark, when others tell the asker's situation ("We run
// zorpd under Frobserve. How do I read its headers?"). The
// names of that situation (the asker's server, library or format) are the
// asker's, and the passage that answers need not write them; the names of
// what is asked are the document's. A question with no statement, or
// none with a question mark, asks in full.
func askingPart(question string) string {
	// An ellipsis stands for the elided part of a statement the question
	// quotes ("ALTER ZORP ... RENAME"): it ends no sentence.
	var sentences []string
	open := false
	for _, s := range splitSentences(question) {
		if open {
			sentences[len(sentences)-1] += " " + s
		} else {
			sentences = append(sentences, s)
		}
		open = strings.HasSuffix(s, "...") || strings.HasSuffix(s, "…")
	}
	var asks []string
	for _, s := range sentences {
		if strings.HasSuffix(strings.TrimRight(s, `"')`), "?") {
			asks = append(asks, s)
		}
	}
	if len(asks) == 0 || len(asks) == len(sentences) {
		return question
	}
	return strings.Join(asks, " ")
}

// hasExactName reports whether a question names something as code and
// software do: a package-qualified or snake_case identifier, a
// command-line option, a file name or a dotted version. Ordinals, long
// numbers and capitals inside a word, which constrainingTerms also keeps,
// are as often how prose writes names ("the 3rd Annual Book
// Fair", "Mary McCarthy", "Jean-Luc") and qualify nothing.
func hasExactName(question string) bool {
	return len(qualifiedNames(question)) > 0 || snakeCase.MatchString(question) || optionPattern.MatchString(question) ||
		fileNamePattern.MatchString(question) || versionPattern.MatchString(question)
}

// snakeCase is an identifier with an underscore between letters:
// "unique_violation", "pg_restore".
var snakeCase = regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b`)

// apply reports whether the question is held to its anchors.
func (a anchors) apply() bool { return len(a.names) > 0 && (a.terms || len(a.named) > 0) }

// ofSubject reports whether a hit is a passage of the question's subject:
// it lies in a file or folder a named word names (folderOf), or it holds
// every constraining term (all) and a named word, when there are any. A
// question may name its subject's file or folder by several words ("Go's
// DES package": go and des; "postgres … psql"), and in a large collection
// an everyday word names some folder too ("net", "file", "go"): the
// passage that answers lies under one of them and need not repeat the
// others.
//
// The proper names must be held by the subject's passages: pgbench's page
// never says GPU. Together, not each by one passage: a question names its
// subject by several names ("the machine type of a zorp header for Quill
// ARM64 objects") that its document writes in different passages (a
// constant's line says ARM64, the package doc Quill), and a package holds
// the identifiers a question names together ("ZorpReader" and
// "OpenZorp") in declarations of their own.
func (a anchors) ofSubject(h graphrag.Hit, hs *haystack, all bool) bool {
	if len(a.named) == 0 {
		return all
	}
	return slices.ContainsFunc(a.named, func(w string) bool {
		return pathNamed(h.Source.Path, map[string]bool{w: true}) || folderOf(h.Source.Path, w) || all && hs.holdsWord(w)
	})
}

// properNames are the words a question writes with a capital inside a
// sentence (see text.Token.Opens), lower-cased: "Python", "GPU",
// "SHA-256". Function words ("I", "The") are not names.
func properNames(question string) []string {
	var out []string
	// A name written with underscores is one name ("XDG_CONFIG_HOME"), not
	// its parts: a passage that says $XDG_CONFIG_HOME holds no word "xdg".
	snake := snakeCase.FindAllStringIndex(question, -1)
	inSnake := func(at int) bool {
		return slices.ContainsFunc(snake, func(loc []int) bool { return at >= loc[0] && at < loc[1] })
	}
	for _, loc := range snake {
		if w := question[loc[0]:loc[1]]; loc[0] > 0 && w != strings.ToLower(w) && !slices.Contains(out, strings.ToLower(w)) {
			out = append(out, strings.ToLower(w))
		}
	}
	for _, t := range tokenize(question) {
		if t.Opens || !t.Capital || stopWords[t.Lower] || nameGlue[t.Lower] || len(t.Lower) < 2 || slices.Contains(out, t.Lower) || inSnake(t.Start) {
			continue
		}
		w := t.Lower
		if acronymPlural.MatchString(question[t.Start:t.End]) {
			// "CPUs", "MACs": the plural of CPU, which the passage
			// about them may write in the singular.
			w = strings.TrimSuffix(w, "s")
			if slices.Contains(out, w) {
				continue
			}
		}
		out = append(out, w)
	}
	return out
}

// acronymPlural finds an acronym written in the plural: capitals (and
// digits), then a lower-case "s".
var acronymPlural = regexp.MustCompile(`^[A-Z][A-Z0-9]+s$`)

// nameWords are the question's words as files are named: split at spaces
// and punctuation but not at "_" or "-" ("pg_restore", "go_spec"),
// lower-cased, without a possessive "'s", stop words left out; and two to
// maxNameRun words side by side joined as file names join them ("VACUUM
// FULL" names vacuum-full.md and vacuum_full.md, "ALTER FROB TEXT MAP"
// ALTER_FROB_TEXT_MAP.7).
func nameWords(question string) []string {
	words, _ := nameWordsWeighted(question)
	return words
}

// fileKindWords are the words that name a file as a kind of thing, not as a
// name (see nameWordsWeighted).
var fileKindWords = toSet(`file files`)

// maxNameRun is the most words joined into one name: the longest names of
// SQL commands, which manual pages are named after, are four words long.
const maxNameRun = 4

// nameWordsWeighted is nameWords with how many words of the question each
// stands for: two for a joined pair ("vacuum-full"), as many as it joins
// for a longer run, one for a word as written ("gzip", "inv-2024-0117"). A
// file named by more of the question is the one it names.
//
// "File" a space after another word is the head of a compound that says
// what kind of file ("the copyright file", "a config file", "its header
// files"): it names no file or folder called "file" (Debian's file
// package, Go's os/file.go), as the word alone may ("what does file print
// for …") and as a part of a dotted name does ("os.File"). The pair
// ("copyright-file") is kept.
//
// Longer runs are of words written alike, all in capitals or none, and a
// function word written in capitals inside a run in capitals is part of
// it, as SQL writes its commands: "SYNC ZORP AS" names SYNC_ZORP_AS.7,
// where the pair "sync_zorp" names another page.
func nameWordsWeighted(question string) ([]string, map[string]int) {
	var out []string
	weight := map[string]int{}
	add := func(w string, n int) {
		if _, ok := weight[w]; !ok {
			out = append(out, w)
		}
		weight[w] = max(weight[w], n)
	}
	// joinRun adds the run's last three to maxNameRun words, joined.
	joinRun := func(run []string) {
		for n := 3; n <= min(maxNameRun, len(run)); n++ {
			add(strings.Join(run[len(run)-n:], "_"), n)
			add(strings.Join(run[len(run)-n:], "-"), n)
		}
	}
	prev := "" // the word before, for a pair
	var run []string
	runCaps := false // whether the run's words are written in capitals
	end := 0         // where the word before ends in question
	for raw := range strings.FieldsFuncSeq(question, func(r rune) bool {
		return !(r == '_' || r == '-' || r == '\'' || r == '’' || unicode.IsLetter(r) || unicode.IsDigit(r))
	}) {
		// The word is the first run of its letters after the one before:
		// what parts them holds none.
		start := end + strings.Index(question[end:], raw)
		spaced := strings.TrimSpace(question[end:start]) == ""
		end = start + len(raw)
		f := strings.Trim(text.TrimPossessive(strings.ToLower(raw)), "-'’")
		caps := writtenInCapitals(raw)
		switch {
		case len(f) >= 2 && stopWords[f] && caps && runCaps && len(run) > 0:
			run = append(run, f) // the "AS" of "SYNC ZORP AS"
			joinRun(run)
			prev = ""
			continue
		case len(f) < 2 || stopWords[f]:
			prev, run, runCaps = "", nil, false
			continue
		}
		if prev == "" || !spaced || !fileKindWords[f] {
			add(f, 1)
		}
		if prev != "" {
			add(prev+"-"+f, 2)
			add(prev+"_"+f, 2)
		}
		if caps != runCaps {
			run = nil
		}
		run = append(run, f)
		joinRun(run)
		prev, runCaps = f, caps
	}
	return out, weight
}

// writtenInCapitals reports whether a word of two letters or more is
// written in capitals only: "TABLE", "AS".
func writtenInCapitals(w string) bool {
	return len(w) > 1 && strings.ToUpper(w) == w && strings.ToLower(w) != w
}

// versionedNamePattern finds a name followed by a version: "git 2.23.0",
// "bash 5.2.15-2".
var versionedNamePattern = regexp.MustCompile(`(?i)\b([a-z][\w+-]*)\s+v?(\d+(?:\.\d+)+(?:[-+~][\w.+~-]*\w)?)`)

// revisedNamePattern finds a name followed by an undotted version with a
// Debian revision: "zorp-parent 40-1", "frob 7-2+deb12u1". The revision is
// short: "quill 1996-1998" is a span of years, and "2006-01-02" a date,
// not a revision.
var revisedNamePattern = regexp.MustCompile(`(?i)\b([a-z][\w+-]*)\s+(\d+-\d{1,2}(?:\+[\w.~]*\w)?)(?:[^\w.-]|$)`)

// versionedNames returns the question's (name, version) pairs, lower-cased.
func versionedNames(question string) [][2]string {
	var out [][2]string
	for _, re := range []*regexp.Regexp{versionedNamePattern, revisedNamePattern} {
		for _, m := range re.FindAllStringSubmatch(question, -1) {
			name := strings.ToLower(m[1])
			if stopWords[name] || generalWords[name] {
				continue
			}
			out = append(out, [2]string{name, strings.ToLower(m[2])})
		}
	}
	return out
}

// releasePattern finds a name written with a capital followed by a bare
// release number, where a release is asked about: after "in", "since",
// "before", "after", "until", "from" or "on" ("new in Quill 9",
// "on Debian 12"). Elsewhere such a number is as often a code or a count
// ("what does HTTP 418 mean", "ISO 8601"). A dotted version after a name is
// versionedNamePattern's.
var releasePattern = regexp.MustCompile(`(?i:\b(?:in|since|before|after|until|from|on)\s+)([A-Z][\w+-]*)\s+v?(\d+)\b`)

// releaseName is a product and the bare release number the question
// writes after it, lower-cased.
type releaseName struct {
	name, number string
	written      *regexp.Regexp // the name, then the number as a release
}

// releaseNames returns the question's products with a bare release
// number. A function word is no name, and a number that goes on with a dot and a
// digit is a dotted version.
func releaseNames(question string) []releaseName {
	var out []releaseName
	for _, loc := range releasePattern.FindAllStringSubmatchIndex(question, -1) {
		name, number := strings.ToLower(question[loc[2]:loc[3]]), question[loc[4]:loc[5]]
		rest := question[loc[5]:]
		if stopWords[name] || nameGlue[name] || generalWords[name] || len(rest) > 1 && rest[0] == '.' && unicode.IsDigit(rune(rest[1])) {
			continue
		}
		// "Quill 9", "Quill version 9", "Quill 9.2",
		// "HTTP/2": the number right after the name, not "19" of "2019".
		written := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(name) + `(?:\s+version)?[\s/-]+v?` + number + `\b`)
		out = append(out, releaseName{name: name, number: number, written: written})
	}
	return out
}

// heldBy reports whether a hit writes the release after its name, or is
// filed under it (pathRelease).
func (r releaseName) heldBy(h graphrag.Hit) bool {
	return r.written.MatchString(h.Chunk.Text+"\n"+h.Chunk.Heading+"\n"+h.Source.Title) || pathRelease(h.Source.Path, r.name, r.number)
}

// pathRelease reports whether a path files its document under a
// product's release: a folder named after the product, then one named by
// the number ("/usr/share/postgresql/15/man/…" for "PostgreSQL 15"), or
// one folder naming both ("postgresql-15", "python3"). What is installed
// for a release is the release's, though its pages never name it.
func pathRelease(p, name, number string) bool {
	parts := pathParts(p)
	for i, part := range parts {
		if part == name && i+1 < len(parts) && parts[i+1] == number {
			return true
		}
		if rest, ok := strings.CutPrefix(part, name); ok && (rest == number || rest == "-"+number || rest == "_"+number) {
			return true
		}
	}
	return false
}

// gradeByConstraints corrects a grading by the question's constraining
// terms: when a term is in none of the hits (or a name and the version
// after it are in no one hit), nothing found answers the question (empty);
// when every term is in one hit, retrieval is good whatever the overall
// score. Questions without constraining terms keep their grading. Either
// way the kept hits are reordered by preferHits. It returns the note for
// the trace, "" when the grading did not change.
func gradeByConstraints(question string, hits, kept []graphrag.Hit, r string, maxKept int) ([]graphrag.Hit, string, string) {
	m := matchConstraints(question, hits)
	switch {
	case len(hits) == 0:
		return kept, r, ""
	case len(m.Missing) > 0:
		if r == RetrievalEmpty {
			return kept, r, ""
		}
		return nil, RetrievalEmpty, "no hit holds " + strings.Join(m.Missing, ", ")
	case len(m.Apart) > 0:
		if r == RetrievalEmpty {
			return kept, r, ""
		}
		var subject []string
		for _, t := range m.Apart {
			if !slices.Contains(m.Unmet, t) && !slices.Contains(subject, t) {
				subject = append(subject, t)
			}
		}
		return nil, RetrievalEmpty, "the passages of " + strings.Join(subject, ", ") + " do not hold " + strings.Join(m.Unmet, ", ")
	case len(m.Terms) == 0 || len(m.Hits) == 0:
		if r != RetrievalGood {
			if named := namedHits(question, hits); len(named) > 0 {
				return preferHits(question, hits, kept, named, maxKept), RetrievalGood, "the file the question names holds its words"
			}
		}
		return preferHits(question, hits, kept, nil, maxKept), r, ""
	}
	note := ""
	if r != RetrievalGood {
		note = "hits hold every one of " + strings.Join(m.Terms, ", ")
	}
	return preferHits(question, hits, kept, m.Hits, maxKept), RetrievalGood, note
}

// namedHits are the indexes of the hits whose file or folder the question
// names ("jq" for jq/copyright) and that hold every other question word any
// of the first evidenceHits hits holds ("license"): a weak overall score does not make them wrong
// when the question's remaining words ("distributed") are in no hit at all.
func namedHits(question string, hits []graphrag.Hit) []int {
	words := questionNameWords(question)
	stems := make([]map[string]bool, len(hits))
	somewhere := map[string]bool{}
	for i, h := range hits {
		stems[i] = stemSet(h.Source.Title + " " + h.Chunk.Heading + " " + h.Chunk.Text)
		if i >= evidenceHits {
			continue // the words evidence looks for in the first hits only
		}
		for k := range stems[i] {
			somewhere[k] = true
		}
	}
	// The words naming the kind of answer wanted ("which HTTP route") are
	// not the passage's to hold: it holds the answer. One it does hold
	// ("License:" for "what license …") counts as held.
	kinds := answerKindWords(question)
	var out []int
	for i, h := range hits {
		if !pathNamed(h.Source.Path, words) {
			continue
		}
		held, other := 0, 0
		for _, t := range contentTerms(question) {
			if pathNamed(h.Source.Path, map[string]bool{t.Word: true}) || !somewhere[t.Stem] || kinds[t.Word] && !stems[i][t.Stem] {
				continue
			}
			other++
			if stems[i][t.Stem] {
				held++
			}
		}
		if other > 0 && held == other {
			out = append(out, i)
		}
	}
	return out
}

// preferHits orders the hits worth reading: first those that declare a name
// the question asks about ("func WithCancel" for "where is WithCancel
// defined"), or are about it as a whole when that is what it asks, after
// those the question spells out in words (spelledOut: what it asks about,
// where a name it writes is its context), then those holding every
// constraining term (the indexes in matching), then those whose file or
// folder the question names ("dpkg" for dpkg/copyright), then the kept
// ones; tests, test data and vendored copies of other hits after the
// rest (setAside) unless the question is about tests. For a question
// limited to one system Go builds for, its own files come first
// (forAskedSystem). At most maxKept, and besides the search's best hit
// when the order leaves it out, and the best of those holding every
// constraining term when declarations alone fill maxKept.
func preferHits(question string, hits, kept []graphrag.Hit, matching []int, maxKept int) []graphrag.Hit {
	idents := askedIdents(question)
	words := questionNameWords(question)
	options := optionPattern.FindAllStringSubmatch(question, -1)
	overview, nameWords := asksOverview(question), nameWords(question)
	newestAsked := asksNewestRelease(question)
	var qLoose map[string]bool // the question's words, read when an identifier first needs them
	questionLoose := func() map[string]bool {
		if qLoose == nil {
			qLoose = looseSet(question)
		}
		return qLoose
	}
	var spelled, first, named []graphrag.Hit
	for _, h := range hits {
		declares := isCodeHit(h) && slices.ContainsFunc(idents, func(a askedIdent) bool { return a.symbolOf(h) || a.declaredIn(h.Chunk.Text, h) })
		defines := !isCodeHit(h) && slices.ContainsFunc(options, func(o []string) bool { return definesOption(h.Chunk.Text, o[1]) })
		// "what is pg_rewind for": the passage about pg_rewind as a whole
		// (its Symbol names it, see symbolNamed).
		about := overview && !isCodeHit(h) && symbolNamed(h.Chunk.Symbol, nameWords)
		// "which zorpd version is installed", "who maintains the zorpd
		// package": the newest release of zorpd's changelog, which
		// retrieve read (withNewestRelease).
		newest := newestAsked && releaseNaming(question, h) != namesNone
		// Or a declaration the question spells out in words ("the max
		// frob size": MaxZorpFrobSize), not by its name.
		if isCodeHit(h) && spelledOut(lastPart(h.Chunk.Symbol), questionLoose) {
			spelled = append(spelled, h)
		} else if declares || defines || about || newest {
			first = append(first, h)
		}
	}
	// The hits that hold every exact name, those that hold more of the
	// question's other words first (see holdsOtherWords).
	var exact []graphrag.Hit
	for _, i := range matching {
		exact = append(exact, hits[i])
	}
	byOtherWords := holdsOtherWords(question, exact)
	for _, h := range exact {
		if recordHit(question, h) {
			// The record of its authors or licence, for a question
			// for them: it holds what the question asks, if none of
			// its words.
			byOtherWords[h.Chunk.ID]++
		}
	}
	slices.SortStableFunc(exact, func(a, b graphrag.Hit) int { return byOtherWords[b.Chunk.ID] - byOtherWords[a.Chunk.ID] })
	declaring := len(spelled) + len(first)
	first = append(first, exact...)
	// Named hits, the most named first: gzip/copyright is named by "gzip"
	// and "copyright" in "who holds the copyright on gzip", another
	// package's copyright file by "copyright" only.
	namings := map[string]int{}
	_, weights := nameWordsWeighted(question)
	for _, h := range hits {
		for w := range words {
			// A word naming the folder the hit is installed under names
			// the product all its pages are of ("postgres" of
			// /usr/share/postgresql/15/), not this page: postgres.1.gz is
			// not what "list all open cursors in postgres" asks for.
			if pathNamed(h.Source.Path, map[string]bool{w: true}) && !folderOf(h.Source.Path, w) {
				namings[h.Chunk.ID] += max(1, weights[w])
			}
		}
		if namings[h.Chunk.ID] > 0 && recordHit(question, h) {
			// The named thing's record of authorship or licence (a
			// file, or a manual page's AUTHOR section), for a question
			// for its author or its licence: named as much by what the
			// question asks as by its words.
			namings[h.Chunk.ID]++
		}
		if namings[h.Chunk.ID] > 0 {
			named = append(named, h)
		}
	}
	holds := holdsOtherWords(question, hits)
	slices.SortStableFunc(named, func(a, b graphrag.Hit) int {
		if d := namings[b.Chunk.ID] - namings[a.Chunk.ID]; d != 0 {
			return d
		}
		return holds[b.Chunk.ID] - holds[a.Chunk.ID]
	})
	tests := strings.Contains(strings.ToLower(question), "test")
	var order []graphrag.Hit
	order = append(order, spelled...)
	order = append(order, first...)
	order = append(order, named...)
	order = append(order, kept...)
	order = forAskedSystem(question, order)
	var out, later []graphrag.Hit
	seen := map[string]bool{}
	for _, h := range order {
		if seen[h.Chunk.ID] {
			continue
		}
		seen[h.Chunk.ID] = true
		if !tests && setAside(h.Source.Path, hits) {
			later = append(later, h)
			continue
		}
		out = append(out, h)
	}
	out = append(out, later...)
	out = out[:min(len(out), maxKept)]
	if declaring >= maxKept {
		// The declarations alone fill the passages read: the best
		// passage that holds every exact name the question writes is
		// read besides, past maxKept (a file header naming the commit
		// an older ServeMux came from, next to the type's long doc).
		for _, h := range exact {
			if !slices.ContainsFunc(out, func(o graphrag.Hit) bool { return o.Chunk.ID == h.Chunk.ID }) && (tests || !setAside(h.Source.Path, hits)) {
				out = append(out, h)
				break
			}
		}
	}
	if len(hits) > 0 {
		if best := hits[0]; !slices.ContainsFunc(out, func(h graphrag.Hit) bool { return h.Chunk.ID == best.Chunk.ID }) && (tests || !setAside(best.Source.Path, hits)) {
			// The search's best passage is read besides, past maxKept: the
			// order above ranks the passages of one named page by how many
			// of the question's words each holds, and the search, which
			// weighs each word by how rare it is, may rank first one that
			// holds fewer ("quilld listens on 7101" over the options that
			// say "run", "start" and "systemd" for "which port does quilld
			// use when I start it from systemd").
			out = append(out, best)
		}
	}
	return withContinuations(out, hits, maxKept)
}

// withContinuations adds, after each kept passage, the next passage of
// the same document when the search found it too and there is room: a
// section the chunker cut in two goes on in it ("Both of these are
// bugs in the caller …" after the entry that quotes the two messages).
func withContinuations(kept, hits []graphrag.Hit, maxKept int) []graphrag.Hit {
	if len(kept) >= maxKept {
		return kept
	}
	in := map[string]bool{}
	for _, h := range kept {
		in[h.Chunk.ID] = true
	}
	out := make([]graphrag.Hit, 0, maxKept)
	for _, h := range kept {
		out = append(out, h)
		if len(in) == maxKept {
			continue
		}
		for _, n := range hits {
			if !in[n.Chunk.ID] && h.Chunk.DocID != "" && n.Chunk.DocID == h.Chunk.DocID && n.Chunk.Ordinal == h.Chunk.Ordinal+1 {
				in[n.Chunk.ID] = true
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// holdsOtherWords counts, for each hit, the question's words it holds
// besides those that name its file, as the answer matches them (loosely:
// "modes" is "mode", which the store's words do not see): among the chunks
// of one manual page, which every one holds the name of, the option "-m
// mode … Specifies the shutdown mode" holds "shutdown modes".
func holdsOtherWords(question string, hits []graphrag.Hit) map[string]int {
	terms := contentTerms(question)
	names := nameWords(question)
	out := make(map[string]int, len(hits))
	for _, h := range hits {
		naming := map[string]bool{} // the stems of the words naming h's file: "pg" and "ctl" of pg_ctl
		for _, w := range names {
			if pathNamed(h.Source.Path, map[string]bool{w: true}) {
				for k := range looseSet(w) {
					naming[k] = true
				}
			}
		}
		have := looseSet(h.Chunk.Heading + "\n" + h.Chunk.Text)
		for _, t := range terms {
			if st := looseStem(t.Word); !naming[st] && have[st] {
				out[h.Chunk.ID]++
			}
		}
	}
	return out
}

// questionNameWords are the words of a question that may name a file or
// folder: its words, and its words as files are named ("pg_restore").
func questionNameWords(question string) map[string]bool {
	words := map[string]bool{}
	for _, t := range tokenize(question) {
		if !stopWords[t.Lower] && len(t.Lower) > 1 {
			words[t.Lower] = true
		}
	}
	for _, w := range nameWords(question) {
		words[w] = true
	}
	return words
}

// definesOption reports whether a passage has the paragraph that defines
// a command-line option, as a manual does: a line opening with it
// ("--link use hard links instead of copying files").
func definesOption(text, opt string) bool {
	for rest := text; ; {
		i := strings.Index(rest, opt)
		if i < 0 {
			return false
		}
		lineStart := strings.LastIndexByte(rest[:i], '\n') + 1
		end := i + len(opt)
		if strings.TrimSpace(rest[lineStart:i]) == "" && (end == len(rest) || !isIdentByte(rest[end]) && rest[end] != '-') {
			return true
		}
		rest = rest[end:]
	}
}

// pathNamed reports whether a folder or the base name of path (without
// its extension, or up to its first dot) is one of words.
func pathNamed(p string, words map[string]bool) bool {
	if p == "" || len(words) == 0 {
		return false
	}
	parts := namingParts(p)
	for i, part := range parts {
		if words[part] {
			return true
		}
		if i == len(parts)-1 {
			// "status.go", "pg_restore.1.gz", "changelog.Debian.gz"
			stem, _, _ := strings.Cut(part, ".")
			if words[strings.TrimSuffix(part, path.Ext(part))] || words[stem] {
				return true
			}
		}
	}
	return false
}

// folderOf reports whether a folder of path is named by w and a short
// suffix: a product's short name and its installed folder ("postgres" of
// /usr/share/postgresql/15/…, "python" of /usr/lib/python3/…). A word of
// fewer than five letters is too short to tell; a folder named by the word
// alone is pathNamed's.
func folderOf(p, w string) bool {
	return len(w) >= 5 && folderIn(namingParts(p), w)
}

// folderIn is folderOf over a path's namingParts, for a caller that asks
// about several words of one path.
func folderIn(parts []string, w string) bool {
	if len(w) < 5 {
		return false
	}
	for _, part := range parts[:max(0, len(parts)-1)] {
		if rest, ok := strings.CutPrefix(part, w); ok && len(rest) >= 1 && len(rest) <= 2 {
			return true
		}
	}
	return false
}

// packagePrefixes are what a distribution writes before the software a
// package holds: "lib" for a library ("libzorp2"), "python3-"
// for a Python module ("python3-zorp"), or nothing.
var packagePrefixes = []string{"", "lib", "python3-"}

// packagedAs reports whether folder is named as a distribution names a
// package of the software w: w after one of packagePrefixes, and after
// that nothing (the prefix alone: "python3-zorp") or a version that
// starts with a digit, as a library's soname is ("libzorp2",
// "libzorp-1.0-0", "zorp3.1"). A folder named w alone is pathNamed's.
func packagedAs(folder, w string) bool {
	for _, prefix := range packagePrefixes {
		rest, ok := strings.CutPrefix(folder, prefix+w)
		if !ok || rest == "" && prefix == "" {
			continue
		}
		if rest == "" {
			return true
		}
		rest = strings.TrimLeft(rest, "-.")
		if rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return true
		}
	}
	return false
}

// inPackagedFolder reports whether a folder of path is named as a
// distribution packages the software w (packagedAs).
func inPackagedFolder(path, w string) bool {
	parts := namingParts(path)
	return slices.ContainsFunc(parts[:max(0, len(parts)-1)], func(f string) bool { return packagedAs(f, w) })
}

// namingParts are the parts of path that may name what a file is about:
// pathParts without the system folders it opens with (hierarchyDirs).
// "/usr/local/zorp/src/frob.go" is about zorp and frob, not about "local"
// ("a local resolver") or "share" ("share a session"): every file
// installed there lies under them.
func namingParts(p string) []string {
	parts := pathParts(p)
	i := 0
	for i < len(parts)-1 && (parts[i] == "" || hierarchyDirs[parts[i]]) {
		i++
	}
	return parts[i:]
}

// hierarchyDirs are the folders of the Filesystem Hierarchy Standard
// that programs and their documents are installed under.
var hierarchyDirs = toSet(`usr local share lib lib64 libexec bin sbin etc opt var srv doc man include`)

// pathParts are the folders and the file name of path, lower-cased, split
// at "/" or "\\".
func pathParts(p string) []string {
	return strings.Split(strings.ToLower(strings.ReplaceAll(p, "\\", "/")), "/")
}

func lastPart(symbol string) string {
	if i := strings.LastIndex(symbol, "."); i >= 0 {
		return symbol[i+1:]
	}
	return symbol
}

// spelledOut reports whether a question (questionLoose gives its words
// under looseStem, read once for all the hits) writes an identifier of
// three words or more out as words, all of them but one: "the max frob
// size" for MaxZorpFrobSize.
func spelledOut(ident string, questionLoose func() map[string]bool) bool {
	words := text.IdentWords(ident)
	if len(words) < 3 {
		return false
	}
	q := questionLoose()
	missing := 0
	for _, w := range words {
		if !q[looseStem(strings.ToLower(w))] {
			missing++
		}
	}
	return missing <= 1
}

// dottedName is a lower-case name of two parts or more joined by dots
// ("frob.io", "python3-zorp.uri"): the parts before the last, and the last.
var dottedName = regexp.MustCompile(`^([a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*)*)\.([a-z][a-z0-9]+)$`)

// dottedPackages are the dotted names a question writes as a package's
// or a program's, before a kind of software or of document ("the frob.io
// package", "the frob.io changelog") or after one ("the README.Debian of
// frob.io"): such a name is asked about whole,
// and its last part alone ("io") is any word of any file. A dotted name
// elsewhere keeps its last part as the name askedNames gives: Go's and
// Python's qualified names ("runtime.gopark", "os.path.join") name
// what their own files write unqualified. Each is matched as written, or
// as qualifiedName.heldBy finds a package's name.
func dottedPackages(question string) []qualifiedName {
	if !innerDot(question) {
		return nil
	}
	var out []qualifiedName
	fields := strings.FieldsFunc(withoutArguments(question), func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("()\"'\x60,;?!", r)
	})
	for i := 0; i < len(fields); i++ {
		next := ""
		if i+1 < len(fields) {
			next = strings.ToLower(strings.Trim(fields[i+1], ".:"))
		}
		// Or after one: "the README.Debian of frob.io".
		after := false
		if i >= 2 && strings.EqualFold(fields[i-1], "of") {
			prev := strings.ToLower(strings.Trim(fields[i-2], ".:"))
			after = namedKinds[prev] || docKinds[docKind(prev)]
		}
		if !namedKinds[next] && !docKinds[next] && !after {
			continue
		}
		f := text.TrimPossessive(strings.TrimRight(fields[i], ".:"))
		m := dottedName.FindStringSubmatch(f)
		if m == nil || fileNamePattern.MatchString(f) {
			continue
		}
		out = append(out, qualifiedName{Pkg: m[1], Name: m[2]})
	}
	return out
}

// innerDot reports whether s may hold a dottedName: a dot between a
// lower-case letter or digit and a lower-case letter ("frob.io"), not only
// a sentence's end or a Go name ("strings.NewReader").
func innerDot(s string) bool {
	for i := 1; i+1 < len(s); i++ {
		if s[i] == '.' && (s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= '0' && s[i-1] <= '9') && s[i+1] >= 'a' && s[i+1] <= 'z' {
			return true
		}
	}
	return false
}

// versionedName finds a name with a dotted release glued to it: "quux8.2",
// "gstreamer1.0".
var versionedName = regexp.MustCompile(`\b[A-Za-z][A-Za-z-]*[A-Za-z]\d+(?:\.\d+)+\b`)
