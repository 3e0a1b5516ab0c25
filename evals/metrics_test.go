package evals

import (
	"math"
	"testing"

	"github.com/graphrag/graphrag"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-4 }

func TestClassify(t *testing.T) {
	// Hand-computed: support a=2 b=1 c=1; predicted a=2 b=2; correct a=1 b=1.
	// a: P 1/2 R 1/2 F1 .5; b: P 1/2 R 1 F1 2/3; c: P 0 R 0 F1 0.
	// Accuracy 2/4; macro-F1 (0.5 + 0.6667 + 0) / 3.
	c := Classify([]Prediction{{"a", "a"}, {"a", "b"}, {"b", "b"}, {"c", "a"}})
	tests := []struct {
		name      string
		got, want float64
	}{
		{"accuracy", float64(c.Accuracy), 0.5},
		{"macro-F1", float64(c.MacroF1), (0.5 + 2.0/3) / 3},
		{"a precision", float64(c.PerClass["a"].Precision), 0.5},
		{"a recall", float64(c.PerClass["a"].Recall), 0.5},
		{"b precision", float64(c.PerClass["b"].Precision), 0.5},
		{"b recall", float64(c.PerClass["b"].Recall), 1},
		{"b F1", float64(c.PerClass["b"].F1), 2.0 / 3},
		{"c F1", float64(c.PerClass["c"].F1), 0},
		{"confusion a->b", float64(c.Confusion["a"]["b"]), 1},
		{"confusion c->a", float64(c.Confusion["c"]["a"]), 1},
		{"b support", float64(c.PerClass["b"].Support), 1},
		{"b predicted", float64(c.PerClass["b"].Predicted), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !near(tt.got, tt.want) {
				t.Errorf("got %.4f, want %.4f", tt.got, tt.want)
			}
		})
	}
	t.Run("empty", func(t *testing.T) {
		if e := Classify(nil); e.N != 0 || e.Accuracy != 0 || e.MacroF1 != 0 {
			t.Errorf("Classify(nil) = %+v", e)
		}
	})
}

func TestCoarse(t *testing.T) {
	tests := map[string]string{"vector": Local, "hybrid": Local, "local": Local, "web": "web", "filesystem": "filesystem", "direct": "direct", "error": "error"}
	for in, want := range tests {
		t.Run(in, func(t *testing.T) {
			if got := Coarse(in); got != want {
				t.Errorf("Coarse(%q) = %q, want %q", in, got, want)
			}
		})
	}
	// Coarse accuracy: hybrid routed vector is right, web routed vector is wrong.
	c := Classify(CoarsePredictions([]Prediction{{"hybrid", "vector"}, {Local, "hybrid"}, {"web", "vector"}, {"direct", "direct"}}))
	if !near(float64(c.Accuracy), 0.75) {
		t.Errorf("coarse accuracy = %.4f, want 0.75", c.Accuracy)
	}
}

func TestRetrievalMetrics(t *testing.T) {
	ranked := []string{"x", "g1", "y", "g2"}
	gold := []string{"g1", "g2"}
	// nDCG: DCG = 1/log2(3) + 1/log2(5); ideal = 1 + 1/log2(3).
	ndcg := (1/math.Log2(3) + 1/math.Log2(5)) / (1 + 1/math.Log2(3))
	tests := []struct {
		name      string
		got, want float64
	}{
		{"recall@1", RecallAt(ranked, gold, 1), 0},
		{"recall@2", RecallAt(ranked, gold, 2), 0.5},
		{"recall@10", RecallAt(ranked, gold, 10), 1},
		{"recall duplicate gold", RecallAt(ranked, []string{"g1", "g1"}, 2), 1},
		{"recall no gold", RecallAt(ranked, nil, 10), 0},
		{"rr", ReciprocalRank(ranked, gold), 0.5},
		{"rr first", ReciprocalRank([]string{"g2"}, gold), 1},
		{"rr none", ReciprocalRank([]string{"x"}, gold), 0},
		{"ndcg@10", NDCGAt(ranked, gold, 10), ndcg},
		{"ndcg@1", NDCGAt(ranked, gold, 1), 0},
		{"ndcg perfect", NDCGAt([]string{"g2", "g1", "x"}, gold, 10), 1},
		{"ndcg one gold at 3", NDCGAt([]string{"x", "y", "g1"}, []string{"g1"}, 10), 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !near(tt.got, tt.want) {
				t.Errorf("got %.4f, want %.4f", tt.got, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		name string
		k    int
		want bool
	}{{"both@2", 2, false}, {"both@4", 4, true}, {"both@0", 0, false}} {
		t.Run(tt.name, func(t *testing.T) {
			if got := AllGoldAt(ranked, gold, tt.k); got != tt.want {
				t.Errorf("AllGoldAt(k=%d) = %v", tt.k, got)
			}
		})
	}
}

func TestRankedDocs(t *testing.T) {
	hit := func(doc string) graphrag.Hit { return graphrag.Hit{Chunk: graphrag.Chunk{DocID: doc}} }
	// A corpus row's document id (graphrag.RowDocID, as ingest makes it)
	// counts as the row's own id, the one gold passages name.
	row := func(path, id string) graphrag.Hit {
		return graphrag.Hit{Chunk: graphrag.Chunk{DocID: graphrag.RowDocID(path, id)}, Source: graphrag.Source{Path: path}}
	}
	got := RankedDocs([]graphrag.Hit{hit("a"), hit("b"), hit("a"), {Source: graphrag.Source{DocID: "c"}}, hit(""),
		row("/data/corpus.jsonl", "d"), row("/data/corpus.jsonl", "a"), row("/data/c#2.jsonl", "e#1")})
	want := []string{"a", "b", "c", "d", "e#1"}
	if len(got) != len(want) {
		t.Fatalf("RankedDocs = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("RankedDocs = %v, want %v", got, want)
		}
	}
}

func TestAnswerMetrics(t *testing.T) {
	tests := []struct {
		name      string
		got, want float64
	}{
		{"em articles and case", ExactMatch("The Beatles", []string{"beatles"}), 1},
		{"em punctuation", ExactMatch("U.S.A.", []string{"USA"}), 1},
		{"em max over answers", ExactMatch("1943", []string{"1942", "1943"}), 1},
		{"em miss", ExactMatch("Ronald Shusett produced it", []string{"Ronald Shusett"}), 0},
		// pred [ronald shusett produced it], gold [ronald shusett]: P 2/4, R 1.
		{"f1 partial", TokenF1("Ronald Shusett produced it", []string{"Ronald Shusett"}), 2.0 / 3},
		{"f1 max over answers", TokenF1("Ronald Shusett", []string{"nobody", "Ronald Shusett"}), 1},
		{"f1 repeated tokens", TokenF1("the the cat cat", []string{"cat"}), 2 * 0.5 * 1 / 1.5},
		{"f1 no overlap", TokenF1("yes", []string{"no"}), 0},
		{"f1 both empty", TokenF1("the", []string{"a"}), 1},
		{"f1 empty prediction", TokenF1("", []string{"cat"}), 0},
		{"contains", ContainsAnswer("It was Ronald Shusett, they say.", []string{"ronald shusett"}), 1},
		{"contains whole words", ContainsAnswer("Ronaldo scored", []string{"Ronald"}), 0},
		{"contains empty answer", ContainsAnswer("anything", []string{"the"}), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !near(tt.got, tt.want) {
				t.Errorf("got %.4f, want %.4f", tt.got, tt.want)
			}
		})
	}
	t.Run("normalize", func(t *testing.T) {
		if got := NormalizeAnswer("  The  Quick, brown fox!  an apple $5 "); got != "quick brown fox apple 5" {
			t.Errorf("NormalizeAnswer = %q", got)
		}
	})
	t.Run("best span", func(t *testing.T) {
		span, f1 := BestSpan("The film was produced by Ronald Shusett in 1979.", []string{"Ronald Shusett"}, 4)
		if span != "Ronald Shusett" || f1 != 1 {
			t.Errorf("BestSpan = %q %.3f", span, f1)
		}
	})
}

func TestPercentile(t *testing.T) {
	ten := []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	tests := []struct {
		name    string
		xs      []float64
		p, want float64
	}{
		{"p50 of 10", ten, 50, 5},
		{"p95 of 10", ten, 95, 10},
		{"p100", ten, 100, 10},
		{"p50 of 3", []float64{3, 1, 2}, 50, 2},
		{"tiny p", []float64{3, 1, 2}, 1, 1},
		{"empty", nil, 50, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Percentile(tt.xs, tt.p); got != tt.want {
				t.Errorf("Percentile(%v) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
	if ten[0] != 10 {
		t.Error("Percentile sorted its input")
	}
	if m := Mean([]float64{1, 2, 6}); m != 3 {
		t.Errorf("Mean = %v", m)
	}
}
