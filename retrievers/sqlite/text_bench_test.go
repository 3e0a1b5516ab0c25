package sqlite

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/internal/text"
)

// The store's text hot paths: building a keyword query from a question,
// and splitting candidate chunks into words to re-rank them. Compare
// before and after a change with benchstat:
//
//	go test ./retrievers/sqlite -run '^$' -bench 'QueryTerms|ChunkWords' -count 6

var benchQuestions = []string{
	"When does the nightly backup run and where does it go?",
	"what does strings.NewReader return",
	"How do I restore a custom-format dump with pg_restore?",
	"Which programming language did O'Brien's team use in 2019 for the v2.1 release?",
	"Qu'est-ce que le café crème à Montréal?",
}

func BenchmarkQueryTerms(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range benchQuestions {
			matchExpr(terms(q))
		}
	}
}

// BenchmarkChunkWords splits real prose (the Go memory model from
// $(go env GOROOT)/doc, its HTML tags removed) into the index's words.
func BenchmarkChunkWords(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "doc", "go_mem.html"))
	if err != nil {
		b.Skipf("no Go memory model to read: %v", err)
	}
	prose := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(string(data), "")
	b.SetBytes(int64(len(prose)))
	b.ReportAllocs()
	for b.Loop() {
		text.FoldedWords(prose)
	}
}
