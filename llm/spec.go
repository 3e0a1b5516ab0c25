package llm

import (
	"fmt"
	"net/url"
	"strings"
)

// Backend is a kind of model server.
type Backend string

const (
	// Ollama speaks Ollama's native API (/api/chat, /api/embed, /api/tags).
	Ollama Backend = "ollama"
	// OpenAI speaks the OpenAI-compatible API (/v1/chat/completions,
	// /v1/embeddings, /v1/models) of llama-server, vLLM and LM Studio.
	OpenAI Backend = "openai"
)

// DefaultOllamaURL is where Ollama listens unless told otherwise.
const DefaultOllamaURL = "http://127.0.0.1:11434"

// Spec names one model on one server.
type Spec struct {
	Backend Backend
	// Model is the model name: an Ollama tag ("qwen2.5:3b") or the name an
	// OpenAI-compatible server knows. llama-server serves a single model and
	// ignores it, so it may be empty there.
	Model string
	// BaseURL is the server's address: "http://127.0.0.1:11434" for Ollama,
	// the API root including /v1 for OpenAI-compatible servers.
	BaseURL string
}

// IsZero reports whether s names no model.
func (s Spec) IsZero() bool { return s.Backend == "" }

// String is the canonical spec string; ParseSpec(s.String()) == s.
func (s Spec) String() string {
	switch s.Backend {
	case Ollama:
		if s.BaseURL == "" || s.BaseURL == DefaultOllamaURL {
			return "ollama:" + s.Model
		}
		return "ollama:" + s.Model + "@" + s.BaseURL
	case OpenAI:
		if s.Model == "" {
			return "openai:" + s.BaseURL
		}
		return "openai:" + s.BaseURL + "#" + s.Model
	}
	return ""
}

// Name identifies the model without its server, e.g. "ollama:nomic-embed-text".
// Embedders use it as their stable name: moving the server does not change
// the vectors, changing the model does.
func (s Spec) Name() string {
	if s.Backend == OpenAI && s.Model == "" {
		return "openai:default"
	}
	return string(s.Backend) + ":" + s.Model
}

// ParseSpec parses a model spec:
//
//	ollama:MODEL[@URL]     e.g. ollama:qwen2.5:3b, ollama:llama3.2:1b@http://host:11434
//	openai:URL[#MODEL]     e.g. openai:http://localhost:8080/v1#qwen2.5-3b
//	openai:MODEL@URL       the same, written like the Ollama form
//
// llamacpp, llama-server, vllm and lmstudio are accepted for openai, and
// ollama:URL#MODEL for the Ollama form.
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	backend, rest, ok := strings.Cut(s, ":")
	if !ok || rest == "" {
		return Spec{}, fmt.Errorf("model spec %q: want ollama:MODEL[@URL] or openai:URL#MODEL", s)
	}
	var sp Spec
	b := Backend(strings.ToLower(backend))
	if openAIAliases[string(b)] {
		b = OpenAI
	}
	switch b {
	case Ollama:
		sp = Spec{Backend: Ollama, Model: rest, BaseURL: DefaultOllamaURL}
		if i := urlAt(rest); i >= 0 {
			sp.Model, sp.BaseURL = rest[:i], rest[i+1:]
		} else if isURL(rest) { // the openai form: ollama:URL#MODEL
			sp.BaseURL, sp.Model, _ = strings.Cut(rest, "#")
		}
		if sp.Model == "" {
			return Spec{}, fmt.Errorf("model spec %q: no model name (e.g. ollama:qwen2.5:3b)", s)
		}
		if strings.Contains(sp.Model, "://") {
			return Spec{}, fmt.Errorf("model spec %q: the server URL must start with http:// or https://", s)
		}
	case OpenAI:
		sp = Spec{Backend: OpenAI}
		switch {
		case isURL(rest):
			sp.BaseURL, sp.Model, _ = strings.Cut(rest, "#")
		case urlAt(rest) >= 0:
			i := urlAt(rest)
			sp.Model, sp.BaseURL = rest[:i], rest[i+1:]
		default:
			return Spec{}, fmt.Errorf("model spec %q: an openai spec needs the server URL, e.g. openai:http://localhost:8080/v1#model", s)
		}
	default:
		return Spec{}, fmt.Errorf("model spec %q: unknown backend %q (want ollama or openai)", s, backend)
	}
	sp.BaseURL = strings.TrimRight(sp.BaseURL, "/")
	u, err := url.Parse(sp.BaseURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return Spec{}, fmt.Errorf("model spec %q: bad server URL %q", s, sp.BaseURL)
	}
	return sp, nil
}

// openAIAliases name the servers that speak the OpenAI-compatible API.
var openAIAliases = map[string]bool{"llamacpp": true, "llama.cpp": true, "llama-server": true, "vllm": true, "lmstudio": true}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// urlAt returns the index of the '@' that starts a trailing URL, or -1.
func urlAt(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '@' && isURL(s[i+1:]) {
			return i
		}
	}
	return -1
}
