package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// Event is one streamed message: a graph event, or the final "result" or
// "error" that ends a stream.
//
// Type is one of run_start, node_start, node_end, decision, token, custom,
// error, run_end, result and interrupt (the run paused to ask something;
// Interrupt says what and how to resume), and heartbeat (an HTTP NDJSON
// stream's keep-alive while nothing happens; clients skip it). A custom
// event named "token" (an LLM token from the generate node) becomes Type
// "token" with its text in Text; any other custom event keeps Type "custom"
// with its Name and Data.
//
// Events of a subgraph's nodes (the branches of retrieve: select, keyword,
// vector, search, web, files, fuse) carry Subgraph ("retrieve"), and those
// of a parallel branch its 1-based Branch; their Step counts within the
// subgraph.
type Event struct {
	Type     string `json:"type"`
	Step     int    `json:"step,omitempty"`
	Node     string `json:"node,omitempty"`
	Subgraph string `json:"subgraph,omitempty"`
	Branch   int    `json:"branch,omitempty"`
	// To and Reason are set on decisions: the edge taken and why.
	To     string `json:"to,omitempty"`
	Reason string `json:"reason,omitempty"`
	// DurationMS is a node's run time (node_end) or the run's (run_end).
	DurationMS float64 `json:"duration_ms,omitempty"`
	// ElapsedMS is the time since the run started.
	ElapsedMS float64         `json:"elapsed_ms"`
	Name      string          `json:"name,omitempty"`
	Text      string          `json:"text,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
	Error     *ErrorBody      `json:"error,omitempty"`
	Result    *QueryResponse  `json:"result,omitempty"`
	Interrupt *Interrupt      `json:"interrupt,omitempty"`
}

// errEmit marks a failure to deliver an event to the client.
var errEmit = errors.New("client stopped reading")

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// wireEvent converts an engine event to its wire form. It reports false
// for events clients do not see: checkpoints, and the engine's interrupt,
// which the server answers with its own (with a token).
func wireEvent(ev graph.Event, start time.Time) (Event, bool) {
	if ev.Kind == graph.EventCheckpoint || ev.Kind == graph.EventInterrupt {
		return Event{}, false
	}
	at := ev.Time
	if at.IsZero() {
		at = time.Now()
	}
	e := Event{Step: ev.Step, Node: ev.Node, Subgraph: ev.Subgraph, Branch: ev.Branch, ElapsedMS: ms(at.Sub(start))}
	switch ev.Kind {
	case graph.EventRunStart:
		e.Type = "run_start"
	case graph.EventNodeStart:
		e.Type = "node_start"
	case graph.EventNodeEnd:
		e.Type = "node_end"
		e.DurationMS = ms(ev.Duration)
		switch {
		case errors.Is(ev.Err, graph.ErrInterrupted):
			// The node paused the run: not a failure.
		case ev.Err != nil:
			e.Error = &ErrorBody{Code: "node_failed", Message: ev.Err.Error()}
		}
	case graph.EventDecision:
		e.Type = "decision"
		e.To, e.Reason = ev.To, ev.Reason
	case graph.EventCustom:
		if text, ok := ev.Payload.(string); ok && ev.Name == "token" {
			e.Type, e.Text = "token", text
			break
		}
		e.Type, e.Name = "custom", ev.Name
		if ev.Payload != nil {
			b, err := marshal(ev.Payload)
			if err != nil {
				b, _ = marshal(fmt.Sprint(ev.Payload))
			}
			e.Data = b
		}
	case graph.EventError:
		e.Type = "error"
		if ev.Err != nil {
			code, msg := classify(ev.Err)
			e.Error = &ErrorBody{Code: code.code, Message: msg}
		}
	case graph.EventRunEnd:
		e.Type = "run_end"
		e.DurationMS = ms(ev.Duration)
		if ev.Duration == 0 {
			e.DurationMS = ms(at.Sub(start))
		}
	default:
		e.Type = "unknown"
	}
	return e, true
}

// finalState takes the final state from a run_end event's payload.
func finalState(p any) (nodes.State, bool) {
	switch s := p.(type) {
	case nodes.State:
		return s, true
	case *nodes.State:
		if s != nil {
			return *s, true
		}
	}
	return nodes.State{}, false
}

// execute runs one query through the graph, or resumes a paused one
// (req.Resume). emit, when not nil, receives every event as it happens; an
// emit error stops the run. The run is bounded by the server's timeout (or
// the request's shorter one) and stops when ctx is cancelled. A run that
// pauses returns a response with only Interrupt (and the trace so far) set.
func (s *Server) execute(ctx context.Context, req QueryRequest, emit func(Event) error) (QueryResponse, error) {
	start := time.Now()
	s.metrics.queryStarted()
	outcome := "error"
	defer func() { s.metrics.queryDone(outcome, time.Since(start)) }()

	timeout := s.cfg.Timeout
	if t := time.Duration(req.Options.TimeoutMS) * time.Millisecond; t > 0 && t < timeout {
		timeout = t
	}
	runCtx, cancel := context.WithTimeoutCause(ctx, timeout, &timeoutError{timeout})
	defer cancel()

	var opts []graph.RunOption
	if req.Options.MaxSteps > 0 {
		opts = append(opts, graph.WithRunMaxSteps(req.Options.MaxSteps))
	}

	// run is the query as the pause remembers it.
	run := paused{conv: req.Thread, query: req.Query}
	var in nodes.State
	switch {
	case req.Resume != nil:
		if s.pauses == nil {
			return QueryResponse{}, errNoPauses
		}
		var err error
		if run, err = s.pauses.take(req.Resume.Token); err != nil {
			return QueryResponse{}, err
		}
		opts = append(opts, graph.Resume(run.token, *req.Resume.Allow))
	default:
		history := toTurns(req.History)
		if req.Thread != "" {
			h, err := s.cfg.Threads.History(runCtx, req.Thread)
			if err != nil {
				outcome = outcomeOf(err)
				return QueryResponse{}, fmt.Errorf("read thread %q: %w", req.Thread, err)
			}
			if err := nodes.CheckQuery(req.Query, h); err != nil {
				return QueryResponse{}, err
			}
			history = h
		}
		in = s.cfg.State(req.Query, history)
		if s.pauses != nil {
			run.thread = s.pauses.thread()
			opts = append(opts, graph.WithThread(run.thread))
		}
	}

	var (
		rec    = NewRecorder()
		final  nodes.State
		ended  bool
		pause  *graph.Interrupted
		runErr error
	)
	for ev, err := range s.cfg.Runner.Stream(runCtx, in, opts...) {
		if err != nil {
			// The engine's EventError; the caller reports the error
			// once, as the final message.
			runErr = err
			break
		}
		rec.Observe(ev)
		switch ev.Kind {
		case graph.EventRunEnd:
			final, ended = finalState(ev.Payload)
		case graph.EventInterrupt:
			pause, _ = ev.Payload.(*graph.Interrupted)
		}
		if emit != nil {
			we, ok := wireEvent(ev, start)
			if !ok {
				continue
			}
			if err := emit(we); err != nil {
				runErr = fmt.Errorf("%w: %w", errEmit, err)
				break
			}
		}
	}
	s.metrics.fallback(rec.fallbackCount())
	if runErr == nil && pause != nil {
		// Kept for its answer; the thread waits in the checkpointer.
		run.token = pause.Token
		tok, expires := s.pauses.add(run)
		outcome = "interrupted"
		resp := rec.Response(final, false)
		resp.Interrupt = interruptOf(pause, tok, expires)
		return resp, nil
	}
	if run.thread != "" {
		s.pauses.forget(run.thread)
	}
	if runErr == nil && !ended {
		runErr = errors.New("the graph ended without a final state")
	}
	if runErr != nil {
		// The engine may report cancellation in its own words; the
		// context says what really happened.
		if cause := context.Cause(runCtx); cause != nil && ctx.Err() == nil {
			runErr = cause
		} else if ctx.Err() != nil {
			runErr = fmt.Errorf("%w: %w", context.Canceled, runErr)
		}
		if errors.Is(runErr, graph.ErrMaxSteps) && req.Options.MaxSteps > 0 {
			// The client lowered the cap below what its question needed.
			runErr = newError(http.StatusBadRequest, "max_steps", fmt.Sprintf(
				"options.max_steps %d stopped the run before it answered: raise it (this server allows up to %d) or leave it out", req.Options.MaxSteps, s.cfg.MaxSteps))
		}
		outcome = outcomeOf(runErr)
		return QueryResponse{}, runErr
	}
	outcome = "ok"
	s.metrics.usage(final.Usage)
	s.metrics.route(string(final.Plan.Route), final.Plan.By)
	resp := rec.Response(final, req.Options.Text)
	if run.conv != "" {
		// The answer stands even if the thread cannot keep it: say so
		// in the notes rather than lose the answer.
		turn := graphrag.Turn{Query: run.query, Answer: final.Answer.Text}
		if err := s.cfg.Threads.Append(context.WithoutCancel(ctx), run.conv, turn); err != nil {
			s.cfg.Logger.Warn("thread append failed", "thread", run.conv, "error", err)
			resp.Notes = append(resp.Notes, fmt.Sprintf("this turn was not saved to thread %q: %v", run.conv, err))
		}
	}
	return resp, nil
}

// errNoPauses answers a resume on a server whose runs cannot pause.
var errNoPauses = newError(http.StatusNotImplemented, "not_configured",
	"this server does not pause queries, so there is nothing to resume (start it with --confirm-web to be asked before questions go to the web)")

// timeoutError is the cause of a run's deadline.
type timeoutError struct{ d time.Duration }

func (e *timeoutError) Error() string {
	return fmt.Sprintf("the query did not finish within %s; ask something narrower or raise the server's timeout", e.d)
}
func (e *timeoutError) Unwrap() error { return context.DeadlineExceeded }

func outcomeOf(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled), errors.Is(err, errEmit):
		return "canceled"
	}
	return "error"
}
