package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/graphrag/graphrag/nodes"
)

// Stream framings.
const (
	modeJSON   = "json"
	modeNDJSON = "ndjson"
	modeSSE    = "sse"
)

// streamMode picks the framing: the body's "stream" field wins, then the
// Accept header, then JSON.
func streamMode(field, accept string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(field)) {
	case "":
	case modeJSON, "none":
		return modeJSON, nil
	case modeNDJSON, "jsonl":
		return modeNDJSON, nil
	case modeSSE:
		return modeSSE, nil
	default:
		return "", newError(http.StatusBadRequest, "bad_request",
			fmt.Sprintf("stream %q is not supported; use \"json\", \"ndjson\" or \"sse\"", field))
	}
	accept = strings.ToLower(accept)
	switch {
	case strings.Contains(accept, "text/event-stream"):
		return modeSSE, nil
	case strings.Contains(accept, "application/x-ndjson"), strings.Contains(accept, "application/ndjson"),
		strings.Contains(accept, "application/jsonl"):
		return modeNDJSON, nil
	}
	return modeJSON, nil
}

// decodeBody reads a JSON body of at most Config.MaxBodyBytes into v,
// refusing unknown fields and trailing data. The Content-Type is not
// checked, so that `curl -d '{...}'` works as written: cross-site
// browser posts are refused by the cross-origin check instead.
func (s *Server) decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	if r.ContentLength > s.cfg.MaxBodyBytes {
		return bodyTooLarge(s.cfg.MaxBodyBytes)
	}
	body := http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	if err := decodeStrict(body, v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return bodyTooLarge(s.cfg.MaxBodyBytes)
		}
		return err
	}
	return nil
}

func bodyTooLarge(limit int64) error {
	return newError(http.StatusRequestEntityTooLarge, "body_too_large",
		fmt.Sprintf("the request body is larger than the server's limit of %d bytes", limit))
}

// decodeStrict decodes one JSON value from r into v.
func decodeStrict(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		if errors.Is(err, io.EOF) {
			return newError(http.StatusBadRequest, "bad_json", "the request body is empty; send a JSON object")
		}
		return newError(http.StatusBadRequest, "bad_json", "the request body is not valid JSON for this endpoint: "+err.Error())
	}
	if dec.More() {
		return newError(http.StatusBadRequest, "bad_json", "the request body has data after the JSON object")
	}
	return nil
}

// validate checks a query request against the server's limits.
func (s *Server) validate(req *QueryRequest) error {
	if req.Resume != nil {
		return s.validateResume(req)
	}
	if strings.TrimSpace(req.Query) == "" {
		return newError(http.StatusBadRequest, "missing_query", `the request has no query; send {"query": "your question"}`)
	}
	// Refused here, before the request waits for a worker; the graph
	// checks again for callers that do not come through the server.
	if err := nodes.CheckQuery(req.Query, toTurns(req.History)); err != nil {
		return err
	}
	if err := s.checkThread(req); err != nil {
		return err
	}
	if req.Options.MaxSteps < 0 || req.Options.MaxSteps > s.cfg.MaxSteps {
		return newError(http.StatusBadRequest, "bad_request",
			fmt.Sprintf("options.max_steps must be between 1 and %d", s.cfg.MaxSteps))
	}
	if req.Options.TimeoutMS < 0 {
		return newError(http.StatusBadRequest, "bad_request", "options.timeout_ms must be positive")
	}
	return nil
}

// handleQuery serves POST /v1/query.
func (s *Server) handleQuery(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodPost) {
		return
	}
	var req QueryRequest
	if err := s.decodeBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if err := s.validate(&req); err != nil {
		writeError(w, err)
		return
	}
	mode, err := streamMode(req.Stream, r.Header.Get("Accept"))
	if err != nil {
		writeError(w, err)
		return
	}
	done, err := s.queries.acquire(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	defer done()

	if mode == modeJSON {
		resp, err := s.execute(r.Context(), req, nil)
		if err != nil {
			s.logRunError(r, err)
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, resp)
		return
	}

	sw := newStreamWriter(w, mode == modeSSE)
	if err := sw.start(); err != nil {
		return
	}
	defer sw.keepAlive(s.cfg.Heartbeat)()
	resp, err := s.execute(r.Context(), req, sw.event)
	if err != nil {
		s.logRunError(r, err)
		ae, msg := classify(err)
		_ = sw.event(Event{Type: "error", ElapsedMS: sw.elapsed(), Error: &ErrorBody{Code: ae.code, Message: msg}})
		return
	}
	if resp.Interrupt != nil {
		_ = sw.event(Event{Type: "interrupt", ElapsedMS: sw.elapsed(), Interrupt: resp.Interrupt})
		return
	}
	_ = sw.event(Event{Type: "result", ElapsedMS: sw.elapsed(), Result: &resp})
}

// validateResume checks a request that resumes a paused query.
func (s *Server) validateResume(req *QueryRequest) error {
	switch {
	case s.pauses == nil:
		return errNoPauses
	case strings.TrimSpace(req.Resume.Token) == "":
		return newError(http.StatusBadRequest, "bad_request", `resume needs the token of the paused query: {"resume": {"token": "...", "allow": true}}`)
	case req.Resume.Allow == nil:
		return newError(http.StatusBadRequest, "bad_request", `resume needs the answer: "allow": true sends the question to the web, false answers from your files only`)
	case req.Query != "" || len(req.History) > 0 || req.Thread != "":
		return newError(http.StatusBadRequest, "bad_request", `a resume continues the paused query: leave out "query", "history" and "thread"`)
	case req.Options.MaxSteps < 0 || req.Options.MaxSteps > s.cfg.MaxSteps:
		return newError(http.StatusBadRequest, "bad_request", fmt.Sprintf("options.max_steps must be between 1 and %d", s.cfg.MaxSteps))
	case req.Options.TimeoutMS < 0:
		return newError(http.StatusBadRequest, "bad_request", "options.timeout_ms must be positive")
	}
	return nil
}

func (s *Server) logRunError(r *http.Request, err error) {
	ae, msg := classify(err)
	s.cfg.Logger.Warn("query failed", "path", r.URL.Path, "code", ae.code, "error", msg)
}

// streamWriter writes events as NDJSON lines or server-sent events,
// flushing each so the client sees it at once. A mutex orders the run's
// events and the keep-alive heartbeats.
type streamWriter struct {
	mu    sync.Mutex
	w     http.ResponseWriter
	rc    *http.ResponseController
	sse   bool
	seq   int
	buf   []byte
	begin time.Time
	last  time.Time // of the last write
}

func newStreamWriter(w http.ResponseWriter, sse bool) *streamWriter {
	now := time.Now()
	return &streamWriter{w: w, rc: http.NewResponseController(w), sse: sse, begin: now, last: now}
}

func (sw *streamWriter) elapsed() float64 { return ms(time.Since(sw.begin)) }

// start sends the headers at once, so the client knows the query was
// accepted before the first event.
func (sw *streamWriter) start() error {
	h := sw.w.Header()
	if sw.sse {
		h.Set("Content-Type", "text/event-stream; charset=utf-8")
	} else {
		h.Set("Content-Type", "application/x-ndjson")
	}
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // tell reverse proxies not to buffer
	h.Set("X-Content-Type-Options", "nosniff")
	sw.w.WriteHeader(http.StatusOK)
	return sw.rc.Flush()
}

// event writes one event. JSON never holds a raw newline, so one data line
// carries a whole SSE event.
func (sw *streamWriter) event(e Event) error {
	b, err := marshal(e)
	if err != nil {
		return fmt.Errorf("encode %s event: %w", e.Type, err)
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.buf = sw.buf[:0]
	if sw.sse {
		sw.seq++
		sw.buf = fmt.Appendf(sw.buf, "id: %d\nevent: %s\ndata: ", sw.seq, e.Type)
		sw.buf = append(sw.buf, b...)
		sw.buf = append(sw.buf, '\n', '\n')
	} else {
		sw.buf = append(append(sw.buf, b...), '\n')
	}
	return sw.write(sw.buf)
}

// write writes and flushes p; sw.mu is held.
func (sw *streamWriter) write(p []byte) error {
	sw.last = time.Now()
	if _, err := sw.w.Write(p); err != nil {
		return err
	}
	return sw.rc.Flush()
}

// keepAlive writes a heartbeat whenever the stream has been silent for
// every (an SSE comment, or a "heartbeat" event in NDJSON), so that
// proxies and clients with idle timeouts keep a stream open while a slow
// model thinks. The returned stop waits for the heartbeat goroutine to
// end; it must be called before the handler returns. every < 0 disables.
func (sw *streamWriter) keepAlive(every time.Duration) (stop func()) {
	if every < 0 {
		return func() {}
	}
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(max(every/2, time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			sw.mu.Lock()
			if time.Since(sw.last) >= every {
				var err error
				if sw.sse {
					err = sw.write([]byte(": keep-alive\n\n"))
				} else {
					b, _ := marshal(Event{Type: "heartbeat", ElapsedMS: sw.elapsed()})
					err = sw.write(append(b, '\n'))
				}
				if err != nil {
					sw.mu.Unlock()
					return
				}
			}
			sw.mu.Unlock()
		}
	}()
	return func() {
		close(done)
		<-exited
	}
}
