package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The wire layer sits at the HTTP boundary, under langchaingo's adapters.
// It does what the adapters cannot:
//
//   - puts the JSON Schema where each protocol wants it (Ollama's adapter
//     can only send format as a string; OpenAI's fixes response_format per
//     client), and falls back to JSON mode when a server refuses json_schema;
//   - retries connection errors, 5xx and 429 with backoff before any byte
//     of the body has been read, so a retry never duplicates streamed tokens;
//   - records the status code, transport and mid-stream read errors, and
//     whether a stream reached its end marker. The adapters flatten errors
//     into strings (and Ollama's ignores a stream cut short), so this record
//     is how a call tells unreachable from bad output from timeout.

type callInfoKey struct{}

// callInfo travels with one model call's context to the transport.
type callInfo struct {
	backend    Backend
	schema     json.RawMessage // nil: free text
	schemaName string
	// jsonMode is shared by every call to one OpenAI-compatible model: set
	// once the server has refused a json_schema response_format.
	jsonMode *atomic.Bool

	mu           sync.Mutex
	attempts     int
	status       int
	errBody      string
	transportErr error
	readErr      error
	streamErr    string // an error the server reported inside a stream
	stream       bool   // the response was a stream (NDJSON or SSE)
	ended        bool   // the stream reached its end marker
}

func withCall(ctx context.Context, ci *callInfo) context.Context {
	return context.WithValue(ctx, callInfoKey{}, ci)
}

func callFrom(ctx context.Context) *callInfo {
	ci, _ := ctx.Value(callInfoKey{}).(*callInfo)
	return ci
}

// transport wraps the caller's RoundTripper.
type transport struct {
	base       http.RoundTripper
	retries    int
	backoff    time.Duration
	maxBackoff time.Duration
}

// wrapClient returns a client like hc whose transport is wrapped.
func wrapClient(hc *http.Client, cfg Config) *http.Client {
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c := *hc
	c.Transport = &transport{base: base, retries: cfg.Retries, backoff: cfg.Backoff, maxBackoff: cfg.MaxBackoff}
	return &c
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	ci := callFrom(ctx)
	if ci == nil {
		ci = &callInfo{}
	}
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	body = ci.rewrite(req.URL.Path, body)
	retries := t.retries
	fellBack := false
	for attempt := 0; ; attempt++ {
		r := req.Clone(ctx)
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			b := body
			r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		}
		ci.mu.Lock()
		ci.attempts++
		ci.mu.Unlock()
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			ci.mu.Lock()
			ci.transportErr = err
			ci.mu.Unlock()
			if ctx.Err() != nil || attempt >= retries {
				return nil, err
			}
			if werr := sleep(ctx, t.wait(attempt, 0)); werr != nil {
				return nil, err
			}
			continue
		}
		ci.mu.Lock()
		ci.status = resp.StatusCode
		ci.transportErr = nil
		ci.mu.Unlock()
		if resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests {
			if attempt < retries {
				ra := retryAfter(resp.Header.Get("Retry-After"))
				drain(resp)
				if err := sleep(ctx, t.wait(attempt, ra)); err != nil {
					return nil, err
				}
				continue
			}
		}
		if resp.StatusCode >= 400 {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
			resp.Body.Close()
			ci.mu.Lock()
			ci.errBody = string(b)
			ci.mu.Unlock()
			// A server that does not know json_schema: retry once in JSON mode.
			if !fellBack && ci.backend == OpenAI && ci.schema != nil && ci.jsonMode != nil &&
				(resp.StatusCode == 400 || resp.StatusCode == 422) && mentionsSchema(string(b)) {
				ci.jsonMode.Store(true)
				body = ci.rewrite(req.URL.Path, body)
				fellBack = true
				attempt--
				continue
			}
			resp.Body = io.NopCloser(bytes.NewReader(b))
			return resp, nil
		}
		ct := resp.Header.Get("Content-Type")
		if strings.Contains(ct, "ndjson") || strings.Contains(ct, "event-stream") || strings.HasSuffix(req.URL.Path, "/api/chat") {
			ci.mu.Lock()
			ci.stream = true
			ci.mu.Unlock()
			resp.Body = &watchedBody{rc: resp.Body, ci: ci}
		} else {
			resp.Body = &watchedBody{rc: resp.Body, ci: ci, plain: true}
		}
		return resp, nil
	}
}

func (t *transport) wait(attempt int, retryAfter time.Duration) time.Duration {
	d := t.backoff << attempt
	if retryAfter > d {
		d = retryAfter
	}
	if t.maxBackoff > 0 && d > t.maxBackoff {
		d = t.maxBackoff
	}
	return d
}

func retryAfter(h string) time.Duration {
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 0
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

func mentionsSchema(body string) bool {
	b := strings.ToLower(body)
	return strings.Contains(b, "response_format") || strings.Contains(b, "json_schema") || strings.Contains(b, "schema")
}

// rewrite puts the call's schema into a chat request body.
func (ci *callInfo) rewrite(path string, body []byte) []byte {
	if len(body) == 0 {
		return body
	}
	isOllamaChat := strings.HasSuffix(path, "/api/chat")
	isOpenAIChat := strings.HasSuffix(path, "/chat/completions")
	if !isOllamaChat && !isOpenAIChat {
		return body
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return body
	}
	switch {
	case isOllamaChat:
		if ci.schema != nil {
			m["format"] = ci.schema
		} else if f, ok := m["format"]; ok && string(f) == `""` {
			delete(m, "format") // the adapter always sends one; "" is noise
		}
	case isOpenAIChat && ci.schema != nil:
		if ci.jsonMode != nil && ci.jsonMode.Load() {
			m["response_format"] = json.RawMessage(`{"type":"json_object"}`)
		} else {
			rf, _ := json.Marshal(map[string]any{
				"type": "json_schema",
				"json_schema": map[string]any{
					"name":   ci.schemaName,
					"strict": true,
					"schema": ci.schema,
				},
			})
			m["response_format"] = rf
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return body
	}
	return out
}

// watchedBody records read errors and whether a stream reached its end.
type watchedBody struct {
	rc    io.ReadCloser
	ci    *callInfo
	plain bool
	line  []byte // the line being read
}

func (w *watchedBody) Read(p []byte) (int, error) {
	n, err := w.rc.Read(p)
	if !w.plain {
		for _, c := range p[:n] {
			if c == '\n' {
				w.endLine()
				continue
			}
			if len(w.line) < 64<<10 {
				w.line = append(w.line, c)
			}
		}
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			w.endLine()
		}
		w.ci.mu.Lock()
		if errors.Is(err, io.EOF) {
			w.ci.ended = w.ci.ended || w.plain
		} else {
			w.ci.readErr = err
		}
		w.ci.mu.Unlock()
	}
	return n, err
}

// endLine checks a complete line for the stream's end marker. The adapters
// may stop reading at the marker, before EOF.
func (w *watchedBody) endLine() {
	if l := bytes.TrimSpace(w.line); len(l) > 0 {
		ended, msg := streamEnded(l), streamError(l)
		w.ci.mu.Lock()
		w.ci.ended = w.ci.ended || ended
		if msg != "" && w.ci.streamErr == "" {
			w.ci.streamErr = msg
		}
		w.ci.mu.Unlock()
	}
	w.line = w.line[:0]
}

// streamError returns the message of an error line inside a stream:
// Ollama's {"error": "..."} (a runner that crashed mid-answer) or an SSE
// data: {"error": {"message": "..."}} event.
func streamError(line []byte) string {
	s := bytes.TrimSpace(bytes.TrimPrefix(line, []byte("data:")))
	if !bytes.Contains(s, []byte(`"error"`)) {
		return ""
	}
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(s, &v) != nil || len(v.Error) == 0 || string(v.Error) == "null" {
		return ""
	}
	var msg string
	if json.Unmarshal(v.Error, &msg) == nil {
		return msg
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(v.Error, &obj) == nil && obj.Message != "" {
		return obj.Message
	}
	return string(v.Error)
}

func (w *watchedBody) Close() error { return w.rc.Close() }

// streamEnded reports whether the last line of a stream is its end marker:
// "data: [DONE]" for SSE, a {"done": true} object for Ollama's NDJSON.
func streamEnded(last []byte) bool {
	s := string(last)
	if strings.HasPrefix(s, "data:") {
		return strings.TrimSpace(strings.TrimPrefix(s, "data:")) == "[DONE]"
	}
	var v struct {
		Done bool `json:"done"`
	}
	return json.Unmarshal(last, &v) == nil && v.Done
}

var errCallTimeout = errors.New("call timeout")

// classify turns what happened in a call into one of the error kinds, or
// nil when the call succeeded. parent is the caller's context, cctx the
// call's own (with the timeout).
func classify(parent, cctx context.Context, ci *callInfo, err error) (kind, cause error) {
	ci.mu.Lock()
	defer ci.mu.Unlock()
	switch {
	case parent.Err() != nil:
		if errors.Is(parent.Err(), context.DeadlineExceeded) {
			return ErrTimeout, parent.Err()
		}
		return context.Canceled, context.Cause(parent)
	case errors.Is(context.Cause(cctx), errCallTimeout):
		return ErrTimeout, errCallTimeout
	case ci.status == http.StatusNotFound && strings.Contains(strings.ToLower(ci.errBody), "model"):
		return ErrModelMissing, errors.New(clip(strings.TrimSpace(ci.errBody), 200))
	case ci.status == http.StatusNotFound:
		return ErrRejected, errors.New(statusErr(ci).Error() + ": no such endpoint; check the server URL (OpenAI-compatible URLs end in /v1)")
	case ci.status >= 500 || ci.status == http.StatusTooManyRequests:
		return ErrServer, statusErr(ci)
	case ci.status >= 400:
		return ErrRejected, statusErr(ci)
	case ci.streamErr != "":
		return ErrServer, errors.New("the server failed mid-answer: " + clip(ci.streamErr, 200))
	case ci.readErr != nil && !ci.ended:
		return ErrUnreachable, errors.New("connection lost mid-answer: " + ci.readErr.Error())
	case ci.transportErr != nil:
		return ErrUnreachable, ci.transportErr
	case err != nil:
		return ErrBadOutput, err
	case ci.stream && !ci.ended:
		return ErrBadOutput, errors.New("the stream ended before the model finished (truncated)")
	}
	return nil, nil
}

func statusErr(ci *callInfo) error {
	msg := "HTTP " + strconv.Itoa(ci.status)
	if b := strings.TrimSpace(ci.errBody); b != "" {
		msg += ": " + clip(b, 200)
	}
	if ci.attempts > 1 {
		msg += " (after " + strconv.Itoa(ci.attempts) + " attempts)"
	}
	return errors.New(msg)
}
