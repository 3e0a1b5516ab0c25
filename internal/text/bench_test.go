package text

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// benchText is real English prose with code and numbers: the Go memory
// model from $(go env GOROOT)/doc, its HTML tags removed.
func benchText(b *testing.B) string {
	b.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "doc", "go_mem.html"))
	if err != nil {
		b.Skipf("no Go memory model to read: %v", err)
	}
	return regexp.MustCompile(`<[^>]*>`).ReplaceAllString(string(data), "")
}

// benchQuestions are questions as users ask them, for the query-sized
// benchmarks.
var benchQuestions = []string{
	"When does the nightly backup run and where does it go?",
	"what does strings.NewReader return",
	"How do I restore a custom-format dump with pg_restore?",
	"Which programming language did O'Brien's team use in 2019 for the v2.1 release?",
}

func BenchmarkTokenize(b *testing.B) {
	s := benchText(b)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Tokenize(s)
	}
}

func BenchmarkTokenizeQuestion(b *testing.B) {
	for b.Loop() {
		for _, q := range benchQuestions {
			Tokenize(q)
		}
	}
}

func BenchmarkStem(b *testing.B) {
	var words []string
	for _, t := range Tokenize(benchText(b)) {
		words = append(words, t.Lower)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, w := range words {
			Stem(w)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(words)), "ns/word")
}

func BenchmarkLooseStem(b *testing.B) {
	var words []string
	for _, t := range Tokenize(benchText(b)) {
		words = append(words, t.Lower)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, w := range words {
			LooseStem(w)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(words)), "ns/word")
}

func BenchmarkSentences(b *testing.B) {
	s := benchText(b)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Sentences(s)
	}
}

func BenchmarkChunkSentences(b *testing.B) {
	s := benchText(b)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		ChunkSentences(s)
	}
}

func BenchmarkFoldedWords(b *testing.B) {
	s := benchText(b)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		FoldedWords(s)
	}
}

func BenchmarkDecode(b *testing.B) {
	data := []byte(benchText(b))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Decode(data)
	}
}
