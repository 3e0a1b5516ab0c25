package nodes

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
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
}

// An askKind is a kind of answer a question part asks for: "when" wants a
// time, "where" a place, "how much" an amount. A multi-part question ("when
// does it run and where does it go?") asks for several.
type askKind struct {
	name string
	// ask finds the kind in a question; has in a sentence, once what
	// matches not (when set) is removed.
	ask, has, not *regexp.Regexp
	// prefer are words that mark the sentence that answers the kind best
	// ("total" for an amount).
	prefer map[string]bool
}

var askKinds = []askKind{
	{name: "time",
		ask: regexp.MustCompile(`(?i)\b(when|what time|what day|which day|what date|how often|how long)\b`),
		has: regexp.MustCompile(`(?i)\b\d{1,2}[:.]\d{2}\b|\b(1[89]|20)\d{2}\b|\b\d{1,2}(st|nd|rd|th)\b|\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(january|february|march|april|may|june|july|august|september|october|november|december)\b|\b(daily|weekly|monthly|yearly|nightly|hourly|every|each|tomorrow|yesterday|midnight|noon|morning|evening|night|quarter|minutes?|hours?|days?|weeks?|months?|years?|am|pm)\b`)},
	{name: "place",
		ask: regexp.MustCompile(`(?i)\b(where|which (folder|directory|server|host|bucket|disk|drive|place|city|country|room|site))\b`),
		has: regexp.MustCompile("(?i)\\b(to|into|in|at|on|under|from|inside|throughout|across|near|outside|within|between)\\s+(the\\s+|a\\s+)?(?-i:[A-Z`/\"'~])|\\b(locations?|venues?|addresses)\\b|\\b(to|into|in|at|on)\\s+(the\\s+|a\\s+)?[\\w-]+\\s+(bucket|folder|directory|server|disk|drive|host|room|office|street|city|cloud|share)\\b|(^|\\s)[~/][\\w.-]+/|\\b\\w+://"),
		// "on Tuesday", "in March" are times, not places.
		not: regexp.MustCompile(`(?i)\b(on|in|at|from|to|until|between|within|since|by)\s+(the\s+)?(mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(on|in|at|from|to|until|between|within|since|by)\s+(the\s+)?(january|february|march|april|may|june|july|august|september|october|november|december)\b`)},
	{name: "amount",
		ask:    regexp.MustCompile(`(?i)\b(how much|how many|what (was|is|were|are) the (total|cost|price|amount|fee|sum)|cost|price)\b`),
		has:    regexp.MustCompile(`(?i)(€|\$|£|¥|\b(eur|usd|gbp|chf|jpy|cad|aud)\b)\s?\d|\d[\d,.]*\s?(€|\$|£|%|\b(eur|usd|gbp|euros?|dollars?|pounds?|percent)\b)|\b\d+([.,]\d+)?\b`),
		prefer: toSet(`total due amount sum balance price cost`)},
	{name: "person",
		ask: regexp.MustCompile(`(?i)\b(who|whom)\b`),
		has: regexp.MustCompile(`\S\s+[A-Z][a-z]+|^[A-Z][a-z]+:`)},
	{name: "reason",
		ask: regexp.MustCompile(`(?i)\bwhy\b`),
		has: regexp.MustCompile(`(?i)\b(because|since|so that|due to|as a result|in order to|reason|rejected|fails?|failed)\b`)},
	{name: "steps",
		ask: regexp.MustCompile(`(?i)^\s*(how (do|can|should|would|to) (i|we|you|one)?|how to)\b|\b(steps?|procedure|instructions?)\b`),
		has: regexp.MustCompile("(?i)^(run|use|open|click|copy|mount|select|type|enter|install|restart|start|stop|check|go|set|add|remove|edit|create|delete)\\b|`[^`]+`")},
}

// in reports whether text holds this kind of answer.
func (k askKind) in(text string) bool {
	if k.not != nil {
		text = k.not.ReplaceAllString(text, " ")
	}
	return k.has.MatchString(text)
}

// askedKinds returns the kinds of answer a question asks for, in order.
func askedKinds(query string) []askKind {
	type at struct {
		k   askKind
		pos int
	}
	var found []at
	for _, k := range askKinds {
		if loc := k.ask.FindStringIndex(query); loc != nil {
			found = append(found, at{k, loc[0]})
		}
	}
	slices.SortStableFunc(found, func(a, b at) int { return a.pos - b.pos })
	out := make([]askKind, len(found))
	for i, f := range found {
		out[i] = f.k
	}
	return out
}

// looseStem folds inflections stem leaves apart ("decided" and "decide",
// "goes" and "go", "restoring" and "restore") for matching sentences with a
// question.
func looseStem(w string) string {
	s := stem(w)
	for _, suf := range []string{"ing", "ed", "es", "e"} {
		if len(s)-len(suf) >= 2 && strings.HasSuffix(s, suf) && (suf != "es" || len(s) > 3) {
			return s[:len(s)-len(suf)]
		}
	}
	return s
}

func looseSet(text string) map[string]bool {
	set := make(map[string]bool)
	for _, t := range tokenize(text) {
		set[looseStem(t.Lower)] = true
	}
	return set
}

var (
	headingLine  = regexp.MustCompile(`^\s{0,3}(#{1,6}\s+\S|#{1,6}$)`)
	setextLine   = regexp.MustCompile(`^\s{0,3}(=+|-{2,})\s*$`)
	fenceLine    = regexp.MustCompile("^\\s*(```|~~~)")
	listMarker   = regexp.MustCompile(`^\s*([-*+•]|\d{1,3}[.)])\s+`)
	columnGap    = regexp.MustCompile(`\S(\s{2,}|\t|\s\|\s)\S`)
	auxiliaries  = toSet(`is are was were be been being am has have had do does did will would shall should can could may might must isn't aren't wasn't weren't won't can't don't doesn't didn't stays stay keeps keep goes go runs run takes take uses use owns own needs need means mean`)
	imperativeRe = regexp.MustCompile(`(?i)^(run|use|open|click|copy|mount|select|type|enter|install|restart|start|stop|check|set|add|remove|edit|create|delete|make|put|see|ask|call|send|keep|move|write|read)\b`)
)

// quoteUnit is a sentence an answer may quote.
type quoteUnit struct {
	text, heading   string
	section, secPos int
	item            bool
}

// answerUnits splits a passage into the sentences an answer may quote,
// each with the section heading above it. Headings, code fences and list
// markers are not quoted; table rows and list items are units of their own.
func answerUnits(text string) []quoteUnit {
	heading := ""
	section, secPos := 0, 0
	var units []quoteUnit
	var para []string
	flush := func() {
		if len(para) == 0 {
			return
		}
		item := listMarker.MatchString(para[0])
		if item {
			para[0] = listMarker.ReplaceAllString(para[0], "")
		}
		for _, s := range splitSentences(strings.Join(para, "\n")) {
			s = strings.Join(strings.Fields(s), " ")
			if s == "" || len(tokenize(s)) == 0 {
				continue
			}
			units = append(units, quoteUnit{text: s, heading: heading, section: section, secPos: secPos, item: item})
			secPos++
		}
		para = para[:0]
	}
	newSection := func(h string) {
		heading, section, secPos = h, section+1, 0
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		trim := strings.TrimSpace(line)
		switch {
		case trim == "":
			flush()
		case headingLine.MatchString(line):
			flush()
			newSection(strings.TrimSpace(strings.TrimLeft(trim, "#")))
		case setextLine.MatchString(line) && len(para) == 1:
			h := para[0]
			para = para[:0]
			newSection(h)
		case fenceLine.MatchString(line):
			flush()
		case listMarker.MatchString(line) || columnGap.MatchString(trim) || (i+1 < len(lines) && columnGap.MatchString(strings.TrimSpace(lines[i+1]))):
			// A list item or a table row stands alone.
			flush()
			para = append(para, trim)
			flush()
		default:
			para = append(para, trim)
		}
	}
	flush()
	return units
}

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

// extractive builds an answer from the sentences that best cover the
// query's terms, each followed by [n], the number of its hit. Terms are
// weighted by their query weight and by how few kept hits contain them;
// earlier sentences and better-ranked hits break ties. Each kind of answer
// the question asks for (a time, a place, an amount...) gets a sentence
// that has it when one is near the chosen ones, and a sentence next to a
// chosen one that carries query terms still uncovered needs less score.
// Headings, code fences and fragments without a verb are not quoted.
func extractive(query string, kept []graphrag.Hit, limit int) graphrag.Answer {
	terms := contentTerms(query)
	kinds := askedKinds(query)
	steps := slices.ContainsFunc(kinds, func(k askKind) bool { return k.name == "steps" })
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
		for j, u := range answerUnits(h.Chunk.Text) {
			// The section heading and the title count towards what a
			// sentence is about: passages often say "he" for their subject,
			// and a section's sentences rarely repeat its heading.
			sent := u.text
			own := looseSet(sent)
			st := make(map[string]float64, len(own))
			for k := range own {
				st[k] = 1
			}
			for k := range looseSet(u.heading) {
				if st[k] == 0 {
					st[k] = 0.6
				}
			}
			for k := range title {
				if st[k] == 0 {
					st[k] = 0.3
				}
			}
			c := candidate{text: sent, hit: i, pos: j, stems: st, loose: own, prose: isProse(sent), masked: maskIdentifiers(sent),
				section: u.section, secPos: u.secPos, item: u.item}
			if !c.prose && len(tokenize(sent)) < 3 {
				// A label or a term on its own ("RPO") answers nothing.
				continue
			}
			cands = append(cands, c)
		}
	}
	for i := range terms {
		terms[i].Stem = looseStem(terms[i].Word)
	}
	weight := func(t term) float64 {
		return t.Weight * (1 + math.Log(float64(len(kept)+1)/float64(df[stem(t.Word)]+1)))
	}
	covered := make(map[string]bool)
	satisfied := make([]bool, len(kinds))
	var chosen []candidate
	adjacent := func(c candidate) bool {
		return slices.ContainsFunc(chosen, func(x candidate) bool { return x.hit == c.hit && (x.pos == c.pos-1 || x.pos == c.pos+1) })
	}
	for len(chosen) < limit {
		best, bestScore, bestNeeded := -1, 0.0, 0.0
		for i, c := range cands {
			if slices.ContainsFunc(chosen, func(x candidate) bool { return x.hit == c.hit && x.pos == c.pos }) {
				continue
			}
			var sc float64
			fresh := false
			for _, t := range terms {
				f := c.stems[t.Stem]
				if f == 0 {
					continue
				}
				w := weight(t) * f
				if covered[t.Stem] {
					w *= 0.2
				} else if f == 1 {
					fresh = true
				}
				sc += w
			}
			near := len(chosen) > 0 && adjacent(c)
			// An asked kind of answer the sentence holds, when the
			// sentence is about the question or next to a chosen one.
			if sc > 0 || near {
				for k, kind := range kinds {
					if satisfied[k] || !kind.in(c.masked) {
						continue
					}
					bonus := 0.6
					for w := range kind.prefer {
						if c.loose[w] {
							bonus += 0.6
							break
						}
					}
					sc += bonus
				}
			}
			if !c.prose {
				sc *= 0.5
			}
			sc *= 1 / (1 + 0.1*float64(c.secPos)) / (1 + 0.05*float64(c.hit))
			needed := 0.5
			switch {
			case near && c.item && steps && slices.ContainsFunc(chosen, func(x candidate) bool { return x.hit == c.hit && x.item && x.section == c.section }):
				// A step next to one quoted: the procedure goes on.
				sc, needed = sc+1, 0.01
			case near && fresh:
				needed = 0.25
			}
			if sc > bestScore {
				best, bestScore, bestNeeded = i, sc, needed
			}
		}
		if best < 0 || (len(chosen) > 0 && bestScore < bestNeeded) {
			break
		}
		c := cands[best]
		chosen = append(chosen, c)
		for _, t := range terms {
			if c.stems[t.Stem] > 0 {
				covered[t.Stem] = true
			}
		}
		for k, kind := range kinds {
			if kind.in(c.masked) {
				satisfied[k] = true
			}
		}
	}
	if len(chosen) == 0 && len(cands) > 0 {
		chosen = append(chosen, cands[0])
	}
	// Cover each part of the question: a kind of answer asked for and not
	// yet in the answer is taken from the passages already quoted, from the
	// sentence that has it with the most uncovered query terms, preferred
	// words ("total" for an amount) and nearness to a quoted sentence.
	for k, kind := range kinds {
		if satisfied[k] || len(chosen) == 0 {
			continue
		}
		best, bestScore := -1, 0.0
		for i, c := range cands {
			if !kind.in(c.masked) ||
				!slices.ContainsFunc(chosen, func(x candidate) bool { return x.hit == c.hit }) ||
				slices.ContainsFunc(chosen, func(x candidate) bool { return x.hit == c.hit && x.pos == c.pos }) {
				continue
			}
			sc := 0.1
			for _, t := range terms {
				if c.loose[t.Stem] && !covered[t.Stem] {
					sc += weight(t)
				}
			}
			for w := range kind.prefer {
				if c.loose[w] {
					sc += 1
				}
			}
			if adjacent(c) {
				sc += 0.5
			}
			if c.prose {
				sc += 0.2
			}
			sc /= 1 + 0.02*float64(c.pos)
			if sc > bestScore {
				best, bestScore = i, sc
			}
		}
		if best >= 0 {
			c := cands[best]
			chosen = append(chosen, c)
			for _, t := range terms {
				if c.loose[t.Stem] {
					covered[t.Stem] = true
				}
			}
			for k2, kind := range kinds {
				if kind.in(c.masked) {
					satisfied[k2] = true
				}
			}
		}
	}
	// Present in reading order: by hit, then by position.
	slices.SortStableFunc(chosen, func(a, b candidate) int {
		if a.hit != b.hit {
			return a.hit - b.hit
		}
		return a.pos - b.pos
	})
	var b strings.Builder
	cited := map[int]int{}
	var cites []graphrag.Citation
	for i, c := range chosen {
		n, ok := cited[c.hit]
		if !ok {
			n = len(cites) + 1
			cited[c.hit] = n
			cites = append(cites, graphrag.Citation{N: n, Hit: kept[c.hit], Quote: c.text})
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s [%d]", c.text, n)
	}
	return graphrag.Answer{Text: b.String(), Citations: cites, By: "extractive"}
}
