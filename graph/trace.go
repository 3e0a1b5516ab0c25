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
// their paths.
type Trace struct {
	mu    sync.Mutex
	nodes map[string]int
	edges map[edgeKey]int
	path  []string
	prev  string
	runs  int

	fanFrom string   // the node a fan-out left from
	fan     []string // the branches running since
}

// NewTrace returns an empty trace.
func NewTrace() *Trace {
	return &Trace{nodes: make(map[string]int), edges: make(map[edgeKey]int)}
}

// Observe records e. It has the signature WithObserver expects.
func (t *Trace) Observe(e Event) {
	if e.Subgraph != "" {
		return // the diagram shows the invoked graph's nodes
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch e.Kind {
	case EventRunStart:
		t.runs++
		t.nodes[START]++
		t.prev = START
		t.path = t.path[:0]
		t.fan = t.fan[:0]
	case EventNodeStart:
		if e.Branch > 0 {
			if len(t.fan) == 0 {
				t.fanFrom = t.prev
			}
			t.edges[edgeKey{t.fanFrom, e.Node}]++
			t.fan = append(t.fan, e.Node)
		} else {
			t.join(e.Node)
			t.edges[edgeKey{t.prev, e.Node}]++
		}
		t.nodes[e.Node]++
		t.prev = e.Node
		t.path = append(t.path, e.Node)
	case EventRunEnd:
		if e.Err == nil && t.prev != "" {
			t.join(END)
			t.edges[edgeKey{t.prev, END}]++
			t.nodes[END]++
		}
		t.prev = ""
		t.fan = t.fan[:0]
	}
}

// join counts the edges from the branches of a fan-out to its join node
// and leaves the join node as the one before next.
func (t *Trace) join(next string) {
	if len(t.fan) == 0 {
		return
	}
	for _, b := range t.fan[:len(t.fan)-1] {
		t.edges[edgeKey{b, next}]++
	}
	t.prev = t.fan[len(t.fan)-1]
	t.fan = t.fan[:0]
}

// NodeCount returns how many times name ran (START and END count runs that
// started and runs that reached END).
func (t *Trace) NodeCount(name string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.nodes[name]
}

// EdgeCount returns how many times runs went from → to.
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
