package evals

import (
	"regexp"
	"strings"
	"unicode"
)

// NormalizeAnswer is SQuAD's answer normalisation: lower case, ASCII
// punctuation removed, the articles a, an and the removed, whitespace
// collapsed.
func NormalizeAnswer(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && unicode.IsPunct(r) || strings.ContainsRune("$+<=>^`|~", r) {
			return -1
		}
		return r
	}, s)
	words := strings.Fields(s)
	out := words[:0]
	for _, w := range words {
		if w != "a" && w != "an" && w != "the" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// ExactMatch is 1 when the normalised prediction equals a normalised gold
// answer, the maximum over answers.
func ExactMatch(prediction string, answers []string) float64 {
	p := NormalizeAnswer(prediction)
	for _, a := range answers {
		if p == NormalizeAnswer(a) {
			return 1
		}
	}
	return 0
}

// TokenF1 is SQuAD's token-overlap F1 between the normalised prediction and
// a gold answer, the maximum over answers. When either side has no tokens
// it is 1 if both have none, else 0.
func TokenF1(prediction string, answers []string) float64 {
	p := strings.Fields(NormalizeAnswer(prediction))
	best := 0.0
	for _, a := range answers {
		best = max(best, tokenF1(p, strings.Fields(NormalizeAnswer(a))))
	}
	return best
}

func tokenF1(pred, gold []string) float64 {
	if len(pred) == 0 || len(gold) == 0 {
		if len(pred) == len(gold) {
			return 1
		}
		return 0
	}
	counts := map[string]int{}
	for _, t := range gold {
		counts[t]++
	}
	same := 0
	for _, t := range pred {
		if counts[t] > 0 {
			counts[t]--
			same++
		}
	}
	if same == 0 {
		return 0
	}
	prec := float64(same) / float64(len(pred))
	rec := float64(same) / float64(len(gold))
	return 2 * prec * rec / (prec + rec)
}

// ContainsAnswer is 1 when a normalised gold answer occurs in the normalised
// prediction as whole words: a lenient score for long, extractive answers
// that EM and F1 punish for their length.
func ContainsAnswer(prediction string, answers []string) float64 {
	p := " " + NormalizeAnswer(prediction) + " "
	for _, a := range answers {
		if n := NormalizeAnswer(a); n != "" && strings.Contains(p, " "+n+" ") {
			return 1
		}
	}
	return 0
}

// BestSpan returns the span of prediction's words (at most maxWords long)
// with the highest token F1 against answers, and that F1. It is an oracle:
// an upper bound on what a short-answer extractor could reach from this
// text, reported apart from EM and F1.
func BestSpan(prediction string, answers []string, maxWords int) (string, float64) {
	words := strings.Fields(prediction)
	best, bestF1 := "", 0.0
	for i := range words {
		for j := i + 1; j <= min(len(words), i+maxWords); j++ {
			span := strings.Join(words[i:j], " ")
			if f := TokenF1(span, answers); f > bestF1 {
				best, bestF1 = span, f
			}
		}
	}
	return best, bestF1
}

var (
	citationMarks = regexp.MustCompile(`\s*\[\d+(?:\s*[,;]\s*\d+)*\]`)
	// sentenceEnd ends a sentence at ". X" but not after an initial
	// ("J. R. R. Tolkien").
	sentenceEnd = regexp.MustCompile(`[^A-Z][.!?]\s+[A-Z"']`)
	// framing is the clause a model puts before its answer: "The answer is",
	// "Going by the sources, the reply to that is", "Answer:".
	framing = regexp.MustCompile(`(?i)^(?:[^.]*?\b(?:answer|reply|response)\b[^.]*?\b(?:is|was|are|would be)\b|answer\s*:)\s*`)
	yesNo   = regexp.MustCompile(`(?i)^(yes|no)\b`)
)

// ExtractShort returns the short answer a model's sentence states, for
// EM and F1: "The answer is Tori Amos [1]." → "Tori Amos", "Tori Amos [2]"
// → "Tori Amos", "Yes, both are American [1]." → "yes". It reads the first
// sentence only, drops citation markers and a framing clause, and trims
// the final punctuation; an answer with no framing is returned whole.
func ExtractShort(answer string) string {
	s := strings.TrimSpace(citationMarks.ReplaceAllString(answer, ""))
	if m := sentenceEnd.FindStringIndex(s); m != nil {
		s = s[:m[0]+2]
	}
	if m := yesNo.FindStringSubmatch(s); m != nil {
		return strings.ToLower(m[1])
	}
	s = framing.ReplaceAllString(s, "")
	return strings.TrimSpace(strings.TrimRight(s, " .!?;:,\"'"))
}
