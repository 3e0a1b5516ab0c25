package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// stdioMessage is one line the stdio protocol writes:
//
//	{"id": 1, "result": {...}}                       the answer to request 1
//	{"id": 1, "error": {"code": "...", "message": "..."}}
//	{"id": 1, "interrupt": {"token": "...", ...}}    request 1 paused to ask; answer with "resume"
//	{"id": null, "request": 1, "event": {...}}       an event of request 1's run
//	{"id": null, "error": {...}}                     a line that could not be read as a request
type stdioMessage struct {
	ID        json.RawMessage `json:"id"`
	Request   json.RawMessage `json:"request,omitempty"`
	Event     *Event          `json:"event,omitempty"`
	Result    any             `json:"result,omitempty"`
	Interrupt *Interrupt      `json:"interrupt,omitempty"`
	Error     *ErrorBody      `json:"error,omitempty"`
}

// stdioRequest is one line a client writes.
type stdioRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

var jsonNull = json.RawMessage("null")

// ServeStdio serves the newline-delimited JSON protocol on in and out for
// a desktop app that runs graphrag as a child process. See the package
// documentation for the protocol. It writes nothing but protocol lines to
// out (logs go to cfg.Logger). It returns nil when in reaches EOF, after
// the requests in flight have finished, and ctx's error when ctx is
// cancelled (runs in flight are cancelled too). It does not wait for a
// Read on in that is blocked at that moment: the goroutine reading in
// ends at its next line or EOF.
func ServeStdio(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	s, err := New(cfg)
	if err != nil {
		return err
	}
	return s.ServeStdio(ctx, in, out)
}

// lineWriter writes whole lines under one mutex, so the lines of
// concurrent requests never interleave. After the first write error every
// send fails and failed is closed.
type lineWriter struct {
	mu     sync.Mutex
	out    io.Writer
	err    error
	failed chan struct{}
}

func (w *lineWriter) send(m stdioMessage) error {
	b, err := marshal(m)
	if err != nil {
		b, _ = marshal(stdioMessage{ID: m.ID, Error: &ErrorBody{"internal", "encode message: " + err.Error()}})
	}
	b = append(b, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if _, err := w.out.Write(b); err != nil {
		w.err = fmt.Errorf("write to stdout: %w", err)
		close(w.failed)
		return w.err
	}
	return nil
}

func (w *lineWriter) fail(id json.RawMessage, err error) {
	ae, msg := classify(err)
	_ = w.send(stdioMessage{ID: id, Error: &ErrorBody{Code: ae.code, Message: msg}})
}

type line struct {
	data    []byte
	tooLong bool
	err     error
}

// readLines sends each line of r to lines until EOF, an error, or done.
// A line longer than limit is reported as tooLong and skipped.
func readLines(r io.Reader, limit int64, lines chan<- line, done <-chan struct{}) {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if int64(len(buf)+len(chunk)) > limit+1 { // +1: the newline
				tooLong, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(buf) > 0 || tooLong {
			l := line{data: bytes.Clone(bytes.TrimSpace(buf)), tooLong: tooLong}
			buf, tooLong = buf[:0], false
			select {
			case lines <- l:
			case <-done:
				return
			}
		}
		if err != nil {
			select {
			case lines <- line{err: err}:
			case <-done:
			}
			return
		}
	}
}

// ServeStdio is the package-level ServeStdio on an existing Server, which
// shares its limits and metrics.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := &lineWriter{out: out, failed: make(chan struct{})}
	st := &stdioSession{s: s, w: w, ctx: ctx, running: make(map[string]context.CancelFunc)}

	lines := make(chan line)
	done := make(chan struct{})
	defer close(done)
	go readLines(in, s.cfg.MaxBodyBytes, lines, done)
	s.cfg.Logger.Info("serving the stdio protocol")

	for {
		select {
		case <-ctx.Done():
			st.wg.Wait()
			return ctx.Err()
		case <-w.failed:
			cancel()
			st.wg.Wait()
			return w.err
		case l := <-lines:
			switch {
			case l.err != nil:
				st.wg.Wait()
				if errors.Is(l.err, io.EOF) {
					return w.err
				}
				return fmt.Errorf("read stdin: %w", l.err)
			case l.tooLong:
				w.fail(jsonNull, newError(http.StatusRequestEntityTooLarge, "line_too_long",
					fmt.Sprintf("the request line is longer than the limit of %d bytes", s.cfg.MaxBodyBytes)))
			case len(l.data) > 0:
				st.handle(l.data)
			}
		}
	}
}

// stdioSession is the state of one ServeStdio loop.
type stdioSession struct {
	s   *Server
	w   *lineWriter
	ctx context.Context
	wg  sync.WaitGroup

	mu      sync.Mutex
	running map[string]context.CancelFunc // by request id
}

// handle answers one request line. Quick methods answer inline; query
// and ingest run in their own goroutine, bounded by the server's limits.
func (st *stdioSession) handle(data []byte) {
	var req stdioRequest
	if err := json.Unmarshal(data, &req); err != nil {
		st.w.fail(jsonNull, newError(http.StatusBadRequest, "bad_json",
			"the line is not a JSON request: "+err.Error()+`; send {"id": 1, "method": "ping"}`))
		return
	}
	if !validID(req.ID) {
		st.w.fail(jsonNull, newError(http.StatusBadRequest, "bad_request",
			`the request needs an "id" (a number or a string) to answer to`))
		return
	}
	switch req.Method {
	case "ping":
		_ = st.w.send(stdioMessage{ID: req.ID, Result: "pong"})
	case "graph":
		var p struct {
			Format string `json:"format"`
		}
		if err := decodeParams(req.Params, &p); err != nil {
			st.w.fail(req.ID, err)
			return
		}
		g, err := st.s.diagram(p.Format)
		if err != nil {
			st.w.fail(req.ID, err)
			return
		}
		_ = st.w.send(stdioMessage{ID: req.ID, Result: g})
	case "cancel":
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		if err := decodeParams(req.Params, &p); err != nil || !validID(p.ID) {
			st.w.fail(req.ID, newError(http.StatusBadRequest, "bad_request", `cancel needs params {"id": <the request to cancel>}`))
			return
		}
		st.mu.Lock()
		stop, ok := st.running[string(p.ID)]
		st.mu.Unlock()
		if ok {
			stop()
		}
		_ = st.w.send(stdioMessage{ID: req.ID, Result: map[string]bool{"canceled": ok}})
	case "query", "resume":
		var p QueryRequest
		if req.Method == "resume" {
			// {"token": ..., "allow": ...} with the query's options.
			var r struct {
				ResumeRequest
				Options QueryOptions `json:"options,omitzero"`
				Stream  string       `json:"stream,omitempty"`
			}
			if err := decodeParams(req.Params, &r); err != nil {
				st.w.fail(req.ID, err)
				return
			}
			p = QueryRequest{Resume: &r.ResumeRequest, Options: r.Options, Stream: r.Stream}
		} else if err := decodeParams(req.Params, &p); err != nil {
			st.w.fail(req.ID, err)
			return
		}
		if err := st.s.validate(&p); err != nil {
			st.w.fail(req.ID, err)
			return
		}
		mode, err := streamMode(p.Stream, "")
		if err != nil {
			st.w.fail(req.ID, err)
			return
		}
		if st.isRunning(req.ID) {
			st.w.fail(req.ID, errDuplicate(req.ID))
			return
		}
		st.start(req.ID, func(ctx context.Context) (any, error) {
			done, err := st.s.queries.acquire(ctx)
			if err != nil {
				return nil, err
			}
			defer done()
			var emit func(Event) error
			if mode != modeJSON || p.Stream == "" {
				emit = func(e Event) error {
					return st.w.send(stdioMessage{ID: jsonNull, Request: req.ID, Event: &e})
				}
			}
			resp, err := st.s.execute(ctx, p, emit)
			if err == nil && resp.Interrupt != nil {
				return resp.Interrupt, nil
			}
			return resp, err
		}, nil)
	case "ingest":
		var p IngestRequest
		if err := decodeParams(req.Params, &p); err != nil {
			st.w.fail(req.ID, err)
			return
		}
		st.start(req.ID, func(ctx context.Context) (any, error) {
			return st.s.ingest(ctx, p)
		}, nil)
	case "":
		st.w.fail(req.ID, newError(http.StatusBadRequest, "bad_request",
			`the request has no "method"; use "query", "resume", "ingest", "graph", "cancel" or "ping"`))
	default:
		st.w.fail(req.ID, newError(http.StatusNotFound, "unknown_method",
			fmt.Sprintf("method %q does not exist; use \"query\", \"resume\", \"ingest\", \"graph\", \"cancel\" or \"ping\"", req.Method)))
	}
}

// start runs fn in a goroutine registered under id, then answers with its
// result or error. If id is already running, it answers with an error and
// calls abandon instead.
func (st *stdioSession) start(id json.RawMessage, fn func(ctx context.Context) (any, error), abandon func()) {
	key := string(id)
	ctx, cancel := context.WithCancel(st.ctx)
	st.mu.Lock()
	if _, dup := st.running[key]; dup {
		st.mu.Unlock()
		cancel()
		if abandon != nil {
			abandon()
		}
		st.w.fail(id, errDuplicate(id))
		return
	}
	st.running[key] = cancel
	st.mu.Unlock()

	st.wg.Add(1)
	go func() {
		defer st.wg.Done()
		defer func() {
			st.mu.Lock()
			delete(st.running, key)
			st.mu.Unlock()
			cancel()
		}()
		defer func() {
			if p := recover(); p != nil {
				st.s.cfg.Logger.Error("stdio request panicked", "id", key, "panic", p)
				st.w.fail(id, newError(http.StatusInternalServerError, "internal", fmt.Sprint("internal error: ", p)))
			}
		}()
		res, err := fn(ctx)
		if err != nil {
			st.w.fail(id, err)
			return
		}
		if in, ok := res.(*Interrupt); ok {
			_ = st.w.send(stdioMessage{ID: id, Interrupt: in})
			return
		}
		_ = st.w.send(stdioMessage{ID: id, Result: res})
	}()
}

func (st *stdioSession) isRunning(id json.RawMessage) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	_, ok := st.running[string(id)]
	return ok
}

func errDuplicate(id json.RawMessage) error {
	return newError(http.StatusConflict, "duplicate_id",
		fmt.Sprintf("request %s is still running; give each request its own id", id))
}

// validID reports whether id is a JSON number or string.
func validID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return false
	}
	switch c := id[0]; {
	case c == '"':
		return true
	case c == '-' || (c >= '0' && c <= '9'):
		return true
	}
	return false
}

// decodeParams decodes a request's params; absent params decode as {}.
func decodeParams(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), jsonNull) {
		return nil
	}
	if err := decodeStrict(bytes.NewReader(raw), v); err != nil {
		var ae *apiError
		if errors.As(err, &ae) {
			return newError(ae.status, "bad_request", "params: "+ae.msg)
		}
		return err
	}
	return nil
}
