package graph

import (
	"context"
	"encoding/json"
	"errors"
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

	thread     string
	fromSeq    int64 // resume from this checkpoint instead of the latest
	strictFrom bool  // fromSeq must still be the latest (a resume token)
	resume     any
	hasResume  bool
	err        error // a malformed option, reported by the run
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

// WithThread makes the run durable under the thread id (the graph must be
// compiled WithCheckpointer): a checkpoint is saved after every step. If
// the thread's latest checkpoint is of an unfinished run (a crash, an
// interrupt), the run resumes from it and the state passed to Invoke is
// not used; otherwise a new run starts from the entry point with that
// state, appending to the thread's history.
func WithThread(id string) RunOption {
	return func(c *runConfig) { c.thread = id }
}

// WithCheckpoint resumes the thread from its checkpoint seq instead of its
// latest: time travel. The run appends new checkpoints after the latest,
// leaving the history it branched from in place. To resume with an edited
// state, write it with UpdateState and resume from the checkpoint that
// returns.
func WithCheckpoint(seq int64) RunOption {
	return func(c *runConfig) { c.fromSeq, c.strictFrom = seq, false }
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
// (wrapped) when ctx ends between steps, ErrMaxSteps (wrapped, as a
// *MaxStepsError naming the loop that ran away) past the step limit, a
// *NodeError when a node or its router fails, panics, or a router answers
// an undeclared target (ErrUndeclaredTarget), or an *Interrupted when a
// durable run pauses.
func (r *Runnable[S]) Invoke(ctx context.Context, s S, opts ...RunOption) (S, error) {
	if len(opts) == 0 {
		return r.run(ctx, s, position{cur: r.entry}, r.maxSteps, nil, time.Time{}, nil)
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
	return r.observed(ctx, s, &cfg, em)
}

// Stream runs the graph like Invoke and yields its events as they happen.
// The run happens inside the iteration, in the consumer's goroutine: a slow
// consumer slows the run and nothing is buffered. Every event is yielded
// with a nil error except EventError, which is yielded with the run's error;
// the last event is always EventRunEnd, whose Payload is the final state.
// A paused run yields EventInterrupt (its Payload is the *Interrupted) and
// then EventRunEnd with the *Interrupted as Err.
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
		r.observed(ctx, s, &cfg, em)
	}
}

// observed runs with options: an emitter (adding the run's start and end
// events) and/or a thread.
func (r *Runnable[S]) observed(ctx context.Context, s S, cfg *runConfig, em *emitter) (S, error) {
	var sc *scope
	var start time.Time
	if em != nil {
		sc = &scope{em: em}
		ctx = context.WithValue(ctx, emitterKey{}, sc)
		start = time.Now()
		em.send(Event{Kind: EventRunStart, Node: START, Time: start})
	}
	var (
		out = s
		err = cfg.err
		d   *durable
		pos = position{cur: r.entry}
	)
	if err == nil && cfg.thread != "" {
		d, pos, out, err = r.begin(ctx, s, cfg)
	} else if err == nil && (cfg.hasResume || cfg.fromSeq != 0) {
		err = fmt.Errorf("graph: resuming needs a thread; add WithThread")
	}
	if err == nil {
		out, err = r.run(ctx, out, pos, cfg.maxSteps, sc, start, d)
		if d != nil && r.retention != (Retention{}) && !errors.Is(err, ErrCheckpointConflict) {
			if st, ok := d.cp.(CheckpointStore); ok {
				if _, perr := st.Prune(context.WithoutCancel(ctx), d.thread, r.retention); perr != nil && err == nil {
					err = fmt.Errorf("graph: prune thread %q: %w", d.thread, perr)
				}
			}
		}
	}
	if em == nil {
		return out, err
	}
	now := time.Now()
	var in *Interrupted
	switch {
	case errors.As(err, &in):
		em.send(Event{Kind: EventInterrupt, Step: stepOf(err), Node: in.Node, Payload: in, Time: now})
	case err != nil:
		em.send(Event{Kind: EventError, Step: stepOf(err), Node: nodeOf(err), Err: err, Time: now})
	}
	em.send(Event{Kind: EventRunEnd, Node: END, Err: err, Payload: out, Duration: now.Sub(start), Time: now})
	return out, err
}

// position is where a run starts: before node cur, or, with after set,
// past it with only its edges left to take (a fan-out not yet run).
type position struct {
	cur   int
	after bool
	step  int // steps the thread's run had taken before
}

// nameOf returns the name of node i, or END.
func (r *Runnable[S]) nameOf(i int) string {
	if i == endIndex {
		return END
	}
	return r.nodes[i].name
}

// checkpoint saves s after step.
func (r *Runnable[S]) checkpoint(ctx context.Context, d *durable, s S, step int, node, next string, pi *PendingInterrupt, sc *scope) error {
	return d.save(ctx, func() (json.RawMessage, error) { return r.encodeState(s) }, r.stateVersion, step, node, next, pi, sc)
}

// pauseAt saves the checkpoint a run pauses at, holding s, the state
// before the interrupted node or fan-out, and returns the *Interrupted.
func (r *Runnable[S]) pauseAt(ctx context.Context, d *durable, s S, step int, cpNode, next, node string, when InterruptWhen, payload any, sc *scope) error {
	return d.pause(ctx, func() (json.RawMessage, error) { return r.encodeState(s) }, r.stateVersion, step, cpNode, next, node, when, payload, sc)
}

// noThread is the error of a run without a thread that reaches an
// interrupt point.
func (r *Runnable[S]) noThread(node string, step int, option string) error {
	return &NodeError{Node: node, Step: step, Err: fmt.Errorf("%s names this node, but only a run with WithThread on a graph compiled WithCheckpointer can pause: %w", option, ErrNoCheckpointer)}
}

// run is the step loop. sc is nil when nobody observes the run; without
// it and without a thread (d nil) the loop does no allocation and reads no
// clock. last is the time of the previous event (RunStart).
func (r *Runnable[S]) run(ctx context.Context, s S, pos position, maxSteps int, sc *scope, last time.Time, d *durable) (S, error) {
	cur := pos.cur
	after := pos.after
	resumedFanOut := pos.after // its checkpoint before the fan-out exists
	first := pos.step + 1
	// The last nodes run, to name the loop that ran away at the step limit.
	var hist stepHistory
	for step := first; ; step++ {
		n := &r.nodes[cur]
		if !after {
			if err := ctx.Err(); err != nil {
				return s, &stepError{step: step, node: n.name, err: fmt.Errorf("graph: run stopped before step %d (node %q): %w", step, n.name, err)}
			}
			if step-first >= maxSteps {
				return s, r.maxStepsError(&hist, step, cur, maxSteps)
			}
			hist.add(cur)
			if n.before {
				if d == nil {
					return s, r.noThread(n.name, step, "WithInterruptBefore")
				}
				if d.skipBefore != cur {
					return s, r.pauseAt(ctx, d, s, step-1, d.node, n.name, n.name, InterruptBefore, nil, sc)
				}
				d.skipBefore = -1
			}
			var start time.Time
			if sc != nil {
				// The previous event's time stands for this one: nothing but
				// the loop ran in between, and the clock is not free.
				start = sc.since(last)
				sc.sendNode(Event{Kind: EventNodeStart, Step: step, Node: n.name, Time: start}, true)
			}
			nctx := ctx
			if d != nil {
				nctx = d.nodeContext(ctx, cur)
			}
			out, err := callNode(nctx, n.fn, s, sc)
			if err != nil {
				nerr := &NodeError{Node: n.name, Step: step, Err: err}
				if sc != nil {
					now := time.Now()
					sc.sendNode(Event{Kind: EventNodeEnd, Step: step, Node: n.name, Duration: now.Sub(start), Err: nerr, Time: now}, false)
				}
				var sig *interruptSignal
				if errors.As(err, &sig) {
					if d != nil {
						return s, r.pauseAt(ctx, d, s, step-1, d.node, n.name, n.name, InterruptInside, sig.payload, sc)
					}
					if sc == nil || sc.path == "" {
						nerr.Err = fmt.Errorf("%w; the node called Interrupt but only a run with WithThread on a graph compiled WithCheckpointer can pause: %w", ErrNoCheckpointer, err)
					}
				}
				return s, nerr
			}
			s = out
			if sc != nil {
				last = time.Now()
				sc.sendNode(Event{Kind: EventNodeEnd, Step: step, Node: n.name, Duration: last.Sub(start), Time: last}, n.router != nil)
			}
		}
		after = false
		var next int
		switch {
		case n.router != nil:
			dec, err := callRouter(ctx, n.router, s, sc)
			if err != nil {
				if sc != nil {
					sc.leave()
				}
				return s, &NodeError{Node: n.name, Step: step, Err: fmt.Errorf("router: %w", err)}
			}
			var ok bool
			if next, ok = n.target(dec.To); !ok {
				if sc != nil {
					sc.leave()
				}
				return s, &NodeError{Node: n.name, Step: step, Err: fmt.Errorf("router answered %q, which is not among its declared targets [%s]: %w",
					dec.To, strings.Join(n.targets, " "), ErrUndeclaredTarget)}
			}
			if sc != nil {
				last = time.Now()
				sc.sendNode(Event{Kind: EventDecision, Step: step, Node: n.name, To: dec.To, Reason: dec.Reason, Time: last}, false)
			}
		case n.fanout != nil || n.sender != nil:
			if d != nil && !resumedFanOut {
				if err := r.checkpoint(ctx, d, s, step, n.name, "", nil, sc); err != nil {
					return s, err
				}
			}
			resumedFanOut = false
			var err error
			var ran int
			s, ran, err = r.fanOut(ctx, n, s, step, step-first, maxSteps, sc, d)
			if err != nil {
				return s, err
			}
			step += ran
			next = n.next
		default:
			next = n.next
		}
		if d != nil {
			var pi *PendingInterrupt
			pause := n.after && next != endIndex
			if pause {
				pi = &PendingInterrupt{Node: n.name, When: InterruptAfter}
			}
			if err := r.checkpoint(ctx, d, s, step, n.name, r.nameOf(next), pi, sc); err != nil {
				return s, err
			}
			if pause {
				return s, d.interrupted(n.name, InterruptAfter, nil, step)
			}
		} else if n.after && next != endIndex {
			return s, r.noThread(n.name, step, "WithInterruptAfter")
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

func callNode[S any](ctx context.Context, fn NodeFunc[S], s S, sc *scope) (out S, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered(v, sc)
		}
	}()
	return fn(ctx, s)
}

func callRouter[S any](ctx context.Context, fn RouterFunc[S], s S, sc *scope) (d Decision, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered(v, sc)
		}
	}()
	return fn(ctx, s)
}

// recovered turns a node's panic into an error. A panic raised by the
// observer (or a Stream consumer) while a node emitted an event is not the
// node's fault and is re-raised.
func recovered(v any, sc *scope) error {
	if sc != nil && sc.em.observerPanicked() {
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
	case *Interrupted:
		return e.step
	case *NodeError:
		return e.Step
	case *stepError:
		return e.step
	}
	return 0
}

func nodeOf(err error) string {
	switch e := err.(type) {
	case *Interrupted:
		return e.Node
	case *NodeError:
		return e.Node
	case *stepError:
		return e.node
	}
	return ""
}
