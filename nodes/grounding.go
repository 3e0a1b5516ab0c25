package nodes

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/graphrag/graphrag"
)

// Check is validate's self-check of an answer: whether what it claims is
// in the passages it cites, and whether it is the kind of answer the
// question asks for. It is measured without a model; Ambiguous says the
// measure alone cannot decide and a Judge should.
type Check struct {
	// Support is the share of the answer's content words (by stem) found
	// in the text it cites or in the question.
	Support float64
	// Missing are the answer's exact claims (numbers, names, dates,
	// quoted strings) that the cited text does not contain.
	Missing []string
	// Kind is the kind of answer the question asks for (kindYesNo,
	// kindChoice, kindNumber, kindDate, kindName, kindAny).
	Kind string
	// Fits says the answer is of that kind: a yes or no, one of the
	// options, a number, a date, a name.
	Fits bool
	// Uncited is true when an answer drawn from passages cites none; it is
	// then checked against every kept passage.
	Uncited bool
	// Fallback says what validate returned instead when the answer failed
	// the check and no retry was left ("" when it passed or a retry was
	// prepared).
	Fallback string
}

// Supported: every exact claim is in the cited text and most content words are.
func (c Check) Supported(minSupport float64) bool {
	return len(c.Missing) == 0 && c.Support >= minSupport
}

func (c Check) String() string {
	s := fmt.Sprintf("support %.2f", c.Support)
	if len(c.Missing) > 0 {
		s += fmt.Sprintf(", not in the cited text: %s", strings.Join(c.Missing[:min(3, len(c.Missing))], ", "))
	}
	if c.Uncited {
		s += ", cites nothing"
	}
	if c.Fits {
		s += ", a " + c.Kind + " answer"
	} else {
		s += ", not a " + c.Kind + " answer"
	}
	return s
}

// Kinds of answer a question asks for, besides short.go's kindName,
// kindDate and kindNumber.
const (
	kindYesNo  = "yes/no"
	kindChoice = "choice"
	kindAny    = "any"
)

// framingWords are the words a writer wraps an answer in ("The answer,
// according to the sources, is..."): they claim nothing, so they are not
// looked for in the passages. yes and no are the answer to a yes/no
// question, checked by its kind instead.
var framingWords = toSet(`answer answers answered reply response according source sources excerpt excerpts passage
passages document documents file files text texts state states stated say says mention mentions mentioned
based given provided information question asked going yes correct indeed`)

var (
	yesNoWords = regexp.MustCompile(`\b(yes|no|not|neither|both)\b`)
	quoted     = regexp.MustCompile(`["“]([^"”]{2,80})["”]`)
	// questionWords open a wh-question; an auxiliary verb opens a yes/no one.
	whoWords = regexp.MustCompile(`(?i)^\s*(?:who|whom|whose)\b|\b(?:which|what)\s+(?:person|man|woman|actor|actress|singer|musician|writer|author|director|producer|artist|player|company|band|group|team|city|country)\b`)
)

// questionKind is the kind of answer q asks for.
func questionKind(q string) string {
	if _, _, ok := choiceOptions(q); ok {
		return kindChoice
	}
	words := strings.Fields(strings.ToLower(q))
	if len(words) > 0 && auxVerbs[strings.Trim(words[0], ",")] {
		return kindYesNo
	}
	switch answerKind(q) {
	case kindDate:
		return kindDate
	case kindNumber:
		return kindNumber
	}
	if whoWords.MatchString(q) {
		return kindName
	}
	return kindAny
}

// checkAnswer measures a written answer against the passages it cites
// (every kept passage when it cites none) and the question.
func checkAnswer(question string, a graphrag.Answer, kept []graphrag.Hit) Check {
	text := citationMark.ReplaceAllString(a.Text, " ")
	var cited strings.Builder
	for _, c := range a.Citations {
		cited.WriteString(c.Hit.Source.Title + "\n" + c.Hit.Chunk.Text + "\n" + c.Quote + "\n")
	}
	c := Check{Kind: questionKind(question)}
	if len(a.Citations) == 0 {
		c.Uncited = true
		for _, h := range kept {
			cited.WriteString(h.Source.Title + "\n" + h.Chunk.Text + "\n")
		}
	}
	src := cited.String()
	have := stemSet(src + "\n" + question)
	words := wordSet(src)

	// Exact claims: numbers, names (capitalised after a sentence's first
	// word), quoted strings.
	seen := map[string]bool{}
	miss := func(claim string) {
		if !seen[claim] {
			seen[claim] = true
			c.Missing = append(c.Missing, claim)
		}
	}
	for _, sent := range splitSentences(text) {
		for i, t := range tokenize(sent) {
			switch {
			case t.Digit:
				if !words[digitsOnly(t.Lower)] {
					miss(t.Lower)
				}
			case t.Capital && i > 0 && !nameGlue[t.Lower] && !framingWords[t.Lower] && !stopWords[t.Lower]:
				if !words[t.Lower] && !have[t.Stem] {
					miss(sent[t.Start:t.End])
				}
			}
		}
	}
	lowerSrc := strings.ToLower(strings.Join(strings.Fields(src), " "))
	for _, m := range quoted.FindAllStringSubmatch(text, -1) {
		if q := strings.ToLower(strings.Join(strings.Fields(m[1]), " ")); !strings.Contains(lowerSrc, q) {
			miss(`"` + m[1] + `"`)
		}
	}

	// Content words by stem.
	var got, total float64
	for _, t := range contentTerms(text) {
		if framingWords[t.Word] || stopWords[t.Word] { // "The answer is No"
			continue
		}
		total += t.Weight
		if have[t.Stem] || t.isNumber() && words[digitsOnly(t.Word)] {
			got += t.Weight
		}
	}
	c.Support = 1
	if total > 0 {
		c.Support = got / total
	}
	c.Fits = fitsKind(c.Kind, question, text)
	return c
}

// fitsKind reports whether answer is of the kind question asks for.
func fitsKind(kind, question, answer string) bool {
	l := " " + strings.ToLower(answer) + " "
	switch kind {
	case kindYesNo:
		return yesNoWords.MatchString(l)
	case kindChoice:
		a, b, _ := choiceOptions(question)
		return mentions(answer, a) || mentions(answer, b)
	case kindNumber:
		return numberPattern.MatchString(l)
	case kindDate:
		return datePattern.MatchString(answer) || numberPattern.MatchString(l)
	case kindName:
		for i, t := range tokenize(answer) {
			if t.Capital && (i > 0 || len(tokenize(answer)) <= 4) && !framingWords[t.Lower] {
				return true
			}
		}
		return false
	}
	// Any other question: the answer says something the question does not.
	q := stemSet(question)
	for _, t := range contentTerms(answer) {
		if !q[t.Stem] && !framingWords[t.Word] {
			return true
		}
	}
	return false
}

// mentions reports whether text holds most of option's content words.
func mentions(text, option string) bool {
	terms := contentTerms(option)
	if len(terms) == 0 {
		return false
	}
	have := stemSet(text)
	n := 0
	for _, t := range terms {
		if have[t.Stem] {
			n++
		}
	}
	return 2*n > len(terms)
}

// wordSet is the set of text's lower-case words, numbers with their
// separators removed ("1,240" and "1240" match).
func wordSet(text string) map[string]bool {
	set := map[string]bool{}
	for _, t := range tokenize(text) {
		set[t.Lower] = true
		if t.Digit {
			set[digitsOnly(t.Lower)] = true
		}
	}
	return set
}

func digitsOnly(w string) string {
	return strings.Map(func(r rune) rune {
		if r == ',' {
			return -1
		}
		return r
	}, w)
}

// unknownAnswer matches a model saying it does not know.
// An apology or "unfortunately" may open it ("I'm sorry, I don't know
// that."); a typographic apostrophe is an apostrophe.
var unknownAnswer = regexp.MustCompile(`(?i)^\W*(?:(?:i'm |i’m |i am )?sorry[,.!]?\s*(?:but\s*)?|unfortunately,?\s*)?(?:i do not know|i don['’]t know|i['’]m not sure|i am not sure|i cannot answer|i can['’]t answer|no relevant information|there is no information|not enough information)\b`)

// saysUnknown reports whether a model's answer only says it does not know:
// an abstention, whatever its wording.
func saysUnknown(text string) bool { return unknownAnswer.MatchString(text) }
