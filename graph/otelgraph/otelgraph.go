// Package otelgraph traces graph runs with OpenTelemetry: a span per run and
// a span per node run (parallel branches and subgraph nodes included), with
// the router's decision and its reason as attributes, retries, checkpoints
// and interrupts as span events, and failures recorded on the span that
// failed.
//
// It is an observer, so the engine (package graph) stays free of
// OpenTelemetry and pays nothing when tracing is off:
//
//	tr := otelgraph.New(otel.GetTracerProvider())
//	out, err := r.Invoke(ctx, in, graph.WithObserver(tr.Observer(ctx, "rag")))
//
// The run span is a child of the span in ctx.
package otelgraph

import (
	"context"
	"errors"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/graphrag/graphrag/graph"
)

// ScopeName is the instrumentation scope of the spans.
const ScopeName = "github.com/graphrag/graphrag/graph/otelgraph"

// Attribute keys set on the spans.
const (
	AttrGraph          = attribute.Key("graph.name")
	AttrNode           = attribute.Key("graph.node")
	AttrStep           = attribute.Key("graph.step")
	AttrSubgraph       = attribute.Key("graph.subgraph")
	AttrBranch         = attribute.Key("graph.branch")
	AttrDecision       = attribute.Key("graph.decision")
	AttrDecisionReason = attribute.Key("graph.decision.reason")
	AttrAttempt        = attribute.Key("graph.attempt")
	AttrCheckpoint     = attribute.Key("graph.checkpoint")
	AttrThread         = attribute.Key("graph.thread")
	AttrInterrupt      = attribute.Key("graph.interrupt")
)

// Tracer makes observers that turn a run's events into spans.
type Tracer struct {
	tracer trace.Tracer
}

// New returns a Tracer whose spans come from tp.
func New(tp trace.TracerProvider) *Tracer {
	return &Tracer{tracer: tp.Tracer(ScopeName)}
}

// Observer returns the observer for one run (pass it to graph.WithObserver);
// name names the run span ("graph.run name"). The run span's parent is the
// span in ctx. Use a new observer for each run.
func (t *Tracer) Observer(ctx context.Context, name string) func(graph.Event) {
	o := &observer{t: t, ctx: ctx, name: name, nodes: make(map[nodeKey]trace.Span)}
	return o.observe
}

type nodeKey struct {
	subgraph, node string
	step           int
}

type observer struct {
	t    *Tracer
	ctx  context.Context
	name string

	mu      sync.Mutex
	run     trace.Span
	runCtx  context.Context
	nodes   map[nodeKey]trace.Span // open node spans
	pending map[string]nodeKey     // per subgraph path: a node that ended but may still get its decision
}

func (o *observer) observe(e graph.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if e.Kind != graph.EventDecision {
		o.closePending(e.Subgraph)
	}
	switch e.Kind {
	case graph.EventRunStart:
		o.runCtx, o.run = o.t.tracer.Start(o.ctx, "graph.run "+o.name,
			trace.WithTimestamp(e.Time), trace.WithAttributes(AttrGraph.String(o.name)))
	case graph.EventNodeStart:
		parent := o.runCtx
		if parent == nil {
			parent = o.ctx
		}
		attrs := []attribute.KeyValue{AttrNode.String(e.Node), AttrStep.Int(e.Step)}
		if e.Subgraph != "" {
			attrs = append(attrs, AttrSubgraph.String(e.Subgraph))
			// Nest a subgraph's nodes under the span of the node running it.
			if sp := o.enclosing(e.Subgraph); sp != nil {
				parent = trace.ContextWithSpan(parent, sp)
			}
		}
		if e.Branch > 0 {
			attrs = append(attrs, AttrBranch.Int(e.Branch))
		}
		_, sp := o.t.tracer.Start(parent, "graph.node "+e.Node, trace.WithTimestamp(e.Time), trace.WithAttributes(attrs...))
		o.nodes[nodeKey{e.Subgraph, e.Node, e.Step}] = sp
	case graph.EventNodeEnd:
		k := nodeKey{e.Subgraph, e.Node, e.Step}
		sp := o.nodes[k]
		if sp == nil {
			return
		}
		if e.Err != nil {
			fail(sp, e.Err)
		}
		if e.Err != nil || e.Branch > 0 {
			sp.End(trace.WithTimestamp(e.Time))
			delete(o.nodes, k)
			return
		}
		// Keep it open for the router's decision, which comes next if any.
		if o.pending == nil {
			o.pending = make(map[string]nodeKey)
		}
		o.pending[e.Subgraph] = k
	case graph.EventDecision:
		k, ok := o.pending[e.Subgraph]
		if sp := o.nodes[k]; ok && sp != nil {
			sp.SetAttributes(AttrDecision.String(e.To), AttrDecisionReason.String(e.Reason))
		}
		o.closePending(e.Subgraph)
	case graph.EventRetry:
		if sp := o.find(e.Subgraph, e.Node, e.Step); sp != nil {
			msg := ""
			if e.Err != nil {
				msg = e.Err.Error()
			}
			sp.AddEvent("retry", trace.WithTimestamp(e.Time), trace.WithAttributes(AttrAttempt.Int(e.Attempt), attribute.String("error", msg)))
		}
	case graph.EventCheckpoint:
		if o.run != nil {
			if c, ok := e.Payload.(graph.Checkpoint); ok {
				o.run.SetAttributes(AttrThread.String(c.Thread))
				o.run.AddEvent("checkpoint", trace.WithTimestamp(e.Time), trace.WithAttributes(
					AttrCheckpoint.Int64(c.Seq), AttrNode.String(c.Node), AttrStep.Int(c.Step)))
			}
		}
	case graph.EventInterrupt:
		if o.run != nil {
			attrs := []attribute.KeyValue{AttrNode.String(e.Node)}
			if in, ok := e.Payload.(*graph.Interrupted); ok {
				attrs = append(attrs, AttrInterrupt.String(string(in.When)), AttrCheckpoint.Int64(in.Checkpoint))
			}
			o.run.AddEvent("interrupt", trace.WithTimestamp(e.Time), trace.WithAttributes(attrs...))
		}
	case graph.EventRunEnd:
		for k, sp := range o.nodes {
			sp.End(trace.WithTimestamp(e.Time))
			delete(o.nodes, k)
		}
		if o.run != nil {
			if e.Err != nil && !errors.Is(e.Err, graph.ErrInterrupted) {
				fail(o.run, e.Err)
			}
			o.run.End(trace.WithTimestamp(e.Time))
		}
	}
}

// closePending ends the node span of subgraph path that was waiting for a
// decision.
func (o *observer) closePending(path string) {
	k, ok := o.pending[path]
	if !ok {
		return
	}
	delete(o.pending, path)
	if sp := o.nodes[k]; sp != nil {
		sp.End()
		delete(o.nodes, k)
	}
}

// enclosing returns the open span of the subgraph node that runs path.
func (o *observer) enclosing(path string) trace.Span {
	parentPath, node := "", path
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			parentPath, node = path[:i], path[i+1:]
			break
		}
	}
	for k, sp := range o.nodes {
		if k.subgraph == parentPath && k.node == node {
			return sp
		}
	}
	return nil
}

func (o *observer) find(path, node string, step int) trace.Span {
	return o.nodes[nodeKey{path, node, step}]
}

func fail(sp trace.Span, err error) {
	sp.RecordError(err)
	sp.SetStatus(codes.Error, err.Error())
}
