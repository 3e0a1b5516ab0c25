package nodes

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// The text hot paths of the pipeline: reading a chunk's words, a
// question's keywords, and grounding an answer in the passages it cites.
// Run them before and after a change to the text code and compare with
// benchstat:
//
//	go test ./nodes -run '^$' -bench 'Text|ContentTerms|Grounding' -count 6

// benchPassages are real English prose with code and numbers, one
// paragraph a passage: the Go memory model from $(go env GOROOT)/doc, its
// HTML tags removed.
func benchPassages(b *testing.B) []graphrag.Hit {
	b.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "doc", "go_mem.html"))
	if err != nil {
		b.Skipf("no Go memory model to read: %v", err)
	}
	text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(string(data), "")
	var hits []graphrag.Hit
	for i, p := range strings.Split(text, "\n\n") {
		if p = strings.TrimSpace(p); len(p) > 200 {
			hits = append(hits, doc("mem"+string(rune('a'+i%26))+string(rune('a'+i/26%26)), "The Go Memory Model", p))
		}
	}
	return hits
}

var benchQuestions = []string{
	"When does the nightly backup run and where does it go?",
	"what does strings.NewReader return",
	"How do I restore a custom-format dump with pg_restore?",
	"Which programming language did O'Brien's team use in 2019 for the v2.1 release?",
}

func BenchmarkTextTokenize(b *testing.B) {
	hits := benchPassages(b)
	n := 0
	for _, h := range hits {
		n += len(h.Chunk.Text)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, h := range hits {
			tokenize(h.Chunk.Text)
		}
	}
}

func BenchmarkTextStemSet(b *testing.B) {
	hits := benchPassages(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, h := range hits {
			stemSet(h.Chunk.Text)
		}
	}
}

func BenchmarkTextSentences(b *testing.B) {
	hits := benchPassages(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, h := range hits {
			splitSentences(h.Chunk.Text)
		}
	}
}

// BenchmarkContentTerms is keyword extraction from questions.
func BenchmarkContentTerms(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range benchQuestions {
			contentTerms(q)
		}
	}
}

// BenchmarkGrounding is validate's check of a three-sentence answer
// against the passage it cites.
func BenchmarkGrounding(b *testing.B) {
	hits := benchPassages(b)
	h := hits[len(hits)/2]
	sents := splitSentences(h.Chunk.Text)
	a := graphrag.Answer{
		Text:      strings.Join(sents[:min(3, len(sents))], " ") + " [1]",
		Citations: []graphrag.Citation{{N: 1, Hit: h}},
	}
	q := "What does the Go memory model say about data races?"
	b.ReportAllocs()
	for b.Loop() {
		checkAnswer(q, a, hits[:5])
	}
}
