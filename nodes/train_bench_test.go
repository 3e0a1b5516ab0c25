package nodes

import "testing"

// BenchmarkTrainClassifier is the one-off cost of the first route decision.
func BenchmarkTrainClassifier(b *testing.B) {
	ex, err := parseExemplars(exemplarData)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		trainClassifier(ex, 40)
	}
}
