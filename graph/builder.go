package graph

import (
	"context"
	"fmt"
)

// END is the name of the virtual node that ends a run. Route to it with
// AddEdge(name, END) or by declaring it as a conditional target.
const END = "__end__"

// START is the name of the virtual node a run begins at. AddEdge(START, name)
// is the same as SetEntryPoint(name).
const START = "__start__"

// NodeFunc is one step of a graph: it receives the current state and returns
// the next. State is a typed value; nothing is carried in ctx except
// cancellation and the run's event emitter (see Emit).
type NodeFunc[S any] func(ctx context.Context, state S) (S, error)

// Decision is a router's answer: the target to go to next and, for the run's
// events and traces, the reason why.
type Decision struct {
	To     string
	Reason string
}

// RouterFunc picks the next node after the node it is attached to has run.
// It must answer one of the targets declared in AddConditionalEdges.
type RouterFunc[S any] func(ctx context.Context, state S) (Decision, error)

// StateGraph builds a graph over the state type S. Its methods never fail on
// the spot: the first mistake is recorded and returned by Compile, so a
// graph is written as a straight list of calls. A StateGraph is not safe
// for concurrent use; the *Runnable that Compile returns is.
type StateGraph[S any] struct {
	err      error
	nodes    map[string]NodeFunc[S]
	order    []string
	static   map[string]string
	branches map[string]branch[S]
	labels   map[edgeKey]string
	entry    string

	fanouts   map[string]fanOutDef[S]
	reducers  map[string]reducerDef
	policies  map[string]nodePolicy
	subgraphs map[string]diagram
}

type branch[S any] struct {
	router  RouterFunc[S]
	targets []string
}

type edgeKey struct{ from, to string }

// NewStateGraph returns an empty graph over the state type S.
func NewStateGraph[S any]() *StateGraph[S] {
	return &StateGraph[S]{
		nodes:    make(map[string]NodeFunc[S]),
		static:   make(map[string]string),
		branches: make(map[string]branch[S]),
		labels:   make(map[edgeKey]string),

		fanouts:   make(map[string]fanOutDef[S]),
		reducers:  make(map[string]reducerDef),
		policies:  make(map[string]nodePolicy),
		subgraphs: make(map[string]diagram),
	}
}

// hasWayOut reports whether from already has an edge, conditional edges
// or a fan-out.
func (g *StateGraph[S]) hasWayOut(from string) bool {
	_, fan := g.fanouts[from]
	return g.static[from] != "" || g.branches[from].router != nil || fan
}

func (g *StateGraph[S]) fail(err error) {
	if g.err == nil {
		g.err = err
	}
}

func reserved(name string) bool { return name == "" || name == START || name == END }

// AddNode adds a node. Names must be unique and must not be "", START or
// END. Options set the node's policy: WithTimeout, WithRetry.
func (g *StateGraph[S]) AddNode(name string, fn NodeFunc[S], opts ...NodeOption) {
	switch {
	case reserved(name):
		g.fail(fmt.Errorf("graph: AddNode(%q): %w; pick another name", name, ErrReservedName))
	case fn == nil:
		g.fail(fmt.Errorf("graph: AddNode(%q): %w", name, ErrNilFunc))
	case g.nodes[name] != nil:
		g.fail(fmt.Errorf("graph: AddNode(%q): node %q is already in the graph: %w", name, name, ErrDuplicateNode))
	default:
		g.nodes[name] = fn
		g.order = append(g.order, name)
		if len(opts) > 0 {
			var p nodePolicy
			for _, o := range opts {
				o(&p)
			}
			g.policies[name] = p
		}
	}
}

// AddEdge adds a static edge: after from, the run always goes to to (a node
// or END). A node has exactly one way out: one static edge or one set of
// conditional edges. AddEdge(START, name) sets the entry point.
func (g *StateGraph[S]) AddEdge(from, to string) {
	switch {
	case from == START:
		g.SetEntryPoint(to)
		return
	case from == END || from == "":
		g.fail(fmt.Errorf("graph: AddEdge(%q, %q): an edge cannot leave %q: %w", from, to, from, ErrReservedName))
	case to == START || to == "":
		g.fail(fmt.Errorf("graph: AddEdge(%q, %q): an edge cannot enter %q: %w", from, to, to, ErrReservedName))
	case g.static[from] != "":
		g.fail(fmt.Errorf("graph: AddEdge(%q, %q): node %q already has an edge to %q; use AddConditionalEdges to choose between them: %w",
			from, to, from, g.static[from], ErrEdgeConflict))
	case g.branches[from].router != nil:
		g.fail(fmt.Errorf("graph: AddEdge(%q, %q): node %q already has conditional edges; add %q to their targets instead: %w",
			from, to, from, to, ErrEdgeConflict))
	case g.hasWayOut(from):
		g.fail(fmt.Errorf("graph: AddEdge(%q, %q): node %q already fans out; add %q to its parallel targets instead: %w",
			from, to, from, to, ErrEdgeConflict))
	default:
		g.static[from] = to
	}
}

// AddConditionalEdges attaches a router to from: after from runs, the router
// picks the next node among targets (nodes or END). Targets must be
// declared; a router that answers anything else fails the run with
// ErrUndeclaredTarget. Repeated targets are kept once.
func (g *StateGraph[S]) AddConditionalEdges(from string, router RouterFunc[S], targets ...string) {
	switch {
	case reserved(from):
		g.fail(fmt.Errorf("graph: AddConditionalEdges(%q): conditional edges cannot leave %q: %w", from, from, ErrReservedName))
		return
	case router == nil:
		g.fail(fmt.Errorf("graph: AddConditionalEdges(%q): router: %w", from, ErrNilFunc))
		return
	case len(targets) == 0:
		g.fail(fmt.Errorf("graph: AddConditionalEdges(%q): no targets declared; list every node the router may answer: %w", from, ErrUndeclaredTarget))
		return
	case g.static[from] != "":
		g.fail(fmt.Errorf("graph: AddConditionalEdges(%q): node %q already has a static edge to %q: %w", from, from, g.static[from], ErrEdgeConflict))
		return
	case g.branches[from].router != nil:
		g.fail(fmt.Errorf("graph: AddConditionalEdges(%q): node %q already has conditional edges; declare all targets in one call: %w", from, from, ErrEdgeConflict))
		return
	case g.hasWayOut(from):
		g.fail(fmt.Errorf("graph: AddConditionalEdges(%q): node %q already fans out: %w", from, from, ErrEdgeConflict))
		return
	}
	seen := make(map[string]bool, len(targets))
	ts := make([]string, 0, len(targets))
	for _, t := range targets {
		if t == START || t == "" {
			g.fail(fmt.Errorf("graph: AddConditionalEdges(%q): target %q: %w", from, t, ErrReservedName))
			return
		}
		if !seen[t] {
			seen[t] = true
			ts = append(ts, t)
		}
	}
	g.branches[from] = branch[S]{router: router, targets: ts}
}

// SetEdgeLabel sets the label drawn on the edge from → to in diagrams.
// Conditional edges are labelled with their target's name by default; static
// edges carry no label unless given one. The edge must exist by Compile.
func (g *StateGraph[S]) SetEdgeLabel(from, to, label string) {
	g.labels[edgeKey{from, to}] = label
}

// SetEntryPoint names the node a run starts at.
func (g *StateGraph[S]) SetEntryPoint(name string) {
	switch {
	case reserved(name):
		g.fail(fmt.Errorf("graph: SetEntryPoint(%q): %w", name, ErrReservedName))
	case g.entry != "" && g.entry != name:
		g.fail(fmt.Errorf("graph: SetEntryPoint(%q): entry point is already %q: %w", name, g.entry, ErrEdgeConflict))
	default:
		g.entry = name
	}
}
