package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/graphrag/graphrag"
)

var errNilClient = errors.New("llm: nil *http.Client: pass the client to use (its timeouts, proxy and TLS settings apply)")

// Models holds the configured models in their roles.
type Models struct {
	cfg      Config
	hc       *http.Client // wrapped
	raw      *http.Client // as given, for doctor checks
	decide   *chat
	write    *chat
	embedder *Embedder
	breakers *breakers
}

// New builds the clients for cfg. It contacts no server for the chat
// models (Check does); an embedding model without a configured dimension
// is probed once, so New fails if it is unreachable. hc must not be nil;
// its Transport (proxy, TLS) is used under the package's own layer. Leave
// hc.Timeout 0: it would cut a long streamed answer; the per-call timeouts
// of Config bound each call instead. Models and everything they return
// are safe for concurrent use.
//
// The roles share one circuit breaker per server: once a call finds a
// server unreachable (after its retries), calls to it fail at once with
// ErrUnreachable for Config.UnreachableCooldown, then one call probes it.
// So a run whose model server is down pays the retries once, not once per
// role, and every role falls straight back to its deterministic path.
func New(ctx context.Context, cfg Config, hc *http.Client) (*Models, error) {
	if hc == nil {
		return nil, errNilClient
	}
	if cfg.Router.IsZero() {
		return nil, fmt.Errorf("llm: no router model: %w (set one, e.g. ollama:qwen2.5:3b)", graphrag.ErrNotConfigured)
	}
	cfg = cfg.withDefaults()
	m := &Models{cfg: cfg, hc: wrapClient(hc, cfg), raw: hc, breakers: newBreakers(cfg.UnreachableCooldown)}
	var err error
	if m.decide, err = newChat(cfg.Router, m.hc, cfg, *cfg.DecideTemperature, cfg.DecideMaxTokens, cfg.Timeout, m.breakers.get(cfg.Router)); err != nil {
		return nil, err
	}
	if m.write, err = newChat(cfg.Writer, m.hc, cfg, *cfg.WriteTemperature, cfg.WriteMaxTokens, cfg.WriteTimeout, m.breakers.get(cfg.Writer)); err != nil {
		return nil, err
	}
	if !cfg.Embed.IsZero() {
		if m.embedder, err = newEmbedder(ctx, cfg.Embed, cfg, hc, m.breakers.get(cfg.Embed)); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Config returns the configuration in effect, defaults filled in.
func (m *Models) Config() Config { return m.cfg }

// Planner returns the planner, on the router model.
func (m *Models) Planner() *Planner { return &Planner{chat: m.decide, cfg: m.cfg} }

// Grader returns the grader, on the router model.
func (m *Models) Grader() *Grader { return &Grader{chat: m.decide, cfg: m.cfg} }

// Rewriter returns the query rewriter, on the router model.
func (m *Models) Rewriter() *Rewriter { return &Rewriter{chat: m.decide} }

// Writer returns the answer writer, on the writer model.
func (m *Models) Writer() *Writer { return &Writer{chat: m.write, cfg: m.cfg} }

// Judge returns the judge, on the router model.
func (m *Models) Judge() *Judge { return &Judge{chat: m.decide, cfg: m.cfg} }

// Embedder returns the embedder, or nil when no embedding model is configured.
func (m *Models) Embedder() *Embedder { return m.embedder }
