package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// InterruptWhen says where a run paused.
type InterruptWhen string

const (
	// InterruptBefore: the run stopped before the node ran
	// (WithInterruptBefore); resuming runs it.
	InterruptBefore InterruptWhen = "before"
	// InterruptAfter: the run stopped after the node ran
	// (WithInterruptAfter); resuming takes its edges.
	InterruptAfter InterruptWhen = "after"
	// InterruptInside: the node called Interrupt; resuming runs the node
	// again, and its Interrupt call returns the resume value.
	InterruptInside InterruptWhen = "inside"
)

// ErrInterrupted is matched (errors.Is) by every *Interrupted.
var ErrInterrupted = errors.New("run interrupted")

// Interrupted is the error a run returns when it pauses: before or after a
// node named in WithInterruptBefore/WithInterruptAfter, or inside a node
// that called Interrupt. The run's checkpoint is saved; resume it with
// Resume(in.Token, value), or with WithThread(in.Thread) and
// WithResumeValue(value).
type Interrupted struct {
	Thread     string        // the run's thread
	Checkpoint int64         // the checkpoint the run paused at
	Node       string        // the node concerned
	When       InterruptWhen // before, after or inside the node
	Payload    any           // what the node passed to Interrupt (nil before/after)
	Token      string        // resume token: Resume(Token, value) continues the run

	step int
}

func (e *Interrupted) Error() string {
	return fmt.Sprintf("graph: run paused %s node %q (thread %q, checkpoint %d); resume with graph.Resume(token, value)",
		e.When, e.Node, e.Thread, e.Checkpoint)
}

// Is reports whether target is ErrInterrupted.
func (e *Interrupted) Is(target error) bool { return target == ErrInterrupted }

// WithInterruptBefore pauses every durable run before any of the named nodes
// runs.
func WithInterruptBefore(nodes ...string) CompileOption {
	return func(c *compileConfig) { c.interruptBefore = append(c.interruptBefore, nodes...) }
}

// WithInterruptAfter pauses every durable run after any of the named nodes
// has run (and its checkpoint is saved).
func WithInterruptAfter(nodes ...string) CompileOption {
	return func(c *compileConfig) { c.interruptAfter = append(c.interruptAfter, nodes...) }
}

// interruptSignal is what Interrupt returns the first time: the node
// returns it (wrapped or not) and the engine turns it into *Interrupted.
type interruptSignal struct{ payload any }

func (*interruptSignal) Error() string {
	return "graph: Interrupt called; return this error from the node so the run can pause"
}

func (*interruptSignal) Is(target error) bool { return target == ErrInterrupted }

type resumeKey struct{}

// resumeSlot carries the resume value to the node that interrupted.
type resumeSlot struct{ value any }

// Interrupt pauses the run from inside a node, asking the caller for a
// value (a confirmation, a correction, an answer). The first time it
// returns an error the node must return, and the run ends with an
// *Interrupted carrying payload. When the run is resumed with a value, the
// node runs again from its start and this call returns that value,
// converted to T: a value of type T is returned as is, JSON ([]byte,
// json.RawMessage or a string holding JSON) is decoded into T.
//
// Only runs with a thread and a checkpointer can pause; in another run the
// node's error fails the run with ErrNoCheckpointer. Code before the call
// runs again on resume, so keep side effects after it.
func Interrupt[T any](ctx context.Context, payload any) (T, error) {
	var zero T
	slot, _ := ctx.Value(resumeKey{}).(*resumeSlot)
	if slot == nil {
		return zero, &interruptSignal{payload: payload}
	}
	v := slot.value
	// One resume value answers one Interrupt call: a second call in the
	// same node run pauses again.
	slot.value = nil
	return resumeAs[T](v)
}

func resumeAs[T any](v any) (T, error) {
	var t T
	if x, ok := v.(T); ok {
		return x, nil
	}
	var data []byte
	switch x := v.(type) {
	case json.RawMessage:
		data = x
	case []byte:
		data = x
	case string:
		data = []byte(x)
	default:
		return t, fmt.Errorf("graph: resume value of type %T cannot be used as %T; resume with a %T or its JSON", v, t, t)
	}
	if err := json.Unmarshal(data, &t); err != nil {
		return t, fmt.Errorf("graph: decode resume value as %T: %w", t, err)
	}
	return t, nil
}

// Resume returns the run options that continue the run an *Interrupted
// reported: its thread, from the checkpoint it paused at, with value as
// what the interrupted node's Interrupt call returns (ignored when the run
// paused before or after a node). The token is Interrupted.Token; a token
// whose thread has moved on since fails the run with ErrStaleResume.
func Resume(token string, value any) RunOption {
	thread, seq, err := parseToken(token)
	return func(c *runConfig) {
		if err != nil {
			c.err = err
			return
		}
		c.thread, c.fromSeq, c.strictFrom = thread, seq, true
		c.resume, c.hasResume = value, true
	}
}

// ErrStaleResume: a resume token names a checkpoint that is no longer its
// thread's latest (the thread was resumed already).
var ErrStaleResume = errors.New("stale resume token")

func makeToken(thread string, seq int64) string {
	return strconv.FormatInt(seq, 10) + ":" + thread
}

func parseToken(tok string) (string, int64, error) {
	n, thread, ok := strings.Cut(tok, ":")
	seq, err := strconv.ParseInt(n, 10, 64)
	if !ok || err != nil || seq < 1 {
		return "", 0, fmt.Errorf("graph: malformed resume token %q; pass Interrupted.Token unchanged", tok)
	}
	return thread, seq, nil
}

// WithResumeValue sets the value the interrupted node's Interrupt call
// returns when this run resumes a paused thread.
func WithResumeValue(value any) RunOption {
	return func(c *runConfig) { c.resume, c.hasResume = value, true }
}
