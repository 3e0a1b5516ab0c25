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
// error, run_end and result, and heartbeat (an HTTP NDJSON stream's
// keep-alive while nothing happens; clients skip it). A custom event named "token" (an LLM token from
// the generate node) becomes Type "token" with its text in Text; any other
// custom event keeps Type "custom" with its Name and Data.
type Event struct {
	Type string `json:"type"`
	Step int    `json:"step,omitempty"`
	Node string `json:"node,omitempty"`
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
}

// errEmit marks a failure to deliver an event to the client.
var errEmit = errors.New("client stopped reading")

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// wireEvent converts an engine event to its wire form.
func wireEvent(ev graph.Event, start time.Time) Event {
	at := ev.Time
	if at.IsZero() {
		at = time.Now()
	}
	e := Event{Step: ev.Step, Node: ev.Node, ElapsedMS: ms(at.Sub(start))}
	switch ev.Kind {
	case graph.EventRunStart:
		e.Type = "run_start"
	case graph.EventNodeStart:
		e.Type = "node_start"
	case graph.EventNodeEnd:
		e.Type = "node_end"
		e.DurationMS = ms(ev.Duration)
		if ev.Err != nil {
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
	return e
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

// execute runs one query through the graph. emit, when not nil, receives
// every event as it happens; an emit error stops the run. The run is
// bounded by the server's timeout (or the request's shorter one) and
// stops when ctx is cancelled.
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

	var (
		rec    = NewRecorder()
		final  nodes.State
		ended  bool
		runErr error
	)
	for ev, err := range s.cfg.Runner.Stream(runCtx, s.cfg.State(req.Query, history), opts...) {
		if err != nil {
			// The engine's EventError; the caller reports the error
			// once, as the final message.
			runErr = err
			break
		}
		rec.Observe(ev)
		if ev.Kind == graph.EventRunEnd {
			final, ended = finalState(ev.Payload)
		}
		if emit != nil {
			if err := emit(wireEvent(ev, start)); err != nil {
				runErr = fmt.Errorf("%w: %w", errEmit, err)
				break
			}
		}
	}
	s.metrics.fallback(rec.fallbackCount())
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
	if req.Thread != "" {
		// The answer stands even if the thread cannot keep it: say so
		// in the notes rather than lose the answer.
		turn := graphrag.Turn{Query: req.Query, Answer: final.Answer.Text}
		if err := s.cfg.Threads.Append(context.WithoutCancel(ctx), req.Thread, turn); err != nil {
			s.cfg.Logger.Warn("thread append failed", "thread", req.Thread, "error", err)
			resp.Notes = append(resp.Notes, fmt.Sprintf("this turn was not saved to thread %q: %v", req.Thread, err))
		}
	}
	return resp, nil
}

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
