package nodes

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/graphrag/graphrag"
)

// routerdata/model.bin is the trained router, written by
// `go generate ./nodes` (TestRouterModelIsCurrent with -update-router) from
// the policy and training data in routerdata/. The process loads it; it
// never trains at start-up.
//
//go:generate go test -run ^TestRouterModelIsCurrent$ -update-router .
//go:embed routerdata/model.bin
var modelData []byte

// classifier is a multinomial logistic regression over hashed word, word
// bigram and character n-gram features, with weights quantised to int16.
type classifier struct {
	classes []string
	// w holds the quantised weights as little-endian int16: weight
	// (f*len(classes)+c) is feature f's for class c; scale[c] turns it
	// back into a float. Kept as bytes so that loading the embedded model
	// copies nothing.
	w     []byte
	scale []float64
	bias  []float64
	// temperature divides the scores before the softmax: fitted on held-out
	// rows so that the confidence is calibrated.
	temperature float64
}

const (
	featureBits = 16
	featureDim  = 1 << featureBits
	modelMagic  = "graphrag-router-v1\n"
	// charGram is the length of the character n-grams of each word (with
	// a space either side). Chosen on the leave-one-source-out mean
	// (nodes/routerdata, no evaluation rows): 3..5-grams 0.672, 3..4 0.666,
	// 4 alone 0.682, none 0.681; 4-grams keep extra and held-out rows
	// where they were.
	charGram = 4
)

// Training settings. They were chosen on the leave-one-source-out figures
// of `graphrag eval routing --cv source` and on held-out rows of the
// training data, never on evaluation rows.
const (
	// trainEpochs passes over the data; more changes held-out accuracy by
	// less than 0.005 and costs seconds.
	trainEpochs = 6
	// trainRate is the first epoch's learning rate; it decays as 1/(1+0.3e).
	trainRate = 0.5
	// trainL2 shrinks every touched weight a little each step.
	trainL2 = 1e-5
	// maxCellWeight caps how much one row counts. Rows are weighted so that
	// every (source, class) cell weighs the same in total: CLINC150's 6,360
	// actions, NL2Bash's 4,641 listings and graphrag's hundred-odd
	// exemplars of a class each count as one voice of that class, so no
	// source's wording stands for a whole class. Balancing classes alone
	// (with graphrag's rows counted 4 times) let the one source that holds
	// a class speak for all of it: left-one-source-out mean 0.646 against
	// 0.661 balanced by cell (cap 8; cap 30: 0.663, with dev rows lost).
	maxCellWeight = 8
	// calibrationEvery: every n-th row is held out to fit the temperature.
	calibrationEvery = 10
	// maxRouterClasses bounds len(routerClasses) for the trainer's
	// fixed-size buffers.
	maxRouterClasses = 8
)

var (
	defaultClassifierOnce sync.Once
	defaultClassifier     *classifier
	defaultClassifierErr  error
)

// learnedRouter returns the shipped model, decoded at first use (about a
// millisecond; see BenchmarkFirstRoute).
func learnedRouter() (*classifier, error) {
	defaultClassifierOnce.Do(func() {
		defaultClassifier, defaultClassifierErr = decodeModel(modelData)
		if defaultClassifierErr != nil {
			defaultClassifierErr = fmt.Errorf("router model: %w: run `go generate ./nodes` to rebuild it", defaultClassifierErr)
		}
	})
	return defaultClassifier, defaultClassifierErr
}

// features returns the hashed feature indexes of a query, with repeats.
func features(query string) []uint32 {
	toks := tokenize(query)
	feats := make([]uint32, 0, 16*len(toks)+8)
	add := func(kind, s string) {
		h := fnv.New32a()
		h.Write([]byte(kind))
		h.Write([]byte{0})
		h.Write([]byte(s))
		feats = append(feats, h.Sum32()&(featureDim-1))
	}
	prev := "<s>"
	for i, t := range toks {
		w := t.Lower
		if t.Digit {
			w = digitShape(w)
		}
		add("w", w)
		// The stem joins "files" and "file"; the character n-grams join
		// "deleted" and "delete".
		add("s", t.Stem)
		if i == 0 {
			// The opening word: a verb opens a request ("delete",
			// "book", "tell"), a question word a question.
			add("f", t.Stem)
		}
		add("b", prev+" "+w)
		prev = w
		runes := []rune(" " + w + " ")
		for i := 0; i+charGram <= len(runes); i++ {
			add("c", string(runes[i:i+charGram]))
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
	if mayHoldIdentifier(q) && identifierPattern.MatchString(q) || strings.Contains(q, ".") && dottedNamePattern.MatchString(q) {
		out = append(out, "identifier")
	}
	if strings.Contains(q, ".") && fileNamePattern.MatchString(q) {
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

// example is a training row with its hashed features, computed once: the
// features cost more than the training itself (the shape patterns), and
// trainRouter uses every row twice.
type example struct {
	trainingRow
	feats []uint32
}

// featurize computes the features of rows, spread over the CPUs. The
// result does not depend on how the work is split.
func featurize(rows []trainingRow) []example {
	out := make([]example, len(rows))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(rows)/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(rows); i += workers {
				out[i] = example{trainingRow: rows[i], feats: features(rows[i].Query)}
			}
		}()
	}
	wg.Wait()
	return out
}

// trainRouter trains a classifier on rows and fits its temperature on
// every calibrationEvery-th row held out, then retrains on all rows.
// Training is deterministic: fixed seed, fixed order, fixed epochs.
func trainRouter(rows []example) *classifier {
	var fit, held []example
	for i, r := range rows {
		if i%calibrationEvery == calibrationEvery-1 {
			held = append(held, r)
		} else {
			fit = append(fit, r)
		}
	}
	t := fitTemperature(trainOnce(fit), held)
	c := trainOnce(rows)
	c.temperature = t
	return c
}

func trainOnce(rows []example) *classifier {
	classes := routerClasses
	k := len(classes)
	type sample struct {
		feats  []uint32
		class  int
		weight float64
	}
	samples := make([]sample, len(rows))
	for i, r := range rows {
		samples[i] = sample{feats: r.feats, class: slices.Index(classes, r.Class)}
	}
	type cell struct{ source, class string }
	cells := map[cell]float64{}
	for _, r := range rows {
		cells[cell{r.Source, r.Class}]++
	}
	for i, r := range rows {
		samples[i].weight = min(maxCellWeight, float64(len(rows))/(float64(len(cells))*cells[cell{r.Source, r.Class}]))
	}
	w := make([]float64, featureDim*k)
	bias := make([]float64, k)
	rng := rand.New(rand.NewPCG(20240601, 7))
	if k > maxRouterClasses {
		panic(fmt.Sprintf("router: %d classes, the trainer holds at most %d", k, maxRouterClasses))
	}
	// A feature's k weights are copied into row, updated there and copied
	// back: one ranged memory access per feature instead of 2k single
	// ones, which is what the race detector pays for (the arithmetic, and
	// so the model, is the same).
	var probs, row, step [maxRouterClasses]float64
	for epoch := 0; epoch < trainEpochs; epoch++ {
		lr := trainRate / (1 + 0.3*float64(epoch))
		rng.Shuffle(len(samples), func(i, j int) { samples[i], samples[j] = samples[j], samples[i] })
		for _, s := range samples {
			norm := 1 / math.Sqrt(float64(len(s.feats)))
			copy(probs[:k], bias)
			for _, f := range s.feats {
				copy(row[:k], w[int(f)*k:])
				for cl := 0; cl < k; cl++ {
					probs[cl] += row[cl] * norm
				}
			}
			softmax(probs[:k])
			for cl := 0; cl < k; cl++ {
				g := probs[cl]
				if cl == s.class {
					g -= 1
				}
				g *= s.weight
				step[cl] = lr * g * norm
				bias[cl] -= lr * g * 0.1
			}
			for _, f := range s.feats {
				ws := w[int(f)*k : int(f)*k+k]
				copy(row[:k], ws)
				for cl := 0; cl < k; cl++ {
					row[cl] -= step[cl] + lr*trainL2*row[cl]
				}
				copy(ws, row[:k])
			}
		}
	}
	return quantize(classes, w, bias)
}

// quantize turns float weights into int16 with one scale per class.
func quantize(classes []string, w, bias []float64) *classifier {
	k := len(classes)
	c := &classifier{classes: slices.Clone(classes), w: make([]byte, 2*len(w)), scale: make([]float64, k), bias: slices.Clone(bias), temperature: 1}
	for cl := 0; cl < k; cl++ {
		var m float64
		for f := 0; f < featureDim; f++ {
			m = max(m, math.Abs(w[f*k+cl]))
		}
		if m == 0 {
			m = 1
		}
		c.scale[cl] = m / math.MaxInt16
		for f := 0; f < featureDim; f++ {
			binary.LittleEndian.PutUint16(c.w[2*(f*k+cl):], uint16(int16(math.Round(w[f*k+cl]/c.scale[cl]))))
		}
	}
	return c
}

// fitTemperature picks the temperature that minimises the negative
// log-likelihood of the held-out rows.
func fitTemperature(c *classifier, held []example) float64 {
	if len(held) == 0 {
		return 1
	}
	raw := make([][]float64, len(held))
	want := make([]int, len(held))
	for i, r := range held {
		raw[i] = make([]float64, len(c.classes))
		c.scores(r.feats, raw[i])
		want[i] = slices.Index(c.classes, r.Class)
	}
	best, bestNLL := 1.0, math.Inf(1)
	p := make([]float64, len(c.classes))
	for t := 0.25; t <= 4.0001; t += 0.05 {
		var nll float64
		for i := range raw {
			for j, v := range raw[i] {
				p[j] = v / t
			}
			softmax(p)
			nll -= math.Log(max(p[want[i]], 1e-12))
		}
		if nll < bestNLL {
			best, bestNLL = math.Round(t*100)/100, nll
		}
	}
	return best
}

// scores writes the raw (uncalibrated) class scores of feats into out.
func (c *classifier) scores(feats []uint32, out []float64) {
	k := len(c.classes)
	norm := 1 / math.Sqrt(float64(len(feats)))
	sum := make([]int64, k)
	for _, f := range feats {
		row := c.w[2*int(f)*k : 2*(int(f)*k+k)]
		for cl := range sum {
			sum[cl] += int64(int16(binary.LittleEndian.Uint16(row[2*cl:])))
		}
	}
	for cl := range out {
		out[cl] = c.bias[cl] + float64(sum[cl])*c.scale[cl]*norm
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

// encode writes the model file.
func (c *classifier) encode() []byte {
	var b bytes.Buffer
	b.WriteString(modelMagic)
	le := binary.LittleEndian
	put := func(v any) { _ = binary.Write(&b, le, v) }
	put(uint32(featureBits))
	put(uint32(len(c.classes)))
	for _, name := range c.classes {
		put(uint8(len(name)))
		b.WriteString(name)
	}
	put(c.temperature)
	put(c.scale)
	put(c.bias)
	b.Write(c.w)
	return b.Bytes()
}

var errModelFormat = errors.New("not a graphrag router model of this version")

// decodeModel reads a model file written by encode.
func decodeModel(data []byte) (*classifier, error) {
	if !bytes.HasPrefix(data, []byte(modelMagic)) {
		return nil, errModelFormat
	}
	r := bytes.NewReader(data[len(modelMagic):])
	le := binary.LittleEndian
	var bits, k uint32
	if err := binary.Read(r, le, &bits); err != nil || bits != featureBits {
		return nil, fmt.Errorf("%w: feature bits %d, want %d", errModelFormat, bits, featureBits)
	}
	if err := binary.Read(r, le, &k); err != nil || k == 0 || k > 64 {
		return nil, fmt.Errorf("%w: %d classes", errModelFormat, k)
	}
	c := &classifier{classes: make([]string, k), scale: make([]float64, k), bias: make([]float64, k)}
	for i := range c.classes {
		n, err := r.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errModelFormat, err)
		}
		name := make([]byte, n)
		if _, err := r.Read(name); err != nil {
			return nil, fmt.Errorf("%w: %v", errModelFormat, err)
		}
		c.classes[i] = string(name)
	}
	if !slices.Equal(c.classes, routerClasses) {
		return nil, fmt.Errorf("%w: classes %v, want %v", errModelFormat, c.classes, routerClasses)
	}
	for _, v := range []any{&c.temperature, c.scale, c.bias} {
		if err := binary.Read(r, le, v); err != nil {
			return nil, fmt.Errorf("%w: %v", errModelFormat, err)
		}
	}
	rest := data[len(data)-r.Len():]
	if want := 2 * featureDim * int(k); len(rest) != want {
		return nil, fmt.Errorf("%w: %d weight bytes, want %d", errModelFormat, len(rest), want)
	}
	c.w = rest
	return c, nil
}

// prediction is the classifier's view of a query: a calibrated
// probability per route, and the likeliest class.
type prediction struct {
	Probs map[graphrag.Route]float64
	// Best and Second are the two likeliest routes; Margin is the gap.
	Best, Second graphrag.Route
	Margin       float64
	// Class is the likeliest class (routerClasses) and ClassProb its
	// calibrated probability.
	Class     string
	ClassProb float64
}

func (c *classifier) predict(query string) prediction {
	probs := make([]float64, len(c.classes))
	c.scores(features(query), probs)
	t := c.temperature
	if t <= 0 {
		t = 1
	}
	for i := range probs {
		probs[i] /= t
	}
	softmax(probs)
	p := prediction{Probs: make(map[graphrag.Route]float64, len(graphrag.Routes))}
	best := 0
	for i, cl := range c.classes {
		p.Probs[classRoute(cl)] += probs[i]
		if probs[i] > probs[best] {
			best = i
		}
	}
	p = p.ranked()
	// The class is the likeliest one of the likeliest route: direct sums
	// three classes, and its best one says which kind of direct it is.
	best = -1
	for i, cl := range c.classes {
		if classRoute(cl) == p.Best && (best < 0 || probs[i] > probs[best]) {
			best = i
		}
	}
	p.Class, p.ClassProb = c.classes[best], probs[best]
	return p
}

// ranked fills Best, Second and Margin from Probs.
func (p prediction) ranked() prediction {
	p.Best, p.Second = "", ""
	for _, k := range graphrag.Routes {
		v, ok := p.Probs[k]
		if !ok {
			continue
		}
		switch {
		case p.Best == "" || v > p.Probs[p.Best]:
			p.Second, p.Best = p.Best, k
		case p.Second == "" || v > p.Probs[p.Second]:
			p.Second = k
		}
	}
	p.Margin = p.Probs[p.Best] - p.Probs[p.Second]
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
	if rest > 0 {
		for k := range q.Probs {
			q.Probs[k] /= rest
		}
	}
	q = q.ranked()
	q.Class, q.ClassProb = p.Class, p.ClassProb
	if classRoute(p.Class) == r {
		q.Class, q.ClassProb = string(q.Best), q.Probs[q.Best]
		if q.Best == graphrag.RouteVector {
			q.Class = classLocal
		}
	}
	return q
}

// toward returns the prediction moved to route r (and class): a cue or a
// guarantee decided, so r takes the probability of the classifier's choice
// when that was higher, and the two swap.
func (p prediction) toward(r graphrag.Route, class string) prediction {
	q := prediction{Probs: make(map[graphrag.Route]float64, len(p.Probs)+1)}
	for k, v := range p.Probs {
		q.Probs[k] = v
	}
	if r == graphrag.RouteHybrid {
		// Hybrid is local search with keywords: it takes vector's share.
		q.Probs[r] += q.Probs[graphrag.RouteVector]
		delete(q.Probs, graphrag.RouteVector)
	}
	q = q.ranked()
	if q.Best != r {
		q.Probs[r], q.Probs[q.Best] = q.Probs[q.Best], q.Probs[r]
		q = q.ranked()
	}
	q.Class, q.ClassProb = class, q.Probs[r]
	return q
}
