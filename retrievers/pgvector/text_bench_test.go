package pgvector

import "testing"

// BenchmarkQueryWords is building a keyword query from questions, the
// store's text hot path in Go (the rest happens in PostgreSQL):
//
//	go test ./retrievers/pgvector -run '^$' -bench QueryWords -count 6
func BenchmarkQueryWords(b *testing.B) {
	questions := []string{
		"When does the nightly backup run and where does it go?",
		"what does strings.NewReader return",
		"How do I restore a custom-format dump with pg_restore?",
		"Which programming language did O'Brien's team use in 2019 for the v2.1 release?",
		"Qu'est-ce que le café crème à Montréal?",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range questions {
			w := queryWords(q)
			orQuery(w)
			pairQuery(w)
		}
	}
}
