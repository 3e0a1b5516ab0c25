package graph

import (
	"context"
	"fmt"
	"iter"
	"runtime/debug"
	"strings"
	"time"
)

// RunOption configures one Invoke or Stream.
type RunOption func(*runConfig)

type runConfig struct {
	maxSteps  int
	observers []func(Event)
}

// WithObserver calls fn with every event of the run, in order, one call at
// a time. fn is called synchronously: in the goroutine running the graph,
// or for custom events in the goroutine that called Emit, while the run
// waits. A slow observer therefore slows the run but cannot reorder,
// corrupt or deadlock it; fn must not call Emit itself. EventRunEnd's
// Payload is the final state, shared with the caller, so treat it as
// read-only. A panic in fn is not recovered: it unwinds to the caller of
// Invoke. Several WithObserver options add up, called in order.
func WithObserver(fn func(Event)) RunOption {
	return func(c *runConfig) {
		if fn != nil {
			c.observers = append(c.observers, fn)
		}
	}
}

// WithRunMaxSteps overrides the graph's step limit for one run. Values
// below 1 are ignored.
func WithRunMaxSteps(n int) RunOption {
	return func(c *runConfig) {
		if n > 0 {
			c.maxSteps = n
		}
	}
}

func (r *Runnable[S]) config(opts []RunOption) runConfig {
	c := runConfig{maxSteps: r.maxSteps}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Invoke runs the graph from its entry point with the initial state s until
// a node routes to END, and returns the final state.
//
// On failure it returns the last good state with the error: ctx's error
// (wrapped) when ctx ends between steps, ErrMaxSteps (wrapped) past the step
// limit, or a *NodeError when a node or its router fails, panics, or a
// router answers an undeclared target (ErrUndeclaredTarget).
func (r *Runnable[S]) Invoke(ctx context.Context, s S, opts ...RunOption) (S, error) {
	if len(opts) == 0 {
		return r.run(ctx, s, r.maxSteps, nil, time.Time{})
	}
	cfg := r.config(opts)
	var em *emitter
	switch len(cfg.observers) {
	case 0:
	case 1:
		em = &emitter{observe: cfg.observers[0]}
	default:
		obs := cfg.observers
		em = &emitter{observe: func(e Event) {
			for _, fn := range obs {
				fn(e)
			}
		}}
	}
	return r.observed(ctx, s, cfg.maxSteps, em)
}

// Stream runs the graph like Invoke and yields its events as they happen.
// The run happens inside the iteration, in the consumer's goroutine: a slow
// consumer slows the run and nothing is buffered. Every event is yielded
// with a nil error except EventError, which is yielded with the run's error;
// the last event is always EventRunEnd, whose Payload is the final state.
// Breaking out of the loop cancels the run's context and stops the run
// before its next step; no event is yielded after that.
func (r *Runnable[S]) Stream(ctx context.Context, s S, opts ...RunOption) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		cfg := r.config(opts)
		em := &emitter{}
		obs := cfg.observers
		em.observe = func(e Event) {
			for _, fn := range obs {
				fn(e)
			}
			var err error
			if e.Kind == EventError {
				err = e.Err
			}
			if !yield(e, err) {
				em.cancelled = true // em.mu is held by deliver
				cancel()
			}
		}
		r.observed(ctx, s, cfg.maxSteps, em)
	}
}

// observed runs with an emitter, adding the run's start and end events.
func (r *Runnable[S]) observed(ctx context.Context, s S, maxSteps int, em *emitter) (S, error) {
	if em == nil {
		return r.run(ctx, s, maxSteps, nil, time.Time{})
	}
	ctx = context.WithValue(ctx, emitterKey{}, em)
	start := time.Now()
	em.send(Event{Kind: EventRunStart, Node: START, Time: start})
	out, err := r.run(ctx, s, maxSteps, em, start)
	now := time.Now()
	if err != nil {
		em.send(Event{Kind: EventError, Step: stepOf(err), Node: nodeOf(err), Err: err, Time: now})
	}
	em.send(Event{Kind: EventRunEnd, Node: END, Err: err, Payload: out, Duration: now.Sub(start), Time: now})
	return out, err
}

// run is the step loop. em is nil when nobody observes the run; the loop
// then does no allocation and reads no clock. last is the time of the
// previous event (RunStart).
func (r *Runnable[S]) run(ctx context.Context, s S, maxSteps int, em *emitter, last time.Time) (S, error) {
	cur := r.entry
	for step := 1; ; step++ {
		n := &r.nodes[cur]
		if err := ctx.Err(); err != nil {
			return s, &stepError{step: step, node: n.name, err: fmt.Errorf("graph: run stopped before step %d (node %q): %w", step, n.name, err)}
		}
		if step > maxSteps {
			return s, &stepError{step: step, node: n.name, err: fmt.Errorf("graph: %w: %d steps run without reaching END; next node was %q (raise it with WithMaxSteps or WithRunMaxSteps)", ErrMaxSteps, maxSteps, n.name)}
		}
		var start time.Time
		if em != nil {
			// The previous event's time stands for this one: nothing but
			// the loop ran in between, and the clock is not free.
			start = last
			em.sendNode(Event{Kind: EventNodeStart, Step: step, Node: n.name, Time: start}, true)
		}
		out, err := callNode(ctx, n.fn, s, em)
		if err != nil {
			nerr := &NodeError{Node: n.name, Step: step, Err: err}
			if em != nil {
				now := time.Now()
				em.sendNode(Event{Kind: EventNodeEnd, Step: step, Node: n.name, Duration: now.Sub(start), Err: nerr, Time: now}, false)
			}
			return s, nerr
		}
		s = out
		if em != nil {
			last = time.Now()
			em.sendNode(Event{Kind: EventNodeEnd, Step: step, Node: n.name, Duration: last.Sub(start), Time: last}, n.router != nil)
		}
		next := n.next
		if n.router != nil {
			d, err := callRouter(ctx, n.router, s, em)
			if err != nil {
				if em != nil {
					em.leave()
				}
				return s, &NodeError{Node: n.name, Step: step, Err: fmt.Errorf("router: %w", err)}
			}
			var ok bool
			if next, ok = n.target(d.To); !ok {
				if em != nil {
					em.leave()
				}
				return s, &NodeError{Node: n.name, Step: step, Err: fmt.Errorf("router answered %q, which is not among its declared targets [%s]: %w",
					d.To, strings.Join(n.targets, " "), ErrUndeclaredTarget)}
			}
			if em != nil {
				last = time.Now()
				em.sendNode(Event{Kind: EventDecision, Step: step, Node: n.name, To: d.To, Reason: d.Reason, Time: last}, false)
			}
		}
		if next == endIndex {
			return s, nil
		}
		cur = next
	}
}

func (n *node[S]) target(to string) (int, bool) {
	if n.targetSet != nil {
		i, ok := n.targetSet[to]
		return i, ok
	}
	for i, t := range n.targets {
		if t == to {
			return n.targetIdx[i], true
		}
	}
	return 0, false
}

func callNode[S any](ctx context.Context, fn NodeFunc[S], s S, em *emitter) (out S, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered(v, em)
		}
	}()
	return fn(ctx, s)
}

func callRouter[S any](ctx context.Context, fn RouterFunc[S], s S, em *emitter) (d Decision, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered(v, em)
		}
	}()
	return fn(ctx, s)
}

// recovered turns a node's panic into an error. A panic raised by the
// observer (or a Stream consumer) while a node emitted an event is not the
// node's fault and is re-raised.
func recovered(v any, em *emitter) error {
	if em != nil && em.observerPanicked() {
		panic(v)
	}
	return &PanicError{Value: v, Stack: debug.Stack()}
}

// stepError is a run error that is not a node's fault (context, step limit);
// it remembers where the run stopped for the EventError event and
// otherwise reads as the wrapped error.
type stepError struct {
	step int
	node string
	err  error
}

func (e *stepError) Error() string { return e.err.Error() }
func (e *stepError) Unwrap() error { return e.err }

func stepOf(err error) int {
	switch e := err.(type) {
	case *NodeError:
		return e.Step
	case *stepError:
		return e.step
	}
	return 0
}

func nodeOf(err error) string {
	switch e := err.(type) {
	case *NodeError:
		return e.Node
	case *stepError:
		return e.node
	}
	return ""
}
