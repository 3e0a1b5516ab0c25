package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
)

// Check is one doctor finding.
type Check struct {
	// Name says what was checked, e.g. "router model ollama:qwen2.5:3b".
	Name string
	OK   bool
	// Detail says what was found.
	Detail string
	// Fix says what to run when OK is false.
	Fix string
}

// CheckTimeout bounds each doctor request.
const CheckTimeout = 10 * time.Second

// Check runs Doctor on the models' configuration.
func (m *Models) Check(ctx context.Context) []Check {
	return Doctor(ctx, m.cfg, m.raw)
}

// Doctor checks each model cfg names, without needing New to succeed: is
// its server reachable, does it have the model, and what dimension does
// the embedding model give. Each finding that is not OK says what to run.
// It makes no retries and bounds each request by CheckTimeout.
func Doctor(ctx context.Context, cfg Config, hc *http.Client) []Check {
	if hc == nil {
		return []Check{{Name: "http client", Detail: errNilClient.Error()}}
	}
	type role struct {
		spec  Spec
		names []string
	}
	var roles []role
	addRole := func(s Spec, name string) {
		if s.IsZero() {
			return
		}
		for i := range roles {
			if roles[i].spec == s {
				roles[i].names = append(roles[i].names, name)
				return
			}
		}
		roles = append(roles, role{s, []string{name}})
	}
	addRole(cfg.Router, "router")
	if cfg.Writer.IsZero() {
		addRole(cfg.Router, "writer")
	} else {
		addRole(cfg.Writer, "writer")
	}
	var out []Check
	servers := map[string][]string{}
	for _, r := range roles {
		out = append(out, checkModel(ctx, hc, r.spec, strings.Join(r.names, "+")+" model", servers)...)
	}
	if !cfg.Embed.IsZero() {
		cs := checkModel(ctx, hc, cfg.Embed, "embedding model", servers)
		out = append(out, cs...)
		if allOK(cs) {
			out = append(out, checkEmbedding(ctx, hc, cfg))
		}
	}
	if !cfg.Vision.IsZero() {
		cs := checkModel(ctx, hc, cfg.Vision, "vision model", servers)
		out = append(out, cs...)
		if allOK(cs) && cfg.Vision.Backend == Ollama {
			c := Check{Name: "vision model " + cfg.Vision.String() + " sees images", OK: true, Detail: "yes (or the server does not say)"}
			if err := checkVision(ctx, hc, cfg.Vision); err != nil {
				c.OK, c.Detail = false, err.Error()
				c.Fix = "use a vision model, e.g. ollama:moondream (run: ollama pull moondream)"
			}
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		out = append(out, Check{Name: "language models", Detail: "none configured",
			Fix: "set a model, e.g. ollama:qwen2.5:3b (run: ollama pull qwen2.5:3b)"})
	}
	return out
}

// CheckStore compares the embedder with the one a store was built with
// (the store's recorded name and dimension; "" for a store built without).
func (m *Models) CheckStore(storeEmbedder string, storeDim int) Check {
	var e graphrag.Embedder
	if m.embedder != nil {
		e = m.embedder
	}
	return CheckStore(e, storeEmbedder, storeDim)
}

// CheckStore compares an embedder (nil for none) with the one a store was
// built with.
func CheckStore(e graphrag.Embedder, storeEmbedder string, storeDim int) Check {
	c := Check{Name: "store embeddings"}
	switch {
	case storeEmbedder == "" && e == nil:
		c.OK, c.Detail = true, "no embedder: keyword search only"
	case storeEmbedder == "":
		c.Detail = "the store was built without embeddings; " + e.Name() + " is configured"
		c.Fix = "re-ingest your files with the embedding model configured, or remove it from the configuration"
	case e == nil:
		c.Detail = fmt.Sprintf("the store was built with %s (dimension %d) but no embedding model is configured", storeEmbedder, storeDim)
		c.Fix = "configure the embedding model " + storeEmbedder
	case e.Name() != storeEmbedder || e.Dimension() != storeDim:
		c.Detail = fmt.Sprintf("the store was built with %s (dimension %d); configured: %s (dimension %d)", storeEmbedder, storeDim, e.Name(), e.Dimension())
		c.Fix = "configure " + storeEmbedder + " again, or re-ingest your files with " + e.Name()
	default:
		c.OK, c.Detail = true, fmt.Sprintf("%s, dimension %d, matches the store", e.Name(), e.Dimension())
	}
	return c
}

func allOK(cs []Check) bool {
	for _, c := range cs {
		if !c.OK {
			return false
		}
	}
	return true
}

// checkModel checks the server of s (once per server) and the model on it.
func checkModel(ctx context.Context, hc *http.Client, s Spec, label string, servers map[string][]string) []Check {
	var out []Check
	key := string(s.Backend) + " " + s.BaseURL
	served, seen := servers[key]
	if !seen {
		var err error
		served, err = listModels(ctx, hc, s)
		c := Check{Name: fmt.Sprintf("%s server at %s", s.Backend, s.BaseURL), OK: err == nil}
		if err != nil {
			c.Detail = err.Error()
			c.Fix = startHint(s)
			servers[key] = nil
			return append(out, c)
		}
		c.Detail = fmt.Sprintf("reachable, %d model(s)", len(served))
		servers[key] = served
		out = append(out, c)
	} else if served == nil {
		return nil // the server check already failed
	}
	c := Check{Name: label + " " + s.String()}
	if found, name := hasModel(s, served); found {
		c.OK, c.Detail = true, "present ("+name+")"
	} else {
		c.Detail = "not on the server; it has: " + listOrNone(served)
		c.Fix = pullHint(s, served)
	}
	return append(out, c)
}

func checkEmbedding(ctx context.Context, hc *http.Client, cfg Config) Check {
	c := Check{Name: "embedding dimension " + cfg.Embed.String()}
	cctx, cancel := context.WithTimeout(ctx, CheckTimeout)
	defer cancel()
	probe := cfg
	probe.EmbedDimension, probe.Retries = 0, -1
	e, err := NewEmbedder(cctx, cfg.Embed, probe, hc)
	if err != nil {
		c.Detail = err.Error()
		c.Fix = "check that " + cfg.Embed.Model + " is an embedding model (e.g. nomic-embed-text, bge-m3)"
		if cfg.Embed.Backend == OpenAI {
			c.Fix = "start the server with embeddings on, e.g.: llama-server -m embed.gguf --embeddings --port 8081"
		}
		return c
	}
	if cfg.EmbedDimension != 0 && e.Dimension() != cfg.EmbedDimension {
		c.Detail = fmt.Sprintf("the model returns dimension %d, configured %d", e.Dimension(), cfg.EmbedDimension)
		c.Fix = fmt.Sprintf("set the embedding dimension to %d (or leave it unset to discover it)", e.Dimension())
		return c
	}
	c.OK, c.Detail = true, fmt.Sprintf("dimension %d", e.Dimension())
	return c
}

// listModels asks a server which models it has: Ollama's /api/tags or the
// OpenAI-compatible /models.
func listModels(ctx context.Context, hc *http.Client, s Spec) ([]string, error) {
	cctx, cancel := context.WithTimeout(ctx, CheckTimeout)
	defer cancel()
	u := s.BaseURL + "/api/tags"
	if s.Backend == OpenAI {
		u = s.BaseURL + "/models"
	}
	req, err := http.NewRequestWithContext(cctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		if cctx.Err() != nil {
			return nil, fmt.Errorf("%w: no answer from %s within %s", ErrTimeout, u, CheckTimeout)
		}
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: GET %s: HTTP %d: %s", ErrServer, u, resp.StatusCode, clip(strings.TrimSpace(string(body)), 200))
	}
	var v struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("%w: GET %s: not a model list: %v", ErrBadOutput, u, err)
	}
	var names []string
	for _, m := range v.Models {
		names = append(names, m.Name)
	}
	for _, d := range v.Data {
		names = append(names, d.ID)
	}
	return names, nil
}

func hasModel(s Spec, served []string) (bool, string) {
	if s.Backend == OpenAI && s.Model == "" {
		if len(served) > 0 {
			return true, served[0]
		}
		return false, ""
	}
	want := s.Model
	for _, n := range served {
		if n == want || (s.Backend == Ollama && !strings.Contains(want, ":") && n == want+":latest") {
			return true, n
		}
	}
	return false, ""
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	names = slices.Clone(names)
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func startHint(s Spec) string {
	if s.Backend == Ollama {
		return "start Ollama: ollama serve   (or fix the URL: ollama:MODEL@http://host:11434)"
	}
	return "start the server, e.g.: llama-server -m model.gguf --port 8080   (the spec's URL ends in /v1: openai:http://localhost:8080/v1#model)"
}

func pullHint(s Spec, served []string) string {
	if s.Backend == Ollama {
		return "run: ollama pull " + s.Model
	}
	if len(served) == 1 {
		return fmt.Sprintf("use the name the server serves: openai:%s#%s (or start llama-server with --alias %s)", s.BaseURL, served[0], s.Model)
	}
	return "use one of the served names in the spec: openai:" + s.BaseURL + "#NAME"
}
