package nodes

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
)

// msgNeedsModel ends a direct answer that needs a language model.
const msgNeedsModel = NoAnswer + " This question needs general knowledge, and no language model is configured to answer it: configure one (see graphrag run --help) or ask about your own files."

// msgModelFailed ends a direct answer the configured model could not give:
// it failed, or what it said was not an answer. Nothing it said is shown.
const msgModelFailed = NoAnswer + " This question needs general knowledge, and the language model gave no usable answer (the notes say why): check it with `graphrag doctor`, or ask about your own files."

// msgCannotAct answers a request to act (Plan.Kind "action").
const msgCannotAct = "graphrag only reads: it answers questions from your files and cannot carry out requests such as moving money, booking, sending, or changing or deleting files. Ask what your files say about it instead."

// direct answers without retrieval: small talk and arithmetic
// deterministically, a request to act with what graphrag cannot do,
// anything else through the Writer when there is one.
func (p *pipeline) direct(ctx context.Context, s *State) graphrag.Answer {
	if text, ok := directAnswer(s.Query, p.now); ok {
		return graphrag.Answer{Text: text, By: "direct", Grounding: 1, Coverage: 1}
	}
	if s.Plan.Kind == classAction {
		// Not even a model may answer it: it would claim to have acted.
		return graphrag.Answer{Text: msgCannotAct, Abstained: true, By: "direct"}
	}
	if p.deps.Writer != nil && !s.modelDown {
		a, err := p.deps.Writer.Write(ctx, graphrag.WriteRequest{Query: s.question(), History: s.History}, func(string) {})
		s.addUsage("generate", a.Usage)
		if err == nil && strings.TrimSpace(a.Text) != "" {
			if a.By == "" {
				a.By = "llm"
			}
			a.Abstained = a.Abstained || saysUnknown(a.Text)
			return a
		}
		if err == nil {
			err = errors.New("empty answer")
		}
		s.modelFailed(ctx, err, "generate: writer failed on a direct question: %v", err)
		return graphrag.Answer{Text: msgModelFailed, Abstained: true, By: "direct"}
	}
	return graphrag.Answer{Text: msgNeedsModel, Abstained: true, By: "direct"}
}

var (
	percentOf = regexp.MustCompile(`(?i)(\d+(?:\.\d+)?)\s*(?:%|percent)\s*of\s*(\d+(?:\.\d+)?)`)
	binaryOp  = regexp.MustCompile(`(?i)(-?\d+(?:\.\d+)?)\s*(\+|-|\*|x|×|/|\^|plus|minus|times|multiplied by|divided by|over|to the power of)\s*(-?\d+(?:\.\d+)?)`)
	squareOf  = regexp.MustCompile(`(?i)square root of (\d+(?:\.\d+)?)|(\d+(?:\.\d+)?) squared`)
	greeting  = regexp.MustCompile(`(?i)^\s*(hi|hello|hey|howdy|good (morning|afternoon|evening))\b`)
	thanks    = regexp.MustCompile(`(?i)\b(thanks|thank you|grateful)\b`)
	farewell  = regexp.MustCompile(`(?i)\b(bye|goodbye|see you|good night|going now|that's all)\b`)
	timeAsk   = regexp.MustCompile(`(?i)\bwhat('s| is) (the )?(time|date|day)\b|what time is it`)
)

// directAnswer answers what needs neither files nor a model.
func directAnswer(q string, now func() time.Time) (string, bool) {
	if s, ok := convertUnits(q); ok {
		return s, true
	}
	// Identifiers hold digits and dashes but are no calculation.
	q = maskIdentifiers(q)
	if m := percentOf.FindStringSubmatch(q); m != nil {
		a, _ := strconv.ParseFloat(m[1], 64)
		b, _ := strconv.ParseFloat(m[2], 64)
		return fmt.Sprintf("%s%% of %s is %s.", m[1], m[2], num(a*b/100)), true
	}
	if m := squareOf.FindStringSubmatch(q); m != nil {
		if m[1] != "" {
			x, _ := strconv.ParseFloat(m[1], 64)
			return fmt.Sprintf("The square root of %s is %s.", m[1], num(math.Sqrt(x))), true
		}
		x, _ := strconv.ParseFloat(m[2], 64)
		return fmt.Sprintf("%s squared is %s.", m[2], num(x*x)), true
	}
	if m := binaryOp.FindStringSubmatch(q); m != nil {
		a, _ := strconv.ParseFloat(m[1], 64)
		b, _ := strconv.ParseFloat(m[3], 64)
		var r float64
		switch strings.ToLower(m[2]) {
		case "+", "plus":
			r = a + b
		case "-", "minus":
			r = a - b
		case "*", "x", "×", "times", "multiplied by":
			r = a * b
		case "/", "divided by", "over":
			if b == 0 {
				return "Division by zero is undefined.", true
			}
			r = a / b
		case "^", "to the power of":
			r = math.Pow(a, b)
		}
		return fmt.Sprintf("%s %s %s = %s.", m[1], m[2], m[3], num(r)), true
	}
	switch {
	case timeAsk.MatchString(q):
		return "It is " + now().Format("Monday, 2 January 2006, 15:04") + ".", true
	case greeting.MatchString(q):
		return "Hello! Ask me anything about your files.", true
	case thanks.MatchString(q):
		return "You're welcome.", true
	case farewell.MatchString(q):
		return "Goodbye!", true
	}
	return "", false
}

func num(x float64) string { return strconv.FormatFloat(math.Round(x*1e6)/1e6, 'f', -1, 64) }
