package nodes

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// selection is the state of choosing an answer's units.
type selection struct {
	terms     []term
	mostNamed int // the most question words naming one kept file
	// named are the loose stems of the identifiers the question asks
	// about and of their packages ("tally", "new" of "tally.New").
	named map[string]bool
	// asked are the identifiers the question asks about, lower-cased
	// ("openfat" of "macho.OpenFat").
	asked   []string
	kinds   []askKind
	df      map[string]int
	kept    int
	steps   bool
	licence bool // the question asks for a licence (licenceQuestion)
	changes bool // the question asks what a release changed (asksChanges)
	author  bool // the question asks who made or owns a work (asksAuthor)
	// whole is true when the answer opens with a field of a copyright
	// file's stanza of the whole work, for a question asking its licence
	// or author: the other stanzas' units are not more of the answer.
	whole bool
	// released are the loose stems of the names the question gives a
	// version ("sed" of "sed 4.9": see versionedNames).
	released map[string]bool
	// query is the question; settings the settings and options it names
	// (namedSettings of its asking part, lower-cased, found when cover
	// first needs them): a unit that names one speaks of what is asked.
	query     string
	settings  []string
	settled   bool // settings found
	covered   map[string]bool
	satisfied []bool
	chosen    []candidate
}

func (s *selection) weight(t term) float64 {
	return t.Weight * (1 + math.Log(float64(s.kept+1)/float64(s.df[stem(t.Word)]+1)))
}

func (s *selection) isChosen(c candidate) bool {
	return slices.ContainsFunc(s.chosen, func(x candidate) bool { return x.hit == c.hit && x.pos == c.pos })
}

func (s *selection) adjacent(c candidate) bool {
	return slices.ContainsFunc(s.chosen, func(x candidate) bool { return x.hit == c.hit && (x.pos == c.pos-1 || x.pos == c.pos+1) })
}

// quoted reports whether the answer already holds this text: Debian
// ships one changelog or copyright file in several packages, and a
// repeated quote says nothing new.
func (s *selection) quoted(text string) bool {
	return slices.ContainsFunc(s.chosen, func(x candidate) bool { return x.text == text })
}

// take adds c to the answer and marks what it covers.
func (s *selection) take(c candidate) {
	s.chosen = append(s.chosen, c)
	for _, t := range s.terms {
		if c.stems[t.Stem] > 0 {
			s.covered[t.Stem] = true
		}
	}
	for k, kind := range s.kinds {
		if kind.in(c.masked) {
			s.satisfied[k] = true
		}
	}
}

// score is what c adds to the answer chosen so far, and the least score it
// needs to be added.
func (s *selection) score(c candidate) (sc, needed float64) {
	w := answerWeights
	fresh, own := false, false
	for _, t := range s.terms {
		f := c.stems[t.Stem]
		if f == 0 && sameMeaningIn(t.Stem, c.loose) {
			// The sentence writes the word of the question in another
			// word of its group (sameMeaning: "skip" as "exclude"), as
			// evidence finds it.
			f = 1
		}
		if f == 0 || c.release > 0 && s.released[t.Stem] {
			// Under the release asked about, the name of what was
			// released says nothing more: its heading already does.
			continue
		}
		own = own || f == 1
		tw := s.weight(t) * f
		if s.covered[t.Stem] {
			tw *= w.covered
		} else if f == 1 {
			fresh = true
		}
		sc += tw
	}
	near := len(s.chosen) > 0 && s.adjacent(c)
	// An asked kind of answer the unit holds, when the unit is about the
	// question or next to a chosen one.
	if sc > 0 || near {
		for k, kind := range s.kinds {
			if s.satisfied[k] || !kind.in(c.masked) {
				continue
			}
			bonus := w.kind
			for word := range kind.prefer {
				if c.loose[word] {
					bonus += w.preferred
					break
				}
			}
			sc += bonus
		}
	}
	if (c.declares || c.defines || c.runs) && sc > 0 {
		sc += w.decl
	}
	if c.instructs && (sc > 0 || near) {
		sc += w.instructs
	}
	switch {
	case c.release > 0 && (own || c.subheadAsked):
		// Under the release asked about and saying something of the
		// question itself (not only under its heading: a changelog
		// entry's signature line is not its news), or under a
		// subheading of the release's notes that does ("** New
		// Features" for "what new features came in grep 3.8").
		sc += w.release
	case c.release < 0:
		sc *= w.otherRelease
	}
	if !c.prose && !c.defines {
		// A fragment is a label, unless it defines what is asked
		// ("SB: Static base pointer …" for "what is SB"): a glossary
		// entry is written without a verb.
		sc *= w.label
	}
	if c.test {
		sc *= w.test
	}
	if c.naming < s.mostNamed {
		sc *= w.lessNamed
	}
	sc *= 1 / (1 + w.secPos*float64(c.secPos)) / (1 + w.hitRank*float64(c.hit))
	needed = w.next
	switch {
	case near && c.item && s.steps && slices.ContainsFunc(s.chosen, func(x candidate) bool { return x.hit == c.hit && x.item && x.section == c.section }):
		// A step next to one quoted: the procedure goes on.
		sc, needed = sc+w.stepBonus, w.step
	case near && fresh:
		needed = w.nextFresh
	}
	return sc, needed
}

// bringsAsked reports whether c holds a word of the question the answer
// does not hold yet, besides the names asked about (the package's doc
// names its package everywhere): not a general word ("use", "way": see
// generalWords), nor a dotted name.
func (s *selection) bringsAsked(c candidate) bool {
	return slices.ContainsFunc(s.terms, func(t term) bool {
		return t.Weight >= 1 && !s.covered[t.Stem] && !s.named[t.Stem] && !strings.Contains(t.Word, ".") && c.stems[t.Stem] == 1
	})
}

// pick is the select step: it adds the best-scoring unit while one scores
// enough, up to limit units.
func (s *selection) pick(cands []candidate, limit int) {
	if s.changes && s.releaseNotes(cands, limit) {
		return
	}
	// The declaration (or option) the question names answers first: a
	// function that mentions it scores higher only by saying more words.
	declared := slices.ContainsFunc(cands, func(c candidate) bool { return c.declares && !c.test })
	// Asked for what a line of code holds (an error's text), only when a
	// declaration holds such a line: the error is often made in another
	// function, or in another part of the one named.
	for _, k := range s.kinds {
		if k.codeLine && !slices.ContainsFunc(cands, func(c candidate) bool { return c.declares && !c.test && k.in(c.masked) }) {
			declared = false
		}
	}
	// A "who" question is answered first by a unit that names someone,
	// when one does: "Upstream-Name: bzip2" matches "who wrote bzip2"
	// better by its words, "Copyright: 1996-2010 Julian R Seward" answers.
	who := slices.ContainsFunc(s.kinds, func(k askKind) bool { return k.name == "person" }) &&
		slices.ContainsFunc(cands, func(c candidate) bool { return c.name })
	// Asked who made a work, among those by one that names someone as
	// who did something, when one does: "Written by Jim Meyering" over
	// "the GNU Savannah Git server", a name too.
	agent := who && s.author && slices.ContainsFunc(cands, func(c candidate) bool { return c.agent })
	// A licence question, by a unit that names a licence; by the whole
	// work's License field when a copyright file's stanza gives one: the
	// stanzas of a few vendored files name the package in their paths.
	licence := s.licence && slices.ContainsFunc(cands, holdsLicence)
	wholeLicence := licence && slices.ContainsFunc(cands, wholeLicenceField)
	// Asked who wrote a work, by a field recording authorship of the work
	// (or a part of it) when a copyright file's stanza gives one: the
	// header's comment names who packaged it, "by" and all.
	// The whole work's stanza first, a part's when no whole one says.
	// Asked about a file a part's stanza names ("who wrote select-zorp
	// in zorp-utils"), by that stanza's fields: the whole work's name
	// other people.
	part := (who && s.author || licence) && slices.ContainsFunc(cands, partAsked)
	wholeLicence = wholeLicence && !part
	// Of the part of the package the question names, when a stanza of
	// its copyright file is among them (every Debian packaging stanza
	// matches "who holds the copyright on the Debian packaging of zorp"),
	// and of the part it names most closely: "src/frob/json" is the
	// stanza of "src/frob/json/*", not of "src/frob/*".
	partNamed := part && slices.ContainsFunc(cands, func(c candidate) bool { return partAsked(c) && c.packageNamed })
	deepest := 0
	for _, c := range cands {
		if part && partAsked(c) && (!partNamed || c.packageNamed) {
			deepest = max(deepest, c.filesDepth)
		}
	}
	otherPart := func(c candidate) bool {
		return !partAsked(c) || partNamed && !c.packageNamed || c.filesDepth < deepest
	}
	record := stanzaNone
	if who && s.author && !part {
		for _, scope := range []stanzaScope{stanzaPart, stanzaWhole} {
			if slices.ContainsFunc(cands, func(c candidate) bool { return authorshipField(c, scope) }) {
				record = scope
			}
		}
	}
	// Of the work the question names, when a kept copyright file records
	// it: who wrote zorpkit upstream is not whom another package's
	// "Upstream-Author:" field names, though that field holds the asker's
	// words "upstream" and "author" and zorpkit's "Copyright:" none.
	ofNamed := record != stanzaNone && slices.ContainsFunc(cands, func(c candidate) bool {
		return authorshipField(c, record) && c.naming > 0 && c.naming == s.mostNamed
	})
	// The record of who made the work answers though it holds none of the
	// question's words ("Copyright: 2001 Ann Smith" for "zorpd was first
	// written by whom?"): the first one, when no unit allowed first scores.
	firstRecord := -1
	// Asked which release is installed or who maintains the package, by
	// the newest release of the changelog of the package the question
	// names, when a kept passage holds it: first, though its entry may
	// hold none of the question's words ("* Upload to testing." under
	// "zorp (3.4.1-2) …"), and the first of its units when none scores.
	firstNewest := slices.IndexFunc(cands, func(c candidate) bool { return c.newest })
	newest := firstNewest >= 0
	for len(s.chosen) < limit {
		best, bestScore, bestNeeded := -1, 0.0, 0.0
		for i, c := range cands {
			if s.isChosen(c) {
				continue
			}
			if s.quoted(c.text) {
				continue // the same words from another copy of the file
			}
			if len(s.chosen) == 0 && part {
				// The part's stanza answers first, though its holder may
				// not read as a person's name ("Copyright: 2008
				// Zorpsoft"), nor its fields name the work the question
				// names as the header's do.
				if otherPart(c) {
					continue
				}
			} else if len(s.chosen) == 0 && (declared && !c.declares || who && !c.name || agent && !c.agent || licence && !holdsLicence(c) ||
				wholeLicence && !wholeLicenceField(c) || newest && !c.newest || record != stanzaNone && !authorshipField(c, record) || ofNamed && c.naming < s.mostNamed) {
				continue
			}
			if len(s.chosen) == 0 && firstRecord < 0 && record != stanzaNone {
				firstRecord = i
			}
			if len(s.chosen) > 0 && s.chosen[0].declares && !c.declares && !((c.hit != s.chosen[0].hit || !c.source) && s.bringsAsked(c)) {
				// The declaration asked about answers: another unit is more
				// of the answer only when it holds a word of the question
				// the declaration leaves out, and is of another passage or
				// not code (the code around a field is its type, the same
				// declaration; the entries around a manual's option or a
				// copyright file's field are other facts). A function's
				// doc says what it does; its package's doc what all of it
				// assumes (that no shell is run, that a name is looked up
				// in $PATH), the constant it falls back to what it does
				// when an option is left out (an encoder's DefaultQuality,
				// for "which quality if I pass no options").
				continue
			}
			if len(s.chosen) > 0 && len(s.named) == 0 && !s.chosen[0].source && c.source && !c.declares {
				// A question that names no identifier, answered from a
				// document: source code that shares a word with it
				// ("func Trim" for trimming a disk) is about something
				// else.
				continue
			}
			if part && len(s.chosen) > 0 && (c.unit.stanza != stanzaNone && otherPart(c) || c.unit.stanza == stanzaNone && c.copyright) && (c.hit != s.chosen[0].hit || c.section != s.chosen[0].section) {
				// The part's stanza answers: the other stanzas' holders
				// and licences are of other files, and so are the texts
				// of other copyright files and of the file's stand-alone
				// licences (another package's "You may freely use …"
				// after Dropbox's Copyright line). Its own Files field
				// says which files its holder's are.
				continue
			}
			if s.whole && (c.unit.stanza == stanzaPart || c.unit.stanza == stanzaPackaging) {
				// The licence or authors of the whole work answer: those
				// of its vendored files and its packaging are other
				// answers.
				continue
			}
			if sc, needed := s.score(c); sc > bestScore {
				best, bestScore, bestNeeded = i, sc, needed
			}
		}
		if best < 0 || (len(s.chosen) > 0 && bestScore < bestNeeded) {
			break
		}
		s.take(cands[best])
		s.whole = s.whole || wholeLicence && wholeLicenceField(cands[best]) || record == stanzaWhole && authorshipField(cands[best], record)
	}
	if len(s.chosen) == 0 && firstNewest >= 0 {
		s.chosen = append(s.chosen, cands[firstNewest])
	}
	if len(s.chosen) == 0 && firstRecord >= 0 {
		s.chosen = append(s.chosen, cands[firstRecord])
	}
	if len(s.chosen) == 0 && len(cands) > 0 {
		s.chosen = append(s.chosen, cands[0])
	}
}

// authorshipFields are the fields of a copyright file that record who
// made a work, lower case.
var authorshipFields = toSet(`copyright author authors upstream-author`)

// authorshipField reports whether c is a field of a stanza of scope
// that records who made the work and names someone.
func authorshipField(c candidate, scope stanzaScope) bool {
	return c.unit.stanza == scope && authorshipFields[strings.ToLower(c.unit.field)] && c.name
}

// partAsked reports whether c is a field of the stanza of a part the
// question names (candidate.filesAsked: by a file, a folder, or as the
// packaging) that says who made it (holderField for a holder in one
// word) or its licence.
func partAsked(c candidate) bool {
	return c.filesAsked && (authorshipField(c, stanzaPart) || authorshipField(c, stanzaPackaging) || holderField(c) || strings.EqualFold(c.unit.field, "License") && holdsLicence(c))
}

// holderField reports whether c is the Copyright field of a part's stanza
// that names a holder, though in one word namesSomeone does not take for
// a name ("Copyright: 2008 Zorpsoft"): what follows its years is who.
func holderField(c candidate) bool {
	if (c.unit.stanza != stanzaPart && c.unit.stanza != stanzaPackaging) || !strings.EqualFold(c.unit.field, "Copyright") {
		return false
	}
	return strings.ContainsFunc(strings.TrimPrefix(c.text, c.unit.field+":"), unicode.IsLetter)
}

// wholeLicenceField reports whether c is the License field of a copyright
// file's stanza of the whole work.
func wholeLicenceField(c candidate) bool {
	return c.unit.stanza == stanzaWhole && strings.EqualFold(c.unit.field, "License")
}

// releaseNotes is the select step of a question that asks what a release
// changed: the first entries under the heading of that release, in the
// order the notes give them (the notes lead with what matters most), up to
// limit; none of them need hold the question's words. It reports whether
// it chose any.
func (s *selection) releaseNotes(cands []candidate, limit int) bool {
	var notes []candidate
	for _, c := range cands {
		if c.release > 0 && c.item && !c.test {
			notes = append(notes, c)
		}
	}
	slices.SortStableFunc(notes, func(a, b candidate) int {
		if a.hit != b.hit {
			return a.hit - b.hit
		}
		return a.pos - b.pos
	})
	for _, c := range notes {
		if len(s.chosen) >= limit {
			break
		}
		if !s.quoted(c.text) {
			s.take(c)
		}
	}
	return len(s.chosen) > 0
}

// namedSettings is the settings and options the question names
// (selection.settings), found once.
func (s *selection) namedSettings() []string {
	if !s.settled {
		s.settings, s.settled = lowerAll(namedSettings(askingPart(s.query))), true
	}
	return s.settings
}
