package server

import (
	"errors"
	"sync"
	"time"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// Recorder builds a run's Trace from its events, so that any caller of the
// graph can answer with the same JSON the server does (e.g. `graphrag run
// --json`): pass Observe to graph.WithObserver, then call Response with
// the final state. It is safe for concurrent use.
type Recorder struct {
	mu        sync.Mutex
	start     time.Time
	tr        Trace
	duration  time.Duration
	fallbacks int
}

// NewRecorder returns an empty Recorder; its clock starts now or at the
// run_start event, whichever it sees.
func NewRecorder() *Recorder {
	return &Recorder{start: time.Now(), tr: Trace{Nodes: []NodeSpan{}, Decisions: []Decision{}}}
}

// Observe records one event.
func (r *Recorder) Observe(ev graph.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev.Kind {
	case graph.EventRunStart:
		if !ev.Time.IsZero() {
			r.start = ev.Time
		}
	case graph.EventNodeEnd:
		span := NodeSpan{Step: ev.Step, Node: ev.Node, Subgraph: ev.Subgraph, Branch: ev.Branch, DurationMS: ms(ev.Duration)}
		if ev.Err != nil && !errors.Is(ev.Err, graph.ErrInterrupted) {
			span.Error = ev.Err.Error()
		}
		r.tr.Nodes = append(r.tr.Nodes, span)
	case graph.EventDecision:
		r.tr.Decisions = append(r.tr.Decisions, Decision{Step: ev.Step, From: ev.Node, To: ev.To, Reason: ev.Reason})
	case graph.EventCustom:
		if ev.Name == "fallback" {
			r.fallbacks++
		}
	case graph.EventRunEnd:
		r.duration = ev.Duration
	}
	if ev.Subgraph == "" {
		r.tr.Steps = max(r.tr.Steps, ev.Step) // a subgraph counts its own steps
	}
}

// Trace returns the trace so far. Its duration is the run's once the run
// has ended, the time since it started before.
func (r *Recorder) Trace() Trace {
	r.mu.Lock()
	defer r.mu.Unlock()
	tr := r.tr
	tr.Nodes = append([]NodeSpan{}, r.tr.Nodes...)
	tr.Decisions = append([]Decision{}, r.tr.Decisions...)
	d := r.duration
	if d == 0 {
		d = time.Since(r.start)
	}
	tr.DurationMS = ms(d)
	return tr
}

// Response is the answer to the query: final is the run's final state;
// withText includes each source's chunk text.
func (r *Recorder) Response(final nodes.State, withText bool) QueryResponse {
	return response(final, r.Trace(), withText)
}

func (r *Recorder) fallbackCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fallbacks
}
