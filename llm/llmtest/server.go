// Package llmtest runs in-process fake language-model servers that speak
// the real Ollama and OpenAI-compatible HTTP protocols, so tests drive the
// real langchaingo adapters end to end without a model.
//
// Each server is scripted per test by a Responder that sees every request
// (model, messages, format / response_format, temperature) and returns a
// Reply: text to send (streamed in chunks when the client streams), or a
// misbehaviour: an error status, a raw malformed body, a hang past the
// client's timeout, a slow stream, a stream cut before its end marker, or
// a dropped connection. Every request is recorded for assertions,
// images included (Ollama's base64 "images", OpenAI's image_url data URLs),
// and the fake Ollama answers /api/show with the capabilities a test sets.
package llmtest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Protocol is the API a fake server speaks.
type Protocol string

const (
	Ollama Protocol = "ollama"
	OpenAI Protocol = "openai"
)

// Kind is what a request asks for.
type Kind string

const (
	Chat   Kind = "chat"
	Embed  Kind = "embed"
	Models Kind = "models"
	// Show is Ollama's /api/show (a model's details and capabilities).
	Show Kind = "show"
	// Other is any other endpoint; the server answers it 404.
	Other Kind = "other"
)

// Message is one chat message of a request.
type Message struct {
	Role    string
	Content string
	// Images are the images the message carries, decoded: Ollama's
	// "images" (base64) or OpenAI's image_url parts with data: URLs.
	Images [][]byte
	// ImageURLs are the image_url parts' URLs as sent (OpenAI only).
	ImageURLs []string
}

// Request is one request as the server received it.
type Request struct {
	Protocol Protocol
	Kind     Kind
	Path     string
	Model    string
	Messages []Message
	Stream   bool
	// Format is Ollama's "format" field as sent (nil when absent).
	Format json.RawMessage
	// ResponseFormat is OpenAI's "response_format" field as sent (nil when absent).
	ResponseFormat json.RawMessage
	// Temperature is nil when the request did not set one.
	Temperature *float64
	// MaxTokens is num_predict (Ollama) or max_tokens / max_completion_tokens.
	MaxTokens int
	// NumCtx is Ollama's options.num_ctx.
	NumCtx int
	// Input holds the texts of an embedding request.
	Input  []string
	Body   []byte
	Header http.Header
}

// Prompt is the content of the last user message.
func (r Request) Prompt() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Images returns the images of every message, in order.
func (r Request) Images() [][]byte {
	var out [][]byte
	for _, m := range r.Messages {
		out = append(out, m.Images...)
	}
	return out
}

// System is the content of the first system message.
func (r Request) System() string {
	for _, m := range r.Messages {
		if m.Role == "system" {
			return m.Content
		}
	}
	return ""
}

// Reply is what the server does with one request.
type Reply struct {
	// Text is the answer. Streamed replies send it in Chunks, or word by
	// word when Chunks is nil.
	Text   string
	Chunks []string
	// Status, when not 0 or 200, answers with that error status and Error
	// as the message, in the protocol's error shape.
	Status     int
	Error      string
	RetryAfter string
	// RawBody, when set, is sent verbatim with status 200 (or Status)
	// instead of a well-formed response: malformed JSON and the like.
	RawBody string
	// PromptTokens and CompletionTokens are reported in the usage fields;
	// 0 means computed from the words.
	PromptTokens, CompletionTokens int
	// Embeddings answers an embedding request; nil means deterministic
	// vectors of the server's EmbedDim.
	Embeddings [][]float32
	// Delay waits before the response headers; ChunkDelay between chunks.
	Delay, ChunkDelay time.Duration
	// Hang never answers: the handler waits until the client gives up.
	Hang bool
	// Truncate streams the chunks but not the end marker (Ollama's
	// done:true line, OpenAI's finish_reason and [DONE]); a non-streamed
	// reply is cut in half.
	Truncate bool
	// StreamError streams the chunks, then reports this error inside the
	// stream, as a server whose model crashed mid-answer does (Ollama: an
	// {"error": ...} line; OpenAI-compatible: a data: {"error": {...}} event).
	StreamError string
	// Drop streams the first DropAfter chunks, then cuts the connection.
	Drop      bool
	DropAfter int
}

// Responder decides the reply to each request.
type Responder func(Request) Reply

// Text answers every chat request with s.
func Text(s string) Responder { return func(Request) Reply { return Reply{Text: s} } }

// Script answers the i-th chat request with replies[i]; the last reply
// repeats. Embedding and model-list requests get the defaults.
func Script(replies ...Reply) Responder {
	var mu sync.Mutex
	i := 0
	return func(r Request) Reply {
		if r.Kind != Chat {
			return Reply{}
		}
		mu.Lock()
		defer mu.Unlock()
		rep := replies[min(i, len(replies)-1)]
		i++
		return rep
	}
}

// Server is a fake model server.
type Server struct {
	// URL is the base URL a client is given: http://host:port for Ollama,
	// http://host:port/v1 for OpenAI-compatible.
	URL      string
	Protocol Protocol

	mu       sync.Mutex
	models   []string
	caps     map[string][]string
	embedDim int
	respond  Responder
	reqs     []Request
	srv      *httptest.Server
	closing  chan struct{}
}

// NewOllama starts a fake Ollama server, closed when the test ends.
func NewOllama(t testing.TB, respond Responder) *Server { return start(t, Ollama, respond) }

// NewOpenAI starts a fake OpenAI-compatible server (as llama-server,
// vLLM or LM Studio), closed when the test ends.
func NewOpenAI(t testing.TB, respond Responder) *Server { return start(t, OpenAI, respond) }

func start(t testing.TB, p Protocol, respond Responder) *Server {
	t.Helper()
	s := New(p, respond)
	t.Cleanup(s.Close)
	return s
}

// New starts a fake server outside a test (examples, tools); the caller
// closes it.
func New(p Protocol, respond Responder) *Server {
	if respond == nil {
		respond = Text("ok")
	}
	s := &Server{Protocol: p, respond: respond, embedDim: 8, closing: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	if p == OpenAI {
		s.URL += "/v1"
	}
	return s
}

// Close stops the server, releasing hanging handlers.
func (s *Server) Close() {
	s.mu.Lock()
	select {
	case <-s.closing:
	default:
		close(s.closing)
	}
	s.mu.Unlock()
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// SetModels sets the models the server has. With none set (the default)
// every model is served but the model lists (/api/tags, /v1/models) are
// empty; with some set, others get the protocol's 404.
func (s *Server) SetModels(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = names
}

// SetCapabilities sets what Ollama's /api/show reports for model (e.g.
// "completion", "vision"). A model with none set is shown without a
// capabilities field, as older Ollama versions do.
func (s *Server) SetCapabilities(model string, caps ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.caps == nil {
		s.caps = map[string][]string{}
	}
	s.caps[model] = caps
}

// SetEmbedDim sets the dimension of default embeddings (8 unless set).
func (s *Server) SetEmbedDim(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.embedDim = n
}

// SetResponder replaces the responder.
func (s *Server) SetResponder(r Responder) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respond = r
}

// Spec is the model spec string that points at this server.
func (s *Server) Spec(model string) string {
	if s.Protocol == Ollama {
		return "ollama:" + model + "@" + s.URL
	}
	return "openai:" + s.URL + "#" + model
}

// Requests returns every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

// Chats returns the chat requests received so far.
func (s *Server) Chats() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Kind == Chat {
			out = append(out, r)
		}
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Protocol: s.Protocol, Kind: Other, Path: r.URL.Path, Body: body, Header: r.Header.Clone()}
	switch {
	case s.Protocol == Ollama && r.URL.Path == "/api/chat" && r.Method == http.MethodPost:
		req.Kind = Chat
	case s.Protocol == Ollama && r.URL.Path == "/api/embed" && r.Method == http.MethodPost:
		req.Kind = Embed
	case s.Protocol == Ollama && r.URL.Path == "/api/tags" && r.Method == http.MethodGet:
		req.Kind = Models
	case s.Protocol == Ollama && r.URL.Path == "/api/show" && r.Method == http.MethodPost:
		req.Kind = Show
	case s.Protocol == OpenAI && r.URL.Path == "/v1/chat/completions" && r.Method == http.MethodPost:
		req.Kind = Chat
	case s.Protocol == OpenAI && r.URL.Path == "/v1/embeddings" && r.Method == http.MethodPost:
		req.Kind = Embed
	case s.Protocol == OpenAI && r.URL.Path == "/v1/models" && r.Method == http.MethodGet:
		req.Kind = Models
	default:
		// Recorded too, so a test can assert that no other endpoint (say
		// /api/pull) was called.
		s.mu.Lock()
		s.reqs = append(s.reqs, req)
		s.mu.Unlock()
		s.writeError(w, http.StatusNotFound, "404 page not found")
		return
	}
	if len(body) > 0 {
		if err := decodeRequest(&req, body); err != nil {
			s.writeError(w, http.StatusBadRequest, "invalid request body: "+err.Error())
			return
		}
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	respond, models, dim := s.respond, s.models, s.embedDim
	caps, hasCaps := s.caps[req.Model]
	if !hasCaps && !strings.Contains(req.Model, ":") {
		caps, hasCaps = s.caps[req.Model+":latest"] // as Ollama reads a bare name
	}
	s.mu.Unlock()

	if req.Kind == Models {
		s.writeModels(w, models)
		return
	}
	if len(models) > 0 && !s.serves(models, req.Model) {
		if req.Kind == Show {
			s.writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", req.Model))
			return
		}
		if s.Protocol == Ollama {
			s.writeError(w, http.StatusNotFound, fmt.Sprintf("model %q not found, try pulling it first", req.Model))
		} else {
			s.writeError(w, http.StatusNotFound, fmt.Sprintf("The model `%s` does not exist.", req.Model))
		}
		return
	}
	if req.Kind == Show {
		show := map[string]any{"modified_at": time.Now().UTC().Format(time.RFC3339Nano),
			"details": map[string]any{"format": "gguf", "family": "fake"}, "model_info": map[string]any{}}
		if hasCaps {
			show["capabilities"] = caps
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(show)
		return
	}
	rep := respond(req)
	if rep.Delay > 0 && !s.wait(r, rep.Delay) {
		return
	}
	if rep.Hang {
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		return
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		if rep.RetryAfter != "" {
			w.Header().Set("Retry-After", rep.RetryAfter)
		}
		if rep.RawBody != "" {
			w.WriteHeader(rep.Status)
			io.WriteString(w, rep.RawBody)
			return
		}
		s.writeError(w, rep.Status, rep.Error)
		return
	}
	if rep.RawBody != "" {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, rep.RawBody)
		return
	}
	if req.Kind == Embed {
		s.writeEmbeddings(w, req, rep, dim)
		return
	}
	s.writeChat(w, r, req, rep)
}

// serves reports whether model is among models; Ollama, like the real
// one, reads a name without a tag as name:latest.
func (s *Server) serves(models []string, model string) bool {
	if slices.Contains(models, model) {
		return true
	}
	return s.Protocol == Ollama && !strings.Contains(model, ":") && slices.Contains(models, model+":latest")
}

func (s *Server) wait(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.closing:
	}
	return false
}

func decodeRequest(req *Request, body []byte) error {
	var v struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
			Images  [][]byte        `json:"images"` // base64 in JSON
		} `json:"messages"`
		Stream         *bool           `json:"stream"`
		Format         json.RawMessage `json:"format"`
		ResponseFormat json.RawMessage `json:"response_format"`
		Temperature    *float64        `json:"temperature"`
		MaxTokens      int             `json:"max_tokens"`
		MaxCompletion  int             `json:"max_completion_tokens"`
		Options        struct {
			Temperature *float64 `json:"temperature"`
			NumPredict  int      `json:"num_predict"`
			NumCtx      int      `json:"num_ctx"`
		} `json:"options"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return err
	}
	req.Model = v.Model
	for i, m := range v.Messages {
		msg := Message{Role: m.Role, Content: contentText(m.Content), Images: m.Images}
		if req.Protocol == OpenAI {
			urls, images, err := contentImages(m.Content)
			if err != nil {
				return fmt.Errorf("messages[%d]: %w", i, err)
			}
			msg.ImageURLs, msg.Images = urls, images
		}
		req.Messages = append(req.Messages, msg)
	}
	req.Format, req.ResponseFormat = v.Format, v.ResponseFormat
	if req.Protocol == Ollama {
		req.Stream = v.Stream == nil || *v.Stream // Ollama streams unless told not to
		req.Temperature = v.Options.Temperature
		req.MaxTokens = v.Options.NumPredict
		req.NumCtx = v.Options.NumCtx
	} else {
		req.Stream = v.Stream != nil && *v.Stream
		req.Temperature = v.Temperature
		req.MaxTokens = max(v.MaxTokens, v.MaxCompletion)
	}
	if len(v.Input) > 0 {
		var one string
		if json.Unmarshal(v.Input, &one) == nil {
			req.Input = []string{one}
		} else if err := json.Unmarshal(v.Input, &req.Input); err != nil {
			return fmt.Errorf("input: %w", err)
		}
	}
	return nil
}

// contentText reads an OpenAI content field: a string or a list of parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}

// contentImages reads the image_url parts of an OpenAI content field,
// decoding data: URLs as a server would (a malformed one is an error).
func contentImages(raw json.RawMessage) (urls []string, images [][]byte, err error) {
	var parts []struct {
		Type     string `json:"type"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return nil, nil, nil // a plain string
	}
	for _, p := range parts {
		if p.Type != "image_url" {
			continue
		}
		u := p.ImageURL.URL
		urls = append(urls, u)
		if !strings.HasPrefix(u, "data:") {
			continue
		}
		meta, data, ok := strings.Cut(strings.TrimPrefix(u, "data:"), ",")
		if !ok || !strings.HasSuffix(meta, ";base64") {
			return nil, nil, fmt.Errorf("image_url: not a base64 data URL")
		}
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return nil, nil, fmt.Errorf("image_url: %w", err)
		}
		images = append(images, b)
	}
	return urls, images, nil
}

func (s *Server) writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if s.Protocol == Ollama {
		json.NewEncoder(w).Encode(map[string]string{"error": msg})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": status}})
}

func (s *Server) writeModels(w http.ResponseWriter, models []string) {
	w.Header().Set("Content-Type", "application/json")
	if s.Protocol == Ollama {
		list := []map[string]any{}
		for _, m := range models {
			list = append(list, map[string]any{"name": m, "model": m, "size": 1 << 30, "digest": "sha256:0"})
		}
		json.NewEncoder(w).Encode(map[string]any{"models": list})
		return
	}
	list := []map[string]any{}
	for _, m := range models {
		list = append(list, map[string]any{"id": m, "object": "model", "owned_by": "llamacpp"})
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": list})
}

func (s *Server) writeEmbeddings(w http.ResponseWriter, req Request, rep Reply, dim int) {
	vs := rep.Embeddings
	if vs == nil {
		for _, in := range req.Input {
			vs = append(vs, Vector(in, dim))
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if s.Protocol == Ollama {
		json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": vs, "prompt_eval_count": len(req.Input)})
		return
	}
	data := []map[string]any{}
	for i, v := range vs {
		data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]int{"prompt_tokens": len(req.Input), "total_tokens": len(req.Input)}})
}

// Vector is the deterministic unit vector the fake servers return for text.
func Vector(text string, dim int) []float32 {
	v := make([]float32, dim)
	var norm float64
	for i := range v {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d:%s", i, text)
		x := float64(h.Sum64()%2000)/1000 - 1
		v[i] = float32(x)
		norm += x * x
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / math.Sqrt(norm+1e-12))
	}
	return v
}

func (s *Server) writeChat(w http.ResponseWriter, r *http.Request, req Request, rep Reply) {
	chunks := rep.Chunks
	if chunks == nil {
		chunks = splitWords(rep.Text)
	}
	text := rep.Text
	if rep.Chunks != nil {
		text = strings.Join(rep.Chunks, "")
	}
	pt, ct := rep.PromptTokens, rep.CompletionTokens
	if pt == 0 {
		for _, m := range req.Messages {
			pt += len(strings.Fields(m.Content))
		}
	}
	if ct == 0 {
		ct = len(chunks)
	}
	flusher, _ := w.(http.Flusher)
	send := func(i int, line string) bool {
		if rep.Drop && i >= rep.DropAfter {
			panic(http.ErrAbortHandler) // cut the connection mid-stream
		}
		if rep.ChunkDelay > 0 && i > 0 && !s.wait(r, rep.ChunkDelay) {
			return false
		}
		if _, err := io.WriteString(w, line); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	if s.Protocol == Ollama {
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			if rep.Drop {
				w.WriteHeader(http.StatusOK)
				flusher.Flush()
				panic(http.ErrAbortHandler)
			}
			b, _ := json.Marshal(ollamaChunk(req.Model, now, text, true, pt, ct))
			if rep.Truncate {
				b = b[:len(b)/2]
			}
			w.Write(b)
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		for i, c := range chunks {
			b, _ := json.Marshal(ollamaChunk(req.Model, now, c, false, 0, 0))
			if !send(i, string(b)+"\n") {
				return
			}
		}
		if rep.StreamError != "" {
			b, _ := json.Marshal(map[string]string{"error": rep.StreamError})
			send(len(chunks), string(b)+"\n")
			return
		}
		if rep.Truncate {
			return
		}
		b, _ := json.Marshal(ollamaChunk(req.Model, now, "", true, pt, ct))
		send(len(chunks), string(b)+"\n")
		return
	}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		if rep.Drop {
			w.WriteHeader(http.StatusOK)
			flusher.Flush()
			panic(http.ErrAbortHandler)
		}
		b, _ := json.Marshal(map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
			"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
			"usage":   map[string]int{"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct},
		})
		if rep.Truncate {
			b = b[:len(b)/2]
		}
		w.Write(b)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	chunk := func(delta map[string]any, finish any) string {
		b, _ := json.Marshal(map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": req.Model,
			"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}},
		})
		return "data: " + string(b) + "\n\n"
	}
	for i, c := range chunks {
		delta := map[string]any{"content": c}
		if i == 0 {
			delta["role"] = "assistant"
		}
		if !send(i, chunk(delta, nil)) {
			return
		}
	}
	if rep.StreamError != "" {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": rep.StreamError, "type": "server_error", "code": 500}})
		send(len(chunks), "data: "+string(b)+"\n\n")
		return
	}
	if rep.Truncate {
		return
	}
	if !send(len(chunks), chunk(map[string]any{}, "stop")) {
		return
	}
	if strings.Contains(string(req.Body), `"include_usage":true`) {
		b, _ := json.Marshal(map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []any{}, "usage": map[string]int{"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct}})
		if !send(len(chunks)+1, "data: "+string(b)+"\n\n") {
			return
		}
	}
	send(len(chunks)+2, "data: [DONE]\n\n")
}

func ollamaChunk(model, at, content string, done bool, pt, ct int) map[string]any {
	m := map[string]any{"model": model, "created_at": at, "message": map[string]any{"role": "assistant", "content": content}, "done": done}
	if done {
		m["done_reason"] = "stop"
		m["total_duration"] = 1000000
		m["prompt_eval_count"] = pt
		m["eval_count"] = ct
	}
	return m
}

// splitWords splits s into streaming pieces that join back to s.
func splitWords(s string) []string {
	var out []string
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i] == ' ' {
			out = append(out, s[start:i])
			start = i
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
