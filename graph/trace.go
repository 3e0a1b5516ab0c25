package graph

import (
	"slices"
	"sync"
)

// Trace records which nodes and edges runs visited, with counts, for
// overlaying on a diagram (WithTrace). Use its Observe method as an
// observer: r.Invoke(ctx, s, graph.WithObserver(t.Observe)). One Trace may
// record several runs one after another, summing their counts; it is safe
// for concurrent use, but runs recorded concurrently into one Trace mix
// their paths. The nodes and edges of a subgraph are recorded under its
// path: "retrieve/keyword", "retrieve/__start__".
type Trace struct {
	mu    sync.Mutex
	nodes map[string]int
	edges map[edgeKey]int
	path  []string
	runs  int

	top  walk
	subs map[string]*walk // by subgraph path, while its node runs
}

// walk is where one run (or one run of a subgraph) is: the node before the
// next, and the branches of a fan-out running since fanFrom.
type walk struct {
	prefix  string // "" at the top, "path/" in a subgraph
	prev    string
	fanFrom string
	fan     []string
}

// NewTrace returns an empty trace.
func NewTrace() *Trace {
	return &Trace{nodes: make(map[string]int), edges: make(map[edgeKey]int), subs: make(map[string]*walk)}
}

// Observe records e. It has the signature WithObserver expects.
func (t *Trace) Observe(e Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	w := &t.top
	if e.Subgraph != "" {
		if w = t.subs[e.Subgraph]; w == nil {
			// A subgraph's run has no start event: its first node opens it.
			w = &walk{prefix: e.Subgraph + "/", prev: START}
			t.subs[e.Subgraph] = w
			t.nodes[w.prefix+START]++
		}
	}
	switch e.Kind {
	case EventRunStart:
		t.runs++
		t.nodes[START]++
		t.top = walk{prev: START}
		t.path = t.path[:0]
		clear(t.subs)
	case EventNodeStart:
		t.visit(w, e.Node, e.Branch > 0)
		if e.Subgraph == "" {
			t.path = append(t.path, e.Node)
		}
	case EventNodeEnd:
		// The end of a subgraph node ends the subgraph's run.
		sub := e.Node
		if e.Subgraph != "" {
			sub = e.Subgraph + "/" + e.Node
		}
		if sw := t.subs[sub]; sw != nil {
			if e.Err == nil {
				t.end(sw)
			}
			delete(t.subs, sub)
		}
	case EventRunEnd:
		if e.Err == nil && t.top.prev != "" {
			t.end(&t.top)
		}
		t.top = walk{}
		clear(t.subs)
	}
}

// visit records node as the next step of w: from the node before, or as a
// branch of the fan-out from it.
func (t *Trace) visit(w *walk, node string, branch bool) {
	if branch {
		if len(w.fan) == 0 {
			w.fanFrom = w.prev
		}
		t.edges[edgeKey{w.prefix + w.fanFrom, w.prefix + node}]++
		w.fan = append(w.fan, node)
	} else {
		t.join(w, node)
		t.edges[edgeKey{w.prefix + w.prev, w.prefix + node}]++
	}
	t.nodes[w.prefix+node]++
	w.prev = node
}

// end records the step from w's last node to END.
func (t *Trace) end(w *walk) {
	t.join(w, END)
	t.edges[edgeKey{w.prefix + w.prev, w.prefix + END}]++
	t.nodes[w.prefix+END]++
}

// join counts the edges from the branches of a fan-out to its join node
// and leaves the join node as the one before next.
func (t *Trace) join(w *walk, next string) {
	if len(w.fan) == 0 {
		return
	}
	for _, b := range w.fan[:len(w.fan)-1] {
		t.edges[edgeKey{w.prefix + b, w.prefix + next}]++
	}
	w.prev = w.fan[len(w.fan)-1]
	w.fan = w.fan[:0]
}

// NodeCount returns how many times name ran (START and END count runs that
// started and runs that reached END). A subgraph's nodes are named by
// their path: "retrieve/keyword".
func (t *Trace) NodeCount(name string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.nodes[name]
}

// EdgeCount returns how many times runs went from → to (in a subgraph,
// both named by their path).
func (t *Trace) EdgeCount(from, to string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.edges[edgeKey{from, to}]
}

// Path returns the nodes the latest run visited, in order.
func (t *Trace) Path() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.path)
}

// Runs returns how many runs the trace recorded.
func (t *Trace) Runs() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.runs
}
