package nodes

import (
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
)

// examples is the last step: a quoted sentence that holds a kind of
// answer the question asks for takes along the lead-in that follows it in
// its section, with its example ("… is not enabled by default." and "To
// enable it, run: systemctl enable …"), while the answer has room: the
// example shows how to do what the sentence says.
func (s *selection) examples(cands []candidate, limit int) {
	for _, x := range append([]candidate(nil), s.chosen...) {
		if x.unit.lead || !slices.ContainsFunc(s.kinds, func(k askKind) bool { return k.in(x.masked) }) {
			continue
		}
		for _, c := range cands {
			if len(s.chosen) < limit && c.hit == x.hit && c.pos == x.pos+1 && c.section == x.section && c.unit.lead && !s.isChosen(c) {
				s.take(c)
			}
		}
	}
}

// maxShortLead is the most words a lead-in may have to be read as the
// quoted sentence before it going on to its example (see continuations).
const maxShortLead = 10

// continuations takes along, after each quoted sentence, a short lead-in
// that follows it in its section with its list or code ("If you get an
// error that the data is out of date, look for a newer package in your
// distribution's updates." and "On Debian, this is: deb … stable-updates
// main"; "… ping: icmp open socket: Operation not permitted" and "Now set
// the missing capability: $ sudo setcap cap_net_raw+ep /bin/ping"), past
// the limit if need be: a few words that point at what follows are the
// sentence's own end, and the example is what it says.
func (s *selection) continuations(cands []candidate) {
	for _, x := range append([]candidate(nil), s.chosen...) {
		if x.unit.lead || x.unit.code {
			continue
		}
		for _, c := range cands {
			if c.hit != x.hit || c.pos != x.pos+1 || c.section != x.section || !c.unit.lead || s.isChosen(c) {
				continue
			}
			if lead, _, _ := strings.Cut(c.text, "\n"); len(strings.Fields(lead)) <= maxShortLead {
				s.take(c)
			}
		}
	}
}

// followOns takes along, after each quoted sentence, the next sentence of
// its section when that one leans back on it (leansBack): an aside in
// parentheses ("A mounted volume cannot be pruned." and "(Unmount it first
// if you need to.)"), or a sentence whose first words point back at what
// the quoted one said ("… the mirror needs its key copied first." and
// "Otherwise, the sync waits forever."; "However, …"; "Also, …"). The
// quoted sentence matched the question's words; the one that leans on it
// goes on with what it leads to, in words of its own. So does the
// sentence after one that only restates the question (candidate.restates:
// "ALTER ZORP changes the definition of a zorp." for "which parts of a
// zorp does ALTER ZORP modify?"): it says what is asked ("The only change
// it can make is a new owner."), though it holds few of the question's
// words. Past the limit if need be, as continuations.
func (s *selection) followOns(cands []candidate) {
	for _, x := range append([]candidate(nil), s.chosen...) {
		if x.unit.lead || x.unit.code || !x.prose {
			continue
		}
		for _, c := range cands {
			if c.hit == x.hit && c.pos == x.pos+1 && c.section == x.section && !c.unit.code && c.prose && !s.isChosen(c) && !s.quoted(c.text) && (leansBack(c.text) || x.restates) {
				s.take(c)
				break
			}
		}
	}
}

// antecedents takes along, before each quoted sentence that opens by
// pointing back (an aside in parentheses, or a first word such as "This"
// or "Otherwise": opensBack), the sentence before it in its section: "(Do
// that from another session.)" says nothing without "The zorp you are
// connected to cannot be frobbed.". Past the limit if need be.
func (s *selection) antecedents(cands []candidate) {
	for _, x := range append([]candidate(nil), s.chosen...) {
		if x.unit.code || !x.prose || !opensBack(x.text) {
			continue
		}
		for _, c := range cands {
			if c.hit == x.hit && c.pos == x.pos-1 && c.section == x.section && !c.unit.code && !c.unit.lead && c.prose && !s.isChosen(c) && !s.quoted(c.text) {
				s.take(c)
				break
			}
		}
	}
}

// opensBack reports whether a sentence opens by pointing back at the one
// before it: an aside in parentheses, or a first word of backWords or
// goOnWords.
func opensBack(sentence string) bool {
	t := strings.TrimSpace(sentence)
	if strings.HasPrefix(t, "(") {
		return true
	}
	toks := tokenize(t)
	return len(toks) > 0 && (backWords[toks[0].Lower] || goOnWords[toks[0].Lower])
}

// backWords are the words with which a sentence points back at the one
// before it: demonstratives and pronouns standing for what it said, and
// the connectives that go on from it.
var backWords = toSet(`this that these those it such however otherwise instead so therefore thus then`)

// goOnWords are the connectives that add to what the sentence before
// said, and point back at it only as a sentence's first word: "Also, the
// limit is never enforced for superusers." goes on from the sentence about
// the limit; "The server also logs each attempt." speaks of its own subject.
var goOnWords = toSet(`also moreover furthermore additionally likewise similarly besides`)

// backReach is how many of a sentence's first words may point back.
const backReach = 4

// leansBack reports whether a sentence leans on the one before it: it is
// an aside in parentheses, one of its first words points back
// (backWords), or its first word goes on from it (goOnWords).
func leansBack(sentence string) bool {
	t := strings.TrimSpace(sentence)
	if strings.HasPrefix(t, "(") {
		return true
	}
	for i, tok := range tokenize(t) {
		if i == backReach {
			break
		}
		if backWords[tok.Lower] || i == 0 && goOnWords[tok.Lower] {
			return true
		}
	}
	return false
}

// cover is the cover step: each kind of answer asked for and not yet in
// the answer is taken from the passages already quoted, from the unit that
// has it with the most uncovered query terms, preferred words ("total" for
// an amount) and nearness to a quoted unit. Also from another passage of a
// quoted document, by a unit that names the setting or option the question
// asks about (namedSettings): a manual's notes say in which release its
// option came ("The option --zorpdir was added in Zorp 8.4"), apart from
// the option's entry. A kind a line of code holds (an error's text: see
// askKind.codeLine) is taken from any kept passage that is about what the
// question asks (aboutAsked): the function the question names calls
// another, in another file, that makes the error.
func (s *selection) cover(cands []candidate, kept []graphrag.Hit) {
	w := answerWeights
	namesSetting := func(c candidate) bool {
		settings := s.namedSettings()
		if len(settings) == 0 {
			return false
		}
		low := strings.ToLower(c.text)
		return slices.ContainsFunc(settings, func(n string) bool { return strings.Contains(low, n) })
	}
	for k, kind := range s.kinds {
		if s.satisfied[k] || len(s.chosen) == 0 {
			continue
		}
		best, bestScore := -1, 0.0
		var asking map[string]bool
		if kind.codeLine {
			asking = s.askingWords(kind)
		}
		for i, c := range cands {
			if !kind.in(c.masked) || s.isChosen(c) || s.quoted(c.text) {
				continue
			}
			if !slices.ContainsFunc(s.chosen, func(x candidate) bool { return x.hit == c.hit }) &&
				!(slices.ContainsFunc(s.chosen, func(x candidate) bool { return kept[x.hit].Chunk.DocID == kept[c.hit].Chunk.DocID }) && namesSetting(c)) &&
				!(kind.codeLine && s.aboutAsked(c, asking)) {
				continue
			}
			sc := w.coverBase
			for _, t := range s.terms {
				if c.loose[t.Stem] && !s.covered[t.Stem] {
					sc += s.weight(t)
				}
			}
			for word := range kind.prefer {
				if c.loose[word] {
					sc += w.coverPreferred
				}
			}
			if s.adjacent(c) {
				sc += w.coverNear
			}
			if c.prose {
				sc += w.coverProse
			}
			sc /= 1 + w.coverPos*float64(c.pos)
			if kind.codeLine {
				// From any passage: the better ranked first.
				sc /= 1 + w.hitRank*float64(c.hit)
			}
			if sc > bestScore {
				best, bestScore = i, sc
			}
		}
		if best >= 0 {
			s.take(cands[best])
		}
	}
}

// askingWords are the loose stems of the words that ask for kind in the
// question ("what", "error" and "string" of "what error string").
func (s *selection) askingWords(kind askKind) map[string]bool {
	asking := map[string]bool{}
	for _, m := range kind.ask.FindAllString(s.query, -1) {
		for _, t := range tokenize(m) {
			asking[looseStem(t.Lower)] = true
		}
	}
	return asking
}

// aboutAsked reports whether c holds a word of the question besides those
// that ask for the kind ("what error string"), function words and
// everyday words: a kind's line of code in another passage (an error's
// text) is the answer when it is about what the question names
// ("errors.New("frob: too many zorps")" for "what error does frob.Open
// return for too many zorps"), not any error of the kept code.
func (s *selection) aboutAsked(c candidate, asking map[string]bool) bool {
	return slices.ContainsFunc(s.terms, func(t term) bool {
		w := strings.ToLower(t.Word)
		return c.loose[t.Stem] && !asking[t.Stem] && !stopWords[w] && !generalWords[w]
	})
}
