package graph

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// EventKind says what an Event reports.
type EventKind int

const (
	// EventRunStart opens every run (Step 0, Node START).
	EventRunStart EventKind = iota + 1
	// EventNodeStart: Node is about to run at Step.
	EventNodeStart
	// EventNodeEnd: Node returned after Duration. If it failed, Err holds
	// its *NodeError and the run goes on to EventError.
	EventNodeEnd
	// EventDecision: the router of Node chose To, for Reason. Static edges
	// produce no decision.
	EventDecision
	// EventCustom: a node called Emit(ctx, Name, Payload).
	EventCustom
	// EventError: the run failed with Err (sent once, just before EventRunEnd).
	EventError
	// EventRunEnd closes every run. Payload holds the final state S (the last
	// good state when the run failed) and Err the run's error, if any.
	EventRunEnd
	// EventCheckpoint: the run saved a checkpoint after Node (Step); Payload
	// is the Checkpoint without its state.
	EventCheckpoint
	// EventInterrupt: the run paused at Node; Payload is the *Interrupted,
	// also returned as the run's error.
	EventInterrupt
	// EventRetry: Node failed with a retryable error (Err) and runs again
	// after Duration.
	EventRetry
)

var kindNames = [...]string{
	EventRunStart:   "run_start",
	EventNodeStart:  "node_start",
	EventNodeEnd:    "node_end",
	EventDecision:   "decision",
	EventCustom:     "custom",
	EventError:      "error",
	EventRunEnd:     "run_end",
	EventCheckpoint: "checkpoint",
	EventInterrupt:  "interrupt",
	EventRetry:      "retry",
}

func (k EventKind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// MarshalText encodes the kind as its name ("node_start", ...).
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Event is one thing that happened during a run. Which fields are set
// depends on Kind; Kind, Step and Time always are.
type Event struct {
	Kind     EventKind
	Step     int           // 1-based step of the node run; 0 for EventRunStart
	Node     string        // the node concerned
	To       string        // EventDecision: the chosen target
	Reason   string        // EventDecision: the router's reason
	Duration time.Duration // EventNodeEnd: how long the node ran; EventRunEnd: the whole run
	Err      error         // EventError and EventRunEnd: the run's error; EventNodeEnd: the node's failure
	Name     string        // EventCustom: the name given to Emit
	Payload  any           // EventCustom: the payload; EventRunEnd: the final state S; EventInterrupt: the *Interrupted
	Time     time.Time     // when the event happened
	// Subgraph is the path of the subgraph node(s) the event comes from
	// ("outer/inner"), or "" for the graph that was invoked. Events of a
	// subgraph's own run start and end are not sent: its node's
	// NodeStart and NodeEnd in the parent stand for them.
	Subgraph string
	// Branch is the 1-based position of a fan-out branch (EventNodeStart,
	// EventNodeEnd and events inside it); 0 outside a fan-out.
	Branch int
	// Attempt is the 1-based attempt of a node run under a retry policy
	// (EventNodeEnd, EventRetry); 0 without one.
	Attempt int
}

type emitterKey struct{}

// emitter delivers a run's events to its observer. The ctx handed to nodes
// carries a *scope pointing at it only when the run has an observer, so
// Emit costs one ctx lookup otherwise.
type emitter struct {
	mu        sync.Mutex
	observe   func(Event)
	panicked  bool // the observer panicked: the panic is not ours to recover
	cancelled bool // a Stream consumer stopped: deliver nothing more
}

// scope is where custom events are tagged: the node running (and its step)
// in one goroutine of a run. A run has one scope; each parallel branch and
// each subgraph run gets its own, sharing the run's emitter and lock.
type scope struct {
	em     *emitter
	path   string // subgraph path ("outer/inner"), "" at the top
	branch int    // fan-out branch (1-based), 0 outside one
	node   string
	step   int
	inNode bool // Emit is accepted only while a node or router runs
	// joined is when the branches of a fan-out joined: the next node
	// starts then, not at the event before the fan-out.
	joined time.Time
}

// since returns when the next node starts: last, the time of the previous
// event of the run loop, or when a fan-out's branches joined.
func (sc *scope) since(last time.Time) time.Time {
	if !sc.joined.IsZero() {
		last, sc.joined = sc.joined, time.Time{}
	}
	return last
}

func (em *emitter) send(e Event) {
	em.mu.Lock()
	defer em.mu.Unlock()
	em.deliver(e)
}

// deliver calls the observer with em.mu held.
func (em *emitter) deliver(e Event) {
	if em.panicked || em.cancelled {
		return
	}
	done := false
	defer func() {
		if !done {
			em.panicked = true
		}
	}()
	em.observe(e)
	done = true
}

// send delivers e tagged with the scope's subgraph path.
func (sc *scope) send(e Event) {
	e.Subgraph = sc.path
	sc.em.send(e)
}

// sendNode delivers e, an event of the running node, and sets whether Emit
// is accepted after it (a node and its router accept custom events). One
// lock per event keeps an observed step cheap.
func (sc *scope) sendNode(e Event, inNode bool) {
	em := sc.em
	em.mu.Lock()
	defer em.mu.Unlock()
	sc.step, sc.node, sc.inNode = e.Step, e.Node, inNode
	e.Subgraph, e.Branch = sc.path, sc.branch
	em.deliver(e)
}

func (sc *scope) leave() {
	sc.em.mu.Lock()
	sc.inNode = false
	sc.em.mu.Unlock()
}

func (em *emitter) observerPanicked() bool {
	em.mu.Lock()
	defer em.mu.Unlock()
	return em.panicked
}

// Emit sends a custom event (EventCustom with Name and Payload) to the
// observers of the run that ctx belongs to, e.g. Emit(ctx, "token", tok)
// from a streaming writer node. Without an observer it costs one ctx lookup
// and does nothing.
//
// Emit is for the node's own goroutine, or goroutines it starts and waits
// for: events are serialised, tagged with the running node and step, and
// dropped once the node has returned. Events emitted inside a subgraph or a
// parallel branch reach the observers of the outermost run.
func Emit(ctx context.Context, name string, payload any) {
	sc, _ := ctx.Value(emitterKey{}).(*scope)
	if sc == nil {
		return
	}
	em := sc.em
	em.mu.Lock()
	defer em.mu.Unlock()
	if !sc.inNode {
		return
	}
	em.deliver(Event{Kind: EventCustom, Step: sc.step, Node: sc.node, Subgraph: sc.path, Branch: sc.branch, Name: name, Payload: payload, Time: time.Now()})
}

// FinalState returns the state an EventRunEnd event carries: the final
// state of a run, or its last good state when the run failed. It reports
// false for other events and for states of another type.
func FinalState[S any](e Event) (S, bool) {
	if e.Kind != EventRunEnd {
		var zero S
		return zero, false
	}
	s, ok := e.Payload.(S)
	return s, ok
}
