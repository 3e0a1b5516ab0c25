package llm_test

import (
	"testing"

	"github.com/graphrag/graphrag/llm"
)

// The parser runs once per decision; it should cost microseconds next to
// the model's seconds, even on the messy forms.
func BenchmarkParseRoutePlan(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"plain", `{"route":"hybrid","query":"q","keywords":["invoice","INV-1"],"file_types":["pdf"],"source_hint":"","time":"any"}`},
		{"fenced prose", "Sure! Here you go:\n```json\n{\"route\": \"web\", \"keywords\": [\"news\"]}\n```\nAnything else?"},
		{"single quotes", `{'route': 'filesystem', 'keywords': ['pdf', 'files',],}`},
		{"function call", `route(route="hybrid", keywords=["INV-7", "total"])`},
		{"regex fallback", `I would say "route" = "web" here because it needs news.`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := llm.ParseRoutePlan(bc.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParseChunkGrades(b *testing.B) {
	in := `{"relevant":[3,1,5],"facts":[{"chunk":3,"text":"The total is 1,240 EUR."},{"chunk":1,"text":"Invoice INV-7 is from ACME."},{"chunk":5,"text":"Due 3 May 2024."}]}`
	for b.Loop() {
		if _, err := llm.ParseChunkGrades(in, 8); err != nil {
			b.Fatal(err)
		}
	}
}
