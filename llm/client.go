package llm

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
)

// chat is one chat model in one role.
type chat struct {
	spec        Spec
	model       llms.Model
	temperature float64
	maxTokens   int
	timeout     time.Duration
	jsonMode    atomic.Bool // OpenAI-compatible server refused json_schema
	breaker     *breaker    // of spec's server; nil for none
}

func newChat(spec Spec, hc *http.Client, cfg Config, temperature float64, maxTokens int, timeout time.Duration, br *breaker) (*chat, error) {
	m, err := newAdapter(spec, hc, cfg, "")
	if err != nil {
		return nil, err
	}
	return &chat{spec: spec, model: m, temperature: temperature, maxTokens: maxTokens, timeout: timeout, breaker: br}, nil
}

// newAdapter builds the langchaingo model for spec. It never asks the
// adapter to pull models: WithPullModel pulls before every call.
func newAdapter(spec Spec, hc *http.Client, cfg Config, embedModel string) (*adapter, error) {
	switch spec.Backend {
	case Ollama:
		m, err := ollama.New(
			ollama.WithModel(spec.Model),
			ollama.WithServerURL(spec.BaseURL),
			ollama.WithHTTPClient(hc),
			ollama.WithRunnerNumCtx(cfg.NumCtx),
		)
		if err != nil {
			return nil, fmt.Errorf("llm: ollama client for %s: %w", spec, err)
		}
		return &adapter{Model: m, ollama: m}, nil
	case OpenAI:
		opts := []openai.Option{
			openai.WithModel(spec.Model),
			openai.WithBaseURL(spec.BaseURL),
			openai.WithToken(cfg.APIKey),
			openai.WithHTTPClient(hc),
			// The adapter seeds its options from OPENAI_* variables; every
			// one it would send is set here, so the environment never leaks in.
			openai.WithOrganization(""),
		}
		if embedModel != "" {
			opts = append(opts, openai.WithEmbeddingModel(embedModel))
		}
		m, err := openai.New(opts...)
		if err != nil {
			return nil, fmt.Errorf("llm: openai client for %s: %w", spec, err)
		}
		return &adapter{Model: m, openai: m}, nil
	}
	return nil, fmt.Errorf("llm: unknown backend %q", spec.Backend)
}

// adapter is a langchaingo model, with its concrete type kept for the
// backend-specific calls (embeddings).
type adapter struct {
	llms.Model
	ollama *ollama.LLM
	openai *openai.LLM
}

// request is one chat call.
type request struct {
	op       string
	system   string
	user     string
	schema   *schema // nil: free text
	stream   func(string)
	maxToken int    // a lower cap than the role's, 0 for none
	image    []byte // a JPEG sent with the user message, nil for none
}

// generate runs one chat call and returns its text and usage. Errors are *Error.
func (c *chat) generate(ctx context.Context, r request) (string, graphrag.Usage, error) {
	probe, skip := c.breaker.allow()
	if skip != nil {
		return "", graphrag.Usage{}, &Error{Op: r.op, Model: c.spec.String(), Kind: ErrUnreachable, Err: skip}
	}
	ci := &callInfo{backend: c.spec.Backend, jsonMode: &c.jsonMode}
	if r.schema != nil {
		ci.schema, ci.schemaName = r.schema.raw, r.schema.name
	}
	cctx, cancel := context.WithTimeoutCause(ctx, c.timeout, errCallTimeout)
	defer cancel()
	cctx = withCall(cctx, ci)

	maxTokens := c.maxTokens
	if r.maxToken > 0 && r.maxToken < maxTokens {
		maxTokens = r.maxToken
	}
	opts := []llms.CallOption{llms.WithTemperature(c.temperature), llms.WithMaxTokens(maxTokens)}
	if c.spec.Backend == OpenAI {
		// llama-server, vLLM and LM Studio all read max_tokens; not all
		// know max_completion_tokens, which the adapter sends by default.
		opts = append(opts, openai.WithLegacyMaxTokensField())
	}
	if r.schema != nil {
		opts = append(opts, llms.WithJSONMode()) // the transport upgrades it to the schema
	}
	var streamed strings.Builder
	if r.stream != nil {
		opts = append(opts, llms.WithStreamingFunc(func(ctx context.Context, chunk []byte) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if len(chunk) > 0 {
				streamed.Write(chunk)
				r.stream(string(chunk))
			}
			return nil
		}))
	}
	msgs := make([]llms.MessageContent, 0, 2)
	if r.system != "" {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeSystem, r.system))
	}
	if r.image == nil {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, r.user))
	} else {
		// Ollama's adapter turns a binary part into the message's images
		// (base64); OpenAI-compatible servers take an image_url part.
		var img llms.ContentPart = llms.BinaryContent{MIMEType: "image/jpeg", Data: r.image}
		if c.spec.Backend == OpenAI {
			img = llms.ImageURLContent{URL: "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(r.image)}
		}
		msgs = append(msgs, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextContent{Text: r.user}, img}})
	}

	resp, err := c.model.GenerateContent(cctx, msgs, opts...)
	usage := graphrag.Usage{Calls: 1}
	text := ""
	if resp != nil && len(resp.Choices) > 0 {
		ch := resp.Choices[0]
		text = ch.Content
		usage.PromptTokens = intInfo(ch.GenerationInfo, "PromptTokens")
		usage.CompletionTokens = intInfo(ch.GenerationInfo, "CompletionTokens")
	}
	if text == "" && streamed.Len() > 0 {
		text = streamed.String()
	}
	kind, cause := classify(ctx, cctx, ci, err)
	c.breaker.done(probe, kind)
	if kind != nil {
		return "", usage, &Error{Op: r.op, Model: c.spec.String(), Kind: kind, Err: cause, Usage: usage}
	}
	if strings.TrimSpace(stripThink(text)) == "" {
		return "", usage, &Error{Op: r.op, Model: c.spec.String(), Kind: ErrBadOutput, Err: errEmpty, Usage: usage}
	}
	return text, usage, nil
}

var errEmpty = fmt.Errorf("empty answer")

func intInfo(m map[string]any, k string) int {
	switch v := m[k].(type) {
	case int:
		return v
	case int64:
		return int(v)
	case float64:
		return int(v)
	}
	return 0
}
