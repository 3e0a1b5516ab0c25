package nodes

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// absentWords returns the words (a question's specific terms that none of
// the best hits holds) that the store holds nowhere: a keyword search for
// the word alone, in its usual inflections ("storming": storm, storms,
// stormed, storming), finds no passage that has it, and none of the best
// hits holds a word one letter away (the question misspelling a name the
// passage holds: "Sheeshanks" for "Sheepshanks"). Such a word is what the
// question is about ("the default port of redis" over files that never
// say redis): no refinement and no passage can answer it. A word the store
// does hold somewhere ("defender" where the passage says "cornerback") is
// not absent: the search may have missed it, and refining may find it. A
// word the files hold only in passing is absent all the same: when the few
// passages that hold it hold none of the question's other words and none
// is about it (titled or named by it): "which licence covers fooserver"
// over files that name fooserver once, in a code comment about a bug,
// say nothing of what the question asks about it. When no word is absent
// so, a hyphenated one with a part no file holds is (unheldCompounds):
// the search finds it held through its other part. A failed search says
// nothing is absent.
func (p *pipeline) absentWords(ctx context.Context, s *State, words []string, best []graphrag.Hit) []string {
	nowhere, passing := p.unheldWords(ctx, s, words, best)
	if absent := append(nowhere, passing...); len(absent) > 0 {
		return absent
	}
	return p.unheldCompounds(ctx, s, words, nil)
}

// unheldWords is absentWords with the words no passage holds (nowhere)
// apart from those the files hold only in passing. When the question's
// other words match well, only the second are decisive: a word no passage
// spells as the question does is as often the question's own spelling or
// wording (a typo, "lorry" where the passage says "truck") as a
// thing the files do not cover, while a name the files do spell, in a few
// passages that say nothing of what is asked, is a thing they know of and
// do not cover.
func (p *pipeline) unheldWords(ctx context.Context, s *State, words []string, best []graphrag.Hit) (nowhere, passing []string) {
	if p.deps.Searcher == nil || !isLocal(s.Plan.Route) || len(words) == 0 {
		return nil, nil
	}
	probes := 0
	terms := contentTerms(s.question())
	paths := namedPaths(s.question())
	args := statementArguments(s.question())
	pkgs := packageNames(s.question())
	for _, w := range words {
		if strings.Contains(w, ".") || stopWords[w] || probes == maxAbsenceProbes || pathPart(w, paths) || args[w] {
			// A qualified name and a package path ("container/list") are
			// constraints (see matchConstraints), and a path's words are in
			// file names the keyword search does not read; a function word
			// written with a capital ("… at that point. Which one …") names
			// nothing; the asker's own values in a statement it quotes
			// are in no file (statementArguments).
			continue
		}
		if nearMiss(w, best) {
			continue
		}
		probes++
		forms := inflections(w)
		compound := compoundName(s.question(), w)
		res, err := p.deps.Searcher.Search(ctx, graphrag.Query{Text: strings.Join(forms, " "), Mode: graphrag.ModeKeyword, K: probeDepth(compound), Filters: p.filters(s.Plan)})
		if err != nil {
			s.note("evaluate: could not check whether the files hold %q: %v", w, err)
			return nil, nil
		}
		// More passages than passingMentions hold it: it is something the
		// files are about, whatever the first of them say. The keyword
		// search finds a compound name by its parts: only the passages
		// that hold it whole count ("zorp-server" is not held by the
		// manuals that say "server").
		pkg := slices.Contains(pkgs, w)
		// A package written as such ("Debian's zorpd package", "zorpd's
		// README") is held by its own files, whatever the number of
		// other passages that mention it: a folder of that name among
		// the hits (retrieve looks for one: withNamedFolders), or the
		// passages about it below.
		own := pkg && packageWritten(s.question(), w)
		held := !compound && !own && len(res.Hits) >= passingMentions ||
			own && slices.ContainsFunc(s.Hits, func(h graphrag.Hit) bool { return pathNamed(h.Source.Path, map[string]bool{w: true}) })
		whole := 0 // passages holding the word as written
		others := otherStems(terms, forms)
		for _, h := range res.Hits {
			text := hitText(h)
			has := holdsForm(text, forms)
			if has {
				whole++
			}
			if pkg {
				// A name written as a package's ("Debian's zorpd
				// package") is held by the package's own files, or by
				// passages about it: code that names zorpd beside the
				// word "security" says nothing of the package's fixes.
				held = held || has && (namesWord(h, forms) || pathNamed(h.Source.Path, map[string]bool{w: true}))
				continue
			}
			held = held || has && (len(others) == 0 || holdsAny(stemSet(text), others) || namesWord(h, forms))
		}
		held = held || !own && whole >= passingMentions
		mentioned := whole > 0
		switch {
		case held:
		case mentioned:
			passing = append(passing, w)
		default:
			nowhere = append(nowhere, w)
		}
	}
	return nowhere, passing
}

// passingMentions is how many passages absentWords reads for a word: a
// word the files hold in fewer, none of them with another word of the
// question, is named only in passing. Five is the number of best hits
// evaluate measures evidence on (evidenceHits): as many passages as a
// well-matched question is judged by.
const passingMentions = evidenceHits

// pathPart reports whether w is a part of one of the paths.
func pathPart(w string, paths []string) bool {
	return slices.ContainsFunc(paths, func(p string) bool { return slices.Contains(strings.Split(p, "/"), w) })
}

// passingWords are the question's specific words that the best hits hold
// only in passing: each hit that has the word has no other word of the
// question and is not about it (see namesWord): "fooserver" in a code
// comment about a bug in it, beside licence files that never name it.
// Like a word no best hit holds, such a word is checked against the whole
// store (see absentWords).
func passingWords(terms []term, best []graphrag.Hit) []string {
	var out []string
	stems := make([]map[string]bool, len(best))
	for i, h := range best {
		stems[i] = stemSet(h.Source.Title + " \n " + h.Chunk.Text)
	}
	for _, t := range terms {
		if !t.specific() || t.isNumber() {
			continue
		}
		others := otherStems(terms, []string{t.Word, t.Stem})
		holding, met := 0, false
		for i, st := range stems {
			if st[t.Stem] {
				holding++
				met = met || holdsAny(st, others) || namesWord(best[i], []string{t.Word})
			}
		}
		if holding > 0 && !met && len(others) > 0 {
			out = append(out, t.Word)
		}
	}
	return out
}

// namesWord reports whether a hit is about one of forms: its title,
// heading, symbol or file names it ("Ada Lovelace" for "lovelace"). Such a
// passage does not name the word in passing, whatever else it holds: it
// is the word's own passage, and a question about two things may find the
// other's words elsewhere.
func namesWord(h graphrag.Hit, forms []string) bool {
	head := strings.ToLower(h.Source.Title + " \n " + h.Chunk.Heading + " \n " + h.Chunk.Symbol)
	return slices.ContainsFunc(forms, func(f string) bool {
		return hasWord(head, f) || pathNamed(h.Source.Path, map[string]bool{f: true})
	})
}

// otherStems are the stems of the question's specific terms besides the
// word probed (any of its forms). An everyday word ("use", "open",
// "new") beside the word is no sign that a passage speaks of what is
// asked: a comment that names mysql once, by a table it opens, does not
// say how to open a connection to mysql.
func otherStems(terms []term, forms []string) []string {
	var out []string
	for _, t := range terms {
		if t.specific() && !slices.Contains(forms, t.Word) && !slices.Contains(forms, t.Stem) && !slices.Contains(out, t.Stem) {
			out = append(out, t.Stem)
		}
	}
	return out
}

// holdsAny reports whether stems has one of want.
func holdsAny(stems map[string]bool, want []string) bool {
	return slices.ContainsFunc(want, func(st string) bool { return stems[st] })
}

// compoundName reports whether w is a hyphenated name the question asks
// about ("the zorp-server package": see askedIn), not a number, date or
// CVE id (matchConstraints' concern). The keyword search splits it into
// its parts and finds passages that hold only one of them.
func compoundName(question, w string) bool {
	return strings.Contains(w, "-") && !strings.ContainsAny(w, "0123456789") && len(askedIn(question, []string{w})) > 0
}

// compoundProbeDepth is how many passages a probe for a compound name
// reads: those holding it whole rank among the many holding one of its
// parts ("server"), not always first.
const compoundProbeDepth = 10 * passingMentions

// probeDepth is how many passages a search for a word's forms reads.
func probeDepth(compound bool) int {
	if compound {
		return compoundProbeDepth
	}
	return passingMentions
}

// hitText is a hit's title and text, lower case, as the probes read it.
func hitText(h graphrag.Hit) string {
	return strings.ToLower(h.Source.Title + " \n " + h.Chunk.Text)
}

// maxAbsenceProbes bounds the searches absentWords makes for one
// question: a question has few specific words, and a long paste should
// not cost a search per word.
const maxAbsenceProbes = 3

// inflections are a word and its usual English forms, from its loose stem:
// "storming" gives storming, storm, storms, stormed, storme, stormes; a
// form that is no word matches nothing and costs nothing.
func inflections(w string) []string {
	out := []string{w}
	add := func(f string) {
		if len(f) > 1 {
			for _, o := range out {
				if o == f {
					return
				}
			}
			out = append(out, f)
		}
	}
	add(stem(w))
	base := looseStem(w)
	for _, suf := range []string{"", "s", "es", "e", "ed", "ing"} {
		add(base + suf)
	}
	return out
}

// minNearMiss is the shortest word checked for a misspelling: a short
// word one letter away from another is as often another word ("port",
// "post").
const minNearMiss = 5

// nearMiss reports whether a hit holds a word one edit away from w
// (a letter added, dropped, changed or two swapped).
func nearMiss(w string, hits []graphrag.Hit) bool {
	if len(w) < minNearMiss {
		return false
	}
	for _, h := range hits {
		for _, t := range tokenize(h.Chunk.Text) {
			if t.Lower != w && oneEdit(w, t.Lower) {
				return true
			}
		}
	}
	return false
}

// oneEdit reports whether a and b differ by one insertion, deletion,
// substitution or transposition of adjacent letters (bytes).
func oneEdit(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		if i == len(a) {
			return false
		}
		if a[i+1:] == b[i+1:] {
			return true
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return a[i:] == b[i+1:]
	}
	return false
}

// askedIn returns the words, of those no file holds, that the sentences
// that ask (askingPart: those with a question mark beside statements, or
// else the last) write as a name: with a capital inside the sentence,
// with a digit, as code ("which Kitty version does zorpterm need", "does
// zawk support frobsub()", "a zorp2ban rule"), before the kind of thing
// it names, or as a setting's name ("the frobcache setting", "the
// frobcache GODEBUG setting"). A plain word no file holds is as
// often the asker's own wording ("the scratch volume" of a manual's
// "temporary volume"), and one in a statement is the asker's context
// ("Flintlint says zorp.Old is deprecated. What do I use instead?"),
// which the files need not name.
func askedIn(question string, nowhere []string) []string {
	if len(nowhere) == 0 {
		return nil
	}
	last := askingPart(question)
	if sentences := splitSentences(last); len(sentences) > 1 && last == question {
		// No sentence asks with a question mark, or every one does: the
		// last one asks.
		last = sentences[len(sentences)-1]
	}
	names := map[string]bool{}
	toks := tokenize(last)
	for i, t := range toks {
		// Written as a name: with a capital inside the sentence, with a
		// digit, as code ("frobsub()", "`zorpfmt`"), or before the kind
		// of thing it names ("the zorpd package") or of document it has
		// ("the zorpd copyright file", "the zorpd changelog").
		if t.Capital && !t.Opens || t.Digit || strings.HasPrefix(last[t.End:], "(") || t.Start > 0 && last[t.Start-1] == '`' ||
			i+1 < len(toks) && (namedKinds[toks[i+1].Lower] || docKinds[toks[i+1].Lower]) {
			names[t.Lower] = true
		}
		// Or as a setting's name: after the kind of setting it is ("the
		// GODEBUG setting frobcache"), before it ("the frobcache
		// setting", "the frobcache GODEBUG setting": the kind may be
		// named by its own name first), or before the value it is given
		// ("frobcache = 2").
		if i > 0 && settingKinds[toks[i-1].Lower] || strings.HasPrefix(strings.TrimLeft(last[t.End:], " "), "=") ||
			i+1 < len(toks) && settingKinds[toks[i+1].Lower] || i+2 < len(toks) && toks[i+1].Capital && settingKinds[toks[i+2].Lower] {
			names[t.Lower] = true
		}
	}
	var out []string
	for _, w := range nowhere {
		if names[w] {
			out = append(out, w)
		}
	}
	return out
}

// namedKinds are the kinds of software a user names a thing by, written
// after its name: "the zorpd package", "the frob tool". The word before
// one is a name however it is written.
var namedKinds = text.NewSet(`package packages library tool program command daemon utility module plugin extension`)

// settingKinds are the kinds of setting a user names one by, written
// before its name: "the GODEBUG setting frobcache", "the option quuxmode".
var settingKinds = text.NewSet(`setting option parameter variable flag field`)

// holdsForm reports whether lower-cased text holds one of a word's forms
// (inflections) as a word.
func holdsForm(text string, forms []string) bool {
	return slices.ContainsFunc(forms, func(f string) bool { return hasWord(text, f) })
}

// heldNowhere returns the words no passage of the whole store holds in
// any of their forms (inflections). unheldWords searches within the
// question's scope (its file types, the source it names): a word the
// scope lacks may still be one the files know, only elsewhere (a word no
// file of the package the question names holds), which says nothing of
// whether they answer.
func (p *pipeline) heldNowhere(ctx context.Context, s *State, words []string) []string {
	var out []string
	for _, w := range words {
		forms := inflections(w)
		res, err := p.deps.Searcher.Search(ctx, graphrag.Query{Text: strings.Join(forms, " "), Mode: graphrag.ModeKeyword, K: probeDepth(compoundName(s.question(), w))})
		if err != nil {
			s.note("evaluate: could not check whether the files hold %q: %v", w, err)
			return nil
		}
		if !slices.ContainsFunc(res.Hits, func(h graphrag.Hit) bool {
			return holdsForm(hitText(h), forms)
		}) {
			out = append(out, w)
		}
	}
	return out
}

// unheldCompounds returns the hyphenated words of words (skip left out)
// that no passage of the whole store holds (heldNowhere), as written or
// without their hyphens ("SHA-256" written "SHA256"), and that have a part
// no passage holds either: "zorpd" of "zorpd-frobber" over files that
// never say zorpd. Such a word names a thing the files do not cover,
// however the question writes it ("which fixes came with the newest
// zorpd-frobber"): a compound of words ("read-only", "per-table") has
// parts the files use. A word with a dot is a qualified name or a
// version, matchConstraints' concern.
func (p *pipeline) unheldCompounds(ctx context.Context, s *State, words, skip []string) []string {
	if p.deps.Searcher == nil || !isLocal(s.Plan.Route) {
		return nil
	}
	var out []string
	for _, w := range words {
		if !strings.Contains(w, "-") || strings.Contains(w, ".") || slices.Contains(skip, w) || slices.Contains(out, w) {
			continue
		}
		var parts []string
		for _, part := range strings.Split(w, "-") {
			if len(part) > 1 && !stopWords[part] {
				parts = append(parts, part)
			}
		}
		if len(p.heldNowhere(ctx, s, parts)) == 0 {
			continue
		}
		if written := []string{w, strings.ReplaceAll(w, "-", "")}; len(p.heldNowhere(ctx, s, written)) == len(written) {
			out = append(out, w)
		}
	}
	return out
}

// passingStoreWide keeps, of the words unheldWords found held only in
// passing, those the whole store holds as seldom. unheldWords searches
// within the question's scope (the folder or the file types it names),
// where an everyday word of the files ("supposed" in "how am I supposed to
// build it", over go/types) may stand in a few passages only; one that
// passingMentions passages or more hold across the store is a word the
// files use, not a thing they name in passing. A failed search keeps
// them all.
func (p *pipeline) passingStoreWide(ctx context.Context, s *State, words []string) []string {
	if len(words) == 0 || p.filters(s.Plan).IsZero() {
		return words // the scope was the whole store
	}
	var out []string
	for _, w := range words {
		forms := inflections(w)
		res, err := p.deps.Searcher.Search(ctx, graphrag.Query{Text: strings.Join(forms, " "), Mode: graphrag.ModeKeyword, K: passingMentions})
		if err != nil {
			s.note("evaluate: could not check whether the files hold %q: %v", w, err)
			return words
		}
		n := 0
		for _, h := range res.Hits {
			if holdsForm(hitText(h), forms) {
				n++
			}
		}
		if n < passingMentions {
			out = append(out, w)
		}
	}
	return out
}

// packageDocumentKinds are the kinds of document a question names a
// package's own by: its README, NEWS and changelog, which a package's
// folder holds under its name. Not its copyright: "Ann Smith's copyright"
// names a person.
var packageDocumentKinds = toSet(packageDocumentWords)

const packageDocumentWords = `readme news changelog`

// packageDocumentWord finds a word of packageDocumentKinds in a question,
// so that one without any is not tokenized.
var packageDocumentWord = regexp.MustCompile(`(?i)` + strings.Join(strings.Fields(packageDocumentWords), "|"))

// documentQualifiers are words that say which of a package's documents
// is meant rather than name a package: "the upstream README", "the
// Debian changelog".
var documentQualifiers = toSet(`upstream debian source packaging project`)

// packagesOfDocuments returns the names a question writes as a package
// whose README, NEWS or changelog it asks about: before the document,
// "package" and a possessive between or not ("zorpd's README.Debian",
// "the zorpd package's NEWS", "the zorpd changelog"), or after it ("the
// changelog of zorpd", "the NEWS file for the zorpd package"); before it
// as "its" ("zorp-server … according to its changelog"), the package named
// before (antecedentPackage). Function words, everyday words and words
// that qualify the document ("the upstream README", "the zorpd Debian
// changelog") name no package.
func packagesOfDocuments(query string) []string {
	if !packageDocumentWord.MatchString(query) {
		return nil
	}
	toks := tokenize(query)
	var out []string
	add := func(w string) {
		if !stopWords[w] && !generalWords[w] && !documentQualifiers[w] && strings.ContainsFunc(w, unicode.IsLetter) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	for i, t := range toks {
		if !packageDocumentKinds[docKind(t.Lower)] {
			continue
		}
		if j := i - 1; j >= 0 {
			// "the zorpd Debian changelog", "the zorpd package's upstream
			// NEWS": the words between the package's name and its document
			// say which of its documents is meant.
			for j > 0 && (documentQualifiers[toks[j].Lower] || toks[j].Lower == "package") {
				j--
			}
			if toks[j].Lower == "its" {
				if a := antecedentPackage(query, toks[:j]); a != "" {
					add(a)
				}
			} else {
				add(toks[j].Lower)
			}
		}
		j := i + 1
		if j < len(toks) && toks[j].Lower == "file" {
			j++
		}
		if j+1 < len(toks) && (toks[j].Lower == "of" || toks[j].Lower == "for") {
			j++
			if toks[j].Lower == "the" && j+1 < len(toks) {
				j++
			}
			add(toks[j].Lower)
		}
	}
	return out
}

// antecedentPackage is the package "its" stands for in "according to its
// changelog": the last name before it (toks are the tokens before "its")
// that the question writes as a package's ("the zorpd package"), gives a
// version ("zorpd 2.1") or writes as only a name is written, with a
// hyphen, a dot or a digit ("zorp-server", "zorp.io", "zorp2"). "" when
// none is.
func antecedentPackage(query string, toks []token) string {
	versioned := map[string]bool{}
	for _, n := range versionedNames(query) {
		versioned[n[0]] = true
	}
	for i := len(toks) - 1; i >= 0; i-- {
		w := toks[i].Lower
		if stopWords[w] || generalWords[w] || documentQualifiers[w] || !strings.ContainsFunc(w, unicode.IsLetter) {
			continue
		}
		kind := i+1 < len(toks) && namedKinds[toks[i+1].Lower]
		if kind || versioned[w] || strings.ContainsAny(w, "-.+0123456789") {
			return w
		}
	}
	return ""
}

// packageDocumentsMissing reads the packages whose documents the question
// asks about (packagesOfDocuments) against the store. noFolder are those
// no file of the store is of: no path holds the name (a package's folder
// is named after it: "zorpd-common", "libzorp2" for zorpd and zorp). The
// files hold no README of a package they do not have, however well the
// rest of the question matches another package's. noFile are, of the
// others, the files the question names as Debian names them in every
// package's folder that has one ("zorpd's README.Debian", the NEWS.Debian
// of zorpd: debianFileName) that no path holds as package/file. A failed
// search finds none.
func (p *pipeline) packageDocumentsMissing(ctx context.Context, s *State) (noFolder, noFile []string) {
	q := s.question()
	names := debianFileName.FindAllString(q, -1)
	for _, w := range packagesOfDocuments(q) {
		held, err := p.pathHolds(ctx, s, w)
		if err != nil {
			s.note("evaluate: could not check whether the files hold a folder of %q: %v", w, err)
			return nil, nil
		}
		if !held {
			noFolder = append(noFolder, w)
			continue
		}
		for _, n := range names {
			f := w + "/" + strings.ToLower(n)
			held, err := p.pathHolds(ctx, s, f)
			if err != nil {
				s.note("evaluate: could not check whether the files hold %q: %v", f, err)
				return nil, nil
			}
			if !held && !slices.Contains(noFile, f) {
				noFile = append(noFile, f)
			}
		}
	}
	return noFolder, noFile
}

// debianFileName finds a file a question names as Debian names it in
// every package's folder that has one: README.Debian and NEWS.Debian.
var debianFileName = regexp.MustCompile(`(?i)\b(readme|news)\.debian\b`)

// pathHolds reports whether a hit's path or a file of the store holds the
// name, as written or with its punctuation left out: a folder may be
// named "zorpjs" for Zorp.js.
func (p *pipeline) pathHolds(ctx context.Context, s *State, name string) (bool, error) {
	forms := []string{name}
	if bare := strings.Map(func(r rune) rune {
		if strings.ContainsRune("-.+_", r) {
			return -1
		}
		return r
	}, name); bare != name {
		forms = append(forms, bare)
	}
	for _, w := range forms {
		if slices.ContainsFunc(s.Hits, func(h graphrag.Hit) bool { return strings.Contains(strings.ToLower(h.Source.Path), w) }) {
			return true, nil
		}
		f := p.filters(s.Plan)
		f.Source = w
		res, err := p.deps.Searcher.Search(ctx, graphrag.Query{Text: s.question(), Mode: graphrag.ModeKeyword, K: 1, Filters: f})
		if err != nil {
			return false, err
		}
		if len(res.Hits) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// askedNowhere returns the words of a well-matched question that no file
// anywhere holds and that it asks about: of the words nowhere in its
// scope (unheldWords), those the sentence that asks writes as names
// (askedIn) and no passage of the store holds, and the compounds of
// missing (the words no best hit holds) with a part no file holds
// (unheldCompounds).
func (p *pipeline) askedNowhere(ctx context.Context, s *State, missing, nowhere []string) []string {
	asked := p.heldNowhere(ctx, s, askedIn(s.question(), nowhere))
	return append(asked, p.unheldCompounds(ctx, s, missing, asked)...)
}
