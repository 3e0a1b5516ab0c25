package storetest

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"sync/atomic"
	"unicode"
)

// HashEmbedder is a deterministic embedder for tests: it hashes each
// lower-cased word of a text into one of Dim buckets with a ±1 sign
// (feature hashing) and L2-normalises the result. Texts sharing words get
// similar vectors, so nearest-neighbour search behaves plausibly without a
// model. It is not a useful embedder for real retrieval.
type HashEmbedder struct {
	Dim int
	// Salt changes the hashing, so two embedders of the same dimension can
	// differ (and must be named differently).
	Salt  string
	calls atomic.Int64
}

// Calls reports how many times Embed was called.
func (h *HashEmbedder) Calls() int64 { return h.calls.Load() }

// NewHashEmbedder returns a HashEmbedder of dimension dim.
func NewHashEmbedder(dim int) *HashEmbedder { return &HashEmbedder{Dim: dim} }

// Name includes the dimension and salt, e.g. "hash-64" or "hash-64-b".
func (h *HashEmbedder) Name() string {
	if h.Salt != "" {
		return fmt.Sprintf("hash-%d-%s", h.Dim, h.Salt)
	}
	return fmt.Sprintf("hash-%d", h.Dim)
}

// Dimension returns Dim.
func (h *HashEmbedder) Dimension() int { return h.Dim }

// Embed returns one normalised vector per text. An empty text (or one with
// no words) gets a zero vector.
func (h *HashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("hash embedder: %w", err)
	}
	if h.Dim <= 0 {
		return nil, fmt.Errorf("hash embedder: dimension %d must be positive", h.Dim)
	}
	h.calls.Add(1)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = h.embed(t)
	}
	return out, nil
}

func (h *HashEmbedder) embed(text string) []float32 {
	v := make([]float32, h.Dim)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
	for _, w := range words {
		f := fnv.New64a()
		f.Write([]byte(h.Salt))
		f.Write([]byte(w))
		x := f.Sum64()
		idx := int(x % uint64(h.Dim))
		if x&(1<<63) != 0 {
			v[idx]--
		} else {
			v[idx]++
		}
	}
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n > 0 {
		inv := float32(1 / math.Sqrt(n))
		for i := range v {
			v[i] *= inv
		}
	}
	return v
}
