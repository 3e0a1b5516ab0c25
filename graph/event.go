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
)

var kindNames = [...]string{
	EventRunStart:  "run_start",
	EventNodeStart: "node_start",
	EventNodeEnd:   "node_end",
	EventDecision:  "decision",
	EventCustom:    "custom",
	EventError:     "error",
	EventRunEnd:    "run_end",
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
	Payload  any           // EventCustom: the payload; EventRunEnd: the final state S
	Time     time.Time     // when the event happened
}

type emitterKey struct{}

// emitter delivers a run's events to its observer. It is carried in the
// ctx handed to nodes only when the run has an observer, so Emit costs one
// ctx lookup otherwise.
type emitter struct {
	mu        sync.Mutex
	observe   func(Event)
	node      string
	step      int
	inNode    bool // Emit is accepted only while a node or router runs
	panicked  bool // the observer panicked: the panic is not ours to recover
	cancelled bool // a Stream consumer stopped: deliver nothing more
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

// sendNode delivers e, an event of the running node, and sets whether Emit
// is accepted after it (a node and its router accept custom events). One
// lock per event keeps an observed step cheap.
func (em *emitter) sendNode(e Event, inNode bool) {
	em.mu.Lock()
	defer em.mu.Unlock()
	em.step, em.node, em.inNode = e.Step, e.Node, inNode
	em.deliver(e)
}

func (em *emitter) leave() {
	em.mu.Lock()
	em.inNode = false
	em.mu.Unlock()
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
// dropped once the node has returned.
func Emit(ctx context.Context, name string, payload any) {
	em, _ := ctx.Value(emitterKey{}).(*emitter)
	if em == nil {
		return
	}
	em.mu.Lock()
	defer em.mu.Unlock()
	if !em.inNode {
		return
	}
	em.deliver(Event{Kind: EventCustom, Step: em.step, Node: em.node, Name: name, Payload: payload, Time: time.Now()})
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
