package llm

import "testing"

func TestJSONAnswer(t *testing.T) {
	tests := []struct {
		name, question, text string
		want                 bool
	}{
		{"a JSON object for a prose question", "who wrote Hamlet", `Sure! Here is the JSON: {"response": "Shakespeare"} Let me know if you need anything else!`, true},
		{"the whole reply an object", "what is the capital of France", `{"answer": "Paris", "citations": [1]}`, true},
		{"prose", "what is the capital of France", "The capital of France is Paris [1].", false},
		{"braces that are not JSON", "how do I write a set in maths", "A set is written with braces, as in {1, 2, 3} [1].", false},
		{"JSON shown as inline code", "what does the config file hold", "It holds `{\"port\": 8080}` [1].", false},
		{"Go code in a fence", "how do I make a map in Go", "Use a composite literal:\n```go\nm := map[string]int{\"a\": 1}\n```\n[1]", false},
		{"an unclosed fence", "how do I make a map in Go", "```go\nm := map[string]int{\"a\": 1}", false},
		{"the question asks for JSON", "what does the JSON response look like", `It looks like {"status": "ok"} [2].`, false},
		{"an empty object", "what is returned", "It returns {} when nothing matched [1].", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := jsonAnswer(tt.question, tt.text); got != tt.want {
				t.Errorf("jsonAnswer(%q, %q) = %v, want %v", tt.question, tt.text, got, tt.want)
			}
		})
	}
}
