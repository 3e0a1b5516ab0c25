package server

import (
	"time"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// Recorder builds the wire answer for a run that the caller drives itself,
// so that `graphrag run --json` prints the same object as POST /v1/query.
// Use Observe as the run's observer, then Response with the final state.
type Recorder struct {
	start time.Time
	tr    Trace
}

// NewRecorder returns a recorder whose clock starts now.
func NewRecorder() *Recorder {
	return &Recorder{start: time.Now(), tr: Trace{Nodes: []NodeSpan{}, Decisions: []Decision{}}}
}

// Observe records one engine event.
func (r *Recorder) Observe(ev graph.Event) {
	switch ev.Kind {
	case graph.EventNodeEnd:
		span := NodeSpan{Step: ev.Step, Node: ev.Node, DurationMS: ms(ev.Duration)}
		if ev.Err != nil {
			span.Error = ev.Err.Error()
		}
		r.tr.Nodes = append(r.tr.Nodes, span)
	case graph.EventDecision:
		r.tr.Decisions = append(r.tr.Decisions, Decision{Step: ev.Step, From: ev.Node, To: ev.To, Reason: ev.Reason})
	}
	r.tr.Steps = max(r.tr.Steps, ev.Step)
}

// Response returns the wire answer for the run's final state; withText adds
// each source's text.
func (r *Recorder) Response(s nodes.State, withText bool) QueryResponse {
	tr := r.tr
	tr.DurationMS = ms(time.Since(r.start))
	return response(s, tr, withText)
}
