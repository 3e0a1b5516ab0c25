package llm

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
)

// errJSONAnswer: the writer was asked for prose and answered with a JSON
// object, the way a small model does when it mistakes the task for one of
// the structured ones (or answers every call the same way). What it wraps
// may be anything; the caller's fallback is safer than guessing.
var errJSONAnswer = errors.New("answered with a JSON object instead of text")

// codeSpan matches fenced blocks and inline code: JSON inside them is what
// the answer shows, not how it is wrapped.
var codeSpan = regexp.MustCompile("(?s)```.*?(```|$)|`[^`\n]*`")

// asksForJSON matches a question about JSON, whose answer may show some
// unmarked. Code a model shows is fenced or in backticks (codeSpan).
var asksForJSON = regexp.MustCompile(`(?i)\bjson\b`)

// jsonAnswer reports whether a prose answer carries a raw JSON object
// outside code markup, for a question that did not ask for one.
func jsonAnswer(question, text string) bool {
	if asksForJSON.MatchString(question) {
		return false
	}
	prose := codeSpan.ReplaceAllString(text, " ")
	for i := strings.IndexByte(prose, '{'); i >= 0; {
		var obj map[string]any
		if json.NewDecoder(strings.NewReader(prose[i:])).Decode(&obj) == nil && len(obj) > 0 {
			return true
		}
		next := strings.IndexByte(prose[i+1:], '{')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}
