package nodes

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/graphrag/graphrag"
)

// shortAnswer extracts a short answer (a name, a date, a number, yes or no)
// from the kept hits, for exact-match scoring and for interfaces that show
// a headline. It returns "" when it finds no candidate. It is a heuristic:
// the extractive answer with citations stays the answer.
func shortAnswer(question string, kept []graphrag.Hit, sentences []string) string {
	q := strings.TrimSpace(question)
	toks := tokenize(q)
	if len(toks) == 0 || len(kept) == 0 {
		return ""
	}
	qStems := stemSet(q)
	if a, b, ok := choiceOptions(q); ok {
		return chooseOption(q, a, b, kept)
	}
	if auxVerbs[toks[0].Lower] {
		return yesNo(q, kept)
	}
	kind := answerKind(q)
	best, bestScore := "", 0.0
	for si, sent := range sentences {
		for _, c := range candidates(sent, kind) {
			if allIn(c.text, qStems) {
				continue
			}
			score := c.weight / (1 + 0.5*float64(si)) / (1 + 0.05*float64(distanceToQuestion(sent, c.start, qStems)))
			if score > bestScore {
				best, bestScore = c.text, score
			}
		}
	}
	return best
}

var auxVerbs = toSet(`is are was were do does did can could has have had will would should`)

type span struct {
	text   string
	start  int
	weight float64
}

const (
	kindName   = "name"
	kindDate   = "date"
	kindNumber = "number"
)

func answerKind(q string) string {
	l := strings.ToLower(q)
	switch {
	case strings.HasPrefix(l, "when") || strings.Contains(l, "what year") || strings.Contains(l, "which year") || strings.Contains(l, "what date"):
		return kindDate
	case strings.Contains(l, "how many") || strings.Contains(l, "how much") || strings.Contains(l, "how old") || strings.Contains(l, "how long") || strings.Contains(l, "what percentage") || strings.Contains(l, "how far") || strings.Contains(l, "how tall"):
		return kindNumber
	}
	return kindName
}

var (
	datePattern   = regexp.MustCompile(`\b(?:(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},\s+\d{4}|\d{1,2}\s+(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4}|(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4}|\d{4})\b`)
	numberPattern = regexp.MustCompile(`\b\d[\d,.]*(?:\s+(?:million|billion|thousand|hundred|percent|%|years?|miles?|km|kilometres?|kilometers?|metres?|meters?|feet|people|members|episodes|seasons|games|square miles))?\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred)\b`)
	namePattern   = regexp.MustCompile(`(?:[A-Z][\w'’.-]*(?:\s+(?:of|the|de|da|van|von|and|&|for|to|in)\s+[A-Z][\w'’.-]*|\s+[A-Z][\w'’.-]*)*)`)
)

func candidates(sent, kind string) []span {
	var out []span
	add := func(p *regexp.Regexp, w float64) {
		for _, m := range p.FindAllStringIndex(sent, -1) {
			text := strings.Trim(sent[m[0]:m[1]], " ,.;:'\"()")
			if text == "" {
				continue
			}
			out = append(out, span{text, m[0], w})
		}
	}
	switch kind {
	case kindDate:
		add(datePattern, 2)
	case kindNumber:
		add(numberPattern, 2)
	default:
		add(namePattern, 2)
	}
	if len(out) == 0 && kind != kindName {
		add(namePattern, 0.5)
	}
	// A capitalised word opening a sentence is a name only when it is not
	// a function word.
	var kept []span
	for _, s := range out {
		words := strings.Fields(s.text)
		if s.start == 0 && stopWords[strings.ToLower(words[0])] && len(words) == 1 {
			continue
		}
		if kind == kindName && len(words) == 1 && notAName(words[0]) {
			continue
		}
		kept = append(kept, s)
	}
	return kept
}

var calendarWords = toSet(`january february march april may june july august september october november
december monday tuesday wednesday thursday friday saturday sunday`)

// notAName reports whether a capitalised word is a month, a weekday or a
// demonym ("American", "Icelandic"), which answer "which" and "who"
// questions only by accident.
func notAName(w string) bool {
	l := strings.ToLower(strings.Trim(w, ".,"))
	if calendarWords[l] || len(l) <= 1 {
		return true
	}
	for _, suf := range []string{"ican", "ian", "ean", "ish", "ese", "ic", "ch"} {
		if strings.HasSuffix(l, suf) && len(l) > len(suf)+2 {
			return true
		}
	}
	return false
}

// allIn reports whether every word of text is in the question.
func allIn(text string, q map[string]bool) bool {
	for _, t := range tokenize(text) {
		if !q[t.Stem] && !stopWords[t.Lower] {
			return false
		}
	}
	return true
}

// distanceToQuestion is how many bytes separate offset from the nearest
// question word in the sentence, in words (roughly).
func distanceToQuestion(sent string, offset int, q map[string]bool) int {
	best := len(sent)
	for _, t := range tokenize(sent) {
		if q[t.Stem] && !stopWords[t.Lower] {
			d := t.Start - offset
			if d < 0 {
				d = -d
			}
			best = min(best, d)
		}
	}
	return best / 6
}

// choiceOptions finds the two names either side of " or ": "Which band,
// Letters to Cleo or Screaming Trees, had more members?".
func choiceOptions(q string) (string, string, bool) {
	spans := namePattern.FindAllStringIndex(q, -1)
	for i := 0; i+1 < len(spans); i++ {
		between := strings.ToLower(strings.Trim(q[spans[i][1]:spans[i+1][0]], " \"'"))
		if between == "or" || between == "or the" {
			a := strings.Trim(q[spans[i][0]:spans[i][1]], " ,?\"'")
			b := strings.Trim(q[spans[i+1][0]:spans[i+1][1]], " ,?\"'")
			if a != "" && b != "" {
				return a, b, true
			}
		}
	}
	return "", "", false
}

// chooseOption answers "who was born first, A or B?" from the years in
// each option's passage, other comparisons from which option's passage
// covers more of the question.
func chooseOption(q, a, b string, kept []graphrag.Hit) string {
	pa, pb := passageFor(a, kept), passageFor(b, kept)
	l := strings.ToLower(q)
	earliest := regexp.MustCompile(`\b(first|earlier|older|oldest|before)\b`).MatchString(l)
	latest := regexp.MustCompile(`\b(later|younger|youngest|more recent|newer|after)\b`).MatchString(l)
	if earliest || latest {
		ya, yb := firstYear(pa), firstYear(pb)
		if ya > 0 && yb > 0 && ya != yb {
			if (ya < yb) == earliest {
				return a
			}
			return b
		}
	}
	terms := contentTerms(q)
	if overlapScore(pb, terms) > overlapScore(pa, terms) {
		return b
	}
	return a
}

// passageFor returns the text of the kept hit most about name.
func passageFor(name string, kept []graphrag.Hit) string {
	terms := contentTerms(name)
	best, bestScore := "", 0.0
	for _, h := range kept {
		sc := overlapScore(h.Source.Title, terms)*2 + overlapScore(h.Chunk.Text, terms)
		if sc > bestScore {
			best, bestScore = h.Source.Title+". "+h.Chunk.Text, sc
		}
	}
	return best
}

var yearPattern = regexp.MustCompile(`\b(1[0-9]{3}|20[0-9]{2})\b`)

func firstYear(text string) int {
	m := yearPattern.FindString(text)
	if m == "" {
		return 0
	}
	y, _ := strconv.Atoi(m)
	return y
}

// yesNo says yes when the kept hits hold every content word of the
// question, no otherwise.
func yesNo(q string, kept []graphrag.Hit) string {
	terms := contentTerms(q)
	if len(terms) == 0 {
		return "yes"
	}
	ev := measureEvidence(terms, kept, len(kept))
	if ev.Union >= 0.9 {
		return "yes"
	}
	return "no"
}
