package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/graphrag/graphrag"
)

// Embedder embeds texts with an Ollama or OpenAI-compatible embedding
// model (graphrag.Embedder).
//
// For Ollama it calls /api/embed itself with a batch of inputs: the
// langchaingo adapter sends one request per text, which for an ingest of
// thousands of chunks is thousands of round trips. For OpenAI-compatible
// servers the adapter already batches (/v1/embeddings takes a list).
type Embedder struct {
	spec    Spec
	dim     int
	batch   int
	timeout time.Duration
	hc      *http.Client
	oa      *adapter // OpenAI only
	breaker *breaker // of spec's server; nil for none
}

var _ graphrag.Embedder = (*Embedder)(nil)

// NewEmbedder builds an embedder. With dim 0 it makes one probe call to
// learn the dimension, so it fails when the server or model is absent.
// Like the roles of Models, it stops calling a server it found unreachable
// for Config.UnreachableCooldown.
func NewEmbedder(ctx context.Context, spec Spec, cfg Config, hc *http.Client) (*Embedder, error) {
	if hc == nil {
		return nil, errNilClient
	}
	cfg.Router = spec
	cfg = cfg.withDefaults()
	return newEmbedder(ctx, spec, cfg, hc, newBreakers(cfg.UnreachableCooldown).get(spec))
}

// newEmbedder builds an embedder for a cfg with defaults filled in.
func newEmbedder(ctx context.Context, spec Spec, cfg Config, hc *http.Client, br *breaker) (*Embedder, error) {
	e := &Embedder{spec: spec, dim: cfg.EmbedDimension, batch: cfg.EmbedBatch, timeout: cfg.EmbedTimeout, hc: wrapClient(hc, cfg), breaker: br}
	if spec.Backend == OpenAI {
		a, err := newAdapter(spec, e.hc, cfg, spec.Model)
		if err != nil {
			return nil, err
		}
		e.oa = a
	}
	if e.dim == 0 {
		v, err := e.embed(ctx, []string{"dimension probe"})
		if err != nil {
			return nil, fmt.Errorf("llm: learning the dimension of %s: %w", spec.Name(), err)
		}
		e.dim = len(v[0])
	}
	return e, nil
}

// Name is "ollama:MODEL" or "openai:MODEL": the model, not the server.
func (e *Embedder) Name() string { return e.spec.Name() }

// Dimension is the length of every vector.
func (e *Embedder) Dimension() int { return e.dim }

// Embed returns one vector per text, in order, in batches.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.batch {
		end := min(start+e.batch, len(texts))
		vs, err := e.embed(ctx, texts[start:end])
		if err != nil {
			return nil, err
		}
		for i, v := range vs {
			if e.dim != 0 && len(v) != e.dim {
				return nil, &Error{Op: "embed", Model: e.spec.String(), Kind: ErrBadOutput,
					Err: fmt.Errorf("vector %d has dimension %d, want %d", start+i, len(v), e.dim)}
			}
		}
		out = append(out, vs...)
	}
	return out, nil
}

func (e *Embedder) embed(ctx context.Context, texts []string) ([][]float32, error) {
	probe, skip := e.breaker.allow()
	if skip != nil {
		return nil, &Error{Op: "embed", Model: e.spec.String(), Kind: ErrUnreachable, Err: skip}
	}
	ci := &callInfo{backend: e.spec.Backend}
	cctx, cancel := context.WithTimeoutCause(ctx, e.timeout, errCallTimeout)
	defer cancel()
	cctx = withCall(cctx, ci)
	var vs [][]float32
	var err error
	if e.oa != nil {
		vs, err = e.oa.openai.CreateEmbedding(cctx, texts)
	} else {
		vs, err = e.ollamaEmbed(cctx, texts)
	}
	kind, cause := classify(ctx, cctx, ci, err)
	e.breaker.done(probe, kind)
	if kind != nil {
		return nil, &Error{Op: "embed", Model: e.spec.String(), Kind: kind, Err: cause}
	}
	if len(vs) != len(texts) {
		return nil, &Error{Op: "embed", Model: e.spec.String(), Kind: ErrBadOutput,
			Err: fmt.Errorf("%d vectors for %d texts", len(vs), len(texts))}
	}
	for i, v := range vs {
		if len(v) == 0 {
			return nil, &Error{Op: "embed", Model: e.spec.String(), Kind: ErrBadOutput, Err: fmt.Errorf("vector %d is empty", i)}
		}
	}
	return vs, nil
}

func (e *Embedder) ollamaEmbed(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(map[string]any{"model": e.spec.Model, "input": texts})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.spec.BaseURL+"/api/embed", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		return nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode, b)
	}
	var out struct {
		Embeddings [][]float32 `json:"embeddings"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("decoding /api/embed response: %w", err)
	}
	return out.Embeddings, nil
}
