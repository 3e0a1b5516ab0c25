package nodes

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/graphrag/graphrag"
)

// router_exemplars.jsonl holds labelled everyday queries, one JSON object a
// line: {"route": "...", "query": "..."}. They were written for graphrag and
// share no row with the evaluation data.
//
//go:embed router_exemplars.jsonl
var exemplarData []byte

// classifier is a multinomial logistic regression over hashed word and
// character n-gram features. Training is deterministic: fixed seed, fixed
// epochs, so the same exemplars give the same model on every machine.
type classifier struct {
	classes []graphrag.Route
	// w[c*dim+f] is the weight of feature f for class c.
	w    []float64
	bias []float64
}

const (
	featureBits = 18
	featureDim  = 1 << featureBits
)

// exemplar is one labelled training query.
type exemplar struct {
	Route graphrag.Route `json:"route"`
	Query string         `json:"query"`
}

var (
	defaultClassifierOnce sync.Once
	defaultClassifier     *classifier
	defaultClassifierErr  error
)

// learnedRouter returns the classifier trained on the embedded exemplars,
// training it at first use.
func learnedRouter() (*classifier, error) {
	defaultClassifierOnce.Do(func() {
		ex, err := parseExemplars(exemplarData)
		if err != nil {
			defaultClassifierErr = err
			return
		}
		defaultClassifier = trainClassifier(ex, 40)
	})
	return defaultClassifier, defaultClassifierErr
}

func parseExemplars(data []byte) ([]exemplar, error) {
	var out []exemplar
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e exemplar
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("router exemplars line %d: %w", line, err)
		}
		if !e.Route.Valid() || strings.TrimSpace(e.Query) == "" {
			return nil, fmt.Errorf("router exemplars line %d: route %q or empty query: %w", line, e.Route, graphrag.ErrInvalidQuery)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// features returns the hashed feature indexes of a query, with repeats.
func features(query string) []uint32 {
	toks := tokenize(query)
	var feats []uint32
	add := func(kind, s string) {
		h := fnv.New32a()
		h.Write([]byte(kind))
		h.Write([]byte{0})
		h.Write([]byte(s))
		feats = append(feats, h.Sum32()&(featureDim-1))
	}
	prev := "<s>"
	for _, t := range toks {
		w := t.Lower
		if t.Digit {
			w = digitShape(w)
		}
		add("w", w)
		add("b", prev+" "+w)
		prev = w
		padded := " " + w + " "
		runes := []rune(padded)
		for n := 3; n <= 5; n++ {
			for i := 0; i+n <= len(runes); i++ {
				add("c", string(runes[i:i+n]))
			}
		}
	}
	add("b", prev+" </s>")
	for _, shape := range queryShapes(query) {
		add("shape", shape)
	}
	add("bias", "")
	return feats
}

// digitShape maps digits to 0 so "E1045" and "E2231" share a feature.
func digitShape(w string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '0'
		}
		return r
	}, w)
}

// queryShapes are coarse surface features: identifiers, file names,
// arithmetic, a question mark, length.
func queryShapes(q string) []string {
	var out []string
	if identifierPattern.MatchString(q) {
		out = append(out, "identifier")
	}
	if fileNamePattern.MatchString(q) {
		out = append(out, "filename")
	}
	if isArithmetic(q) {
		out = append(out, "arithmetic")
	}
	names := 0
	for i, t := range tokenize(q) {
		if i > 0 && t.Capital && !stopWords[t.Lower] {
			names++
		}
	}
	switch {
	case names >= 2:
		out = append(out, "names")
	case names == 1:
		out = append(out, "name")
	}
	if strings.HasSuffix(strings.TrimSpace(q), "?") {
		out = append(out, "question")
	}
	n := len(strings.Fields(q))
	switch {
	case n <= 3:
		out = append(out, "short")
	case n >= 12:
		out = append(out, "long")
	}
	return out
}

func trainClassifier(ex []exemplar, epochs int) *classifier {
	c := &classifier{classes: slices.Clone(graphrag.Routes)}
	k := len(c.classes)
	c.w = make([]float64, k*featureDim)
	c.bias = make([]float64, k)
	type sample struct {
		feats []uint32
		class int
	}
	samples := make([]sample, len(ex))
	for i, e := range ex {
		samples[i] = sample{features(e.Query), slices.Index(c.classes, e.Route)}
	}
	rng := rand.New(rand.NewPCG(20240601, 7))
	probs := make([]float64, k)
	const l2 = 1e-5
	for epoch := 0; epoch < epochs; epoch++ {
		lr := 0.5 / (1 + 0.1*float64(epoch))
		rng.Shuffle(len(samples), func(i, j int) { samples[i], samples[j] = samples[j], samples[i] })
		for _, s := range samples {
			c.scores(s.feats, probs)
			softmax(probs)
			for cl := 0; cl < k; cl++ {
				g := probs[cl]
				if cl == s.class {
					g -= 1
				}
				if g == 0 {
					continue
				}
				step := lr * g / math.Sqrt(float64(len(s.feats)))
				base := cl * featureDim
				for _, f := range s.feats {
					c.w[base+int(f)] -= step + lr*l2*c.w[base+int(f)]
				}
				c.bias[cl] -= lr * g * 0.1
			}
		}
	}
	return c
}

func (c *classifier) scores(feats []uint32, out []float64) {
	norm := 1 / math.Sqrt(float64(len(feats)))
	for cl := range c.classes {
		s := c.bias[cl]
		base := cl * featureDim
		for _, f := range feats {
			s += c.w[base+int(f)] * norm
		}
		out[cl] = s
	}
}

func softmax(x []float64) {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	var sum float64
	for i, v := range x {
		x[i] = math.Exp(v - m)
		sum += x[i]
	}
	for i := range x {
		x[i] /= sum
	}
}

// prediction is the classifier's view of a query: a probability per route.
type prediction struct {
	Probs map[graphrag.Route]float64
	// Best and Second are the two likeliest routes; Margin is the gap.
	Best, Second graphrag.Route
	Margin       float64
}

func (c *classifier) predict(query string) prediction {
	probs := make([]float64, len(c.classes))
	c.scores(features(query), probs)
	softmax(probs)
	p := prediction{Probs: make(map[graphrag.Route]float64, len(c.classes))}
	order := make([]int, len(c.classes))
	for i := range order {
		order[i] = i
		p.Probs[c.classes[i]] = probs[i]
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case probs[a] > probs[b]:
			return -1
		case probs[a] < probs[b]:
			return 1
		}
		return 0
	})
	p.Best, p.Second = c.classes[order[0]], c.classes[order[1]]
	p.Margin = probs[order[0]] - probs[order[1]]
	return p
}

// without returns the prediction with route r taken out: the next likeliest
// route becomes Best.
func (p prediction) without(r graphrag.Route) prediction {
	q := prediction{Probs: make(map[graphrag.Route]float64, len(p.Probs))}
	var rest float64
	for k, v := range p.Probs {
		if k != r {
			q.Probs[k] = v
			rest += v
		}
	}
	for _, k := range graphrag.Routes {
		v, ok := q.Probs[k]
		if !ok {
			continue
		}
		if rest > 0 {
			q.Probs[k] = v / rest
		}
		switch {
		case q.Best == "" || q.Probs[k] > q.Probs[q.Best]:
			q.Second, q.Best = q.Best, k
		case q.Second == "" || q.Probs[k] > q.Probs[q.Second]:
			q.Second = k
		}
	}
	q.Margin = q.Probs[q.Best] - q.Probs[q.Second]
	return q
}
