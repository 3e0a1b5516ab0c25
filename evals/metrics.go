package evals

import (
	"math"
	"slices"
	"sort"

	"github.com/graphrag/graphrag"
)

// Prediction is one routing decision next to its expected label.
type Prediction struct {
	Want, Got string
}

// ClassScore is precision, recall and F1 of one class.
type ClassScore struct {
	Precision Score `json:"precision"`
	Recall    Score `json:"recall"`
	F1        Score `json:"f1"`
	// Support is how many rows expect the class.
	Support int `json:"support"`
	// Predicted is how many rows were given the class.
	Predicted int `json:"predicted"`
}

// Classification scores a set of predictions.
type Classification struct {
	N        int   `json:"n"`
	Accuracy Score `json:"accuracy"`
	// MacroF1 averages F1 over the classes that occur among the expected
	// labels (a class only ever predicted lowers the others' recall, not
	// the average's denominator).
	MacroF1  Score                 `json:"macro_f1"`
	PerClass map[string]ClassScore `json:"per_class"`
	// Confusion counts rows by expected label, then by predicted label.
	Confusion map[string]map[string]int `json:"confusion"`
}

// Classify computes accuracy, macro-F1, per-class precision and recall and
// the confusion matrix of preds. An empty input scores zero with N 0.
func Classify(preds []Prediction) Classification {
	c := Classification{N: len(preds), PerClass: map[string]ClassScore{}, Confusion: map[string]map[string]int{}}
	if len(preds) == 0 {
		return c
	}
	correct := 0
	support := map[string]int{}
	predicted := map[string]int{}
	tp := map[string]int{}
	for _, p := range preds {
		if c.Confusion[p.Want] == nil {
			c.Confusion[p.Want] = map[string]int{}
		}
		c.Confusion[p.Want][p.Got]++
		support[p.Want]++
		predicted[p.Got]++
		if p.Want == p.Got {
			correct++
			tp[p.Want]++
		}
	}
	c.Accuracy = Score(ratio(correct, len(preds)))
	labels := map[string]bool{}
	for l := range support {
		labels[l] = true
	}
	for l := range predicted {
		labels[l] = true
	}
	var f1sum float64
	for l := range labels {
		prec, rec := ratio(tp[l], predicted[l]), ratio(tp[l], support[l])
		f1 := 0.0
		if prec+rec > 0 {
			f1 = 2 * prec * rec / (prec + rec)
		}
		c.PerClass[l] = ClassScore{Precision: Score(prec), Recall: Score(rec), F1: Score(f1), Support: support[l], Predicted: predicted[l]}
		if support[l] > 0 {
			f1sum += f1
		}
	}
	c.MacroF1 = Score(f1sum / float64(len(support)))
	return c
}

// Coarse maps a route to its coarse class: vector and hybrid (and Local)
// become Local, the others stay.
func Coarse(route string) string {
	switch route {
	case string(graphrag.RouteVector), string(graphrag.RouteHybrid), Local:
		return Local
	}
	return route
}

// CoarsePredictions maps both sides of every prediction with Coarse.
func CoarsePredictions(preds []Prediction) []Prediction {
	out := make([]Prediction, len(preds))
	for i, p := range preds {
		out[i] = Prediction{Want: Coarse(p.Want), Got: Coarse(p.Got)}
	}
	return out
}

// RankedDocs turns hits into document ids, best first, each once: a
// document's rank is that of its best chunk. A corpus row's document id
// (graphrag.RowDocID) becomes the row's own id, the one gold passages name.
func RankedDocs(hits []graphrag.Hit) []string {
	seen := map[string]bool{}
	var ids []string
	for _, h := range hits {
		id := h.Chunk.DocID
		if id == "" {
			id = h.Source.DocID
		}
		if row, ok := graphrag.RowID(id, h.Source.Path); ok {
			id = row
		}
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		ids = append(ids, id)
	}
	return ids
}

// RecallAt is the share of gold ids among the first k of ranked.
func RecallAt(ranked, gold []string, k int) float64 {
	if len(gold) == 0 {
		return 0
	}
	return float64(goldIn(ranked, gold, k)) / float64(len(set(gold)))
}

// AllGoldAt reports whether every gold id is among the first k of ranked
// ("both gold passages in the top k" for two-passage multi-hop questions).
func AllGoldAt(ranked, gold []string, k int) bool {
	return len(gold) > 0 && goldIn(ranked, gold, k) == len(set(gold))
}

// ReciprocalRank is 1/rank of the first gold id in ranked, 0 if none.
func ReciprocalRank(ranked, gold []string) float64 {
	g := set(gold)
	for i, id := range ranked {
		if g[id] {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// NDCGAt is the normalised discounted cumulative gain of the first k of
// ranked with binary relevance (a gold id has gain 1).
func NDCGAt(ranked, gold []string, k int) float64 {
	g := set(gold)
	if len(g) == 0 || k <= 0 {
		return 0
	}
	var dcg, ideal float64
	for i, id := range ranked[:min(k, len(ranked))] {
		if g[id] {
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	for i := range min(k, len(g)) {
		ideal += 1 / math.Log2(float64(i+2))
	}
	return dcg / ideal
}

func goldIn(ranked, gold []string, k int) int {
	g := set(gold)
	n := 0
	for _, id := range ranked[:min(max(k, 0), len(ranked))] {
		if g[id] {
			n++
			delete(g, id)
		}
	}
	return n
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// Percentile is the nearest-rank p-th percentile (0 < p <= 100) of xs; 0
// for no values. xs is not modified.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(rank, 1), len(s))-1]
}

// Mean is the arithmetic mean of xs, 0 for none.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
