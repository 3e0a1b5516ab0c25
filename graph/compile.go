package graph

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// DefaultMaxSteps is the step limit of a compiled graph unless WithMaxSteps
// says otherwise. A step is one node run.
const DefaultMaxSteps = 25

// CompileOption configures Compile.
type CompileOption func(*compileConfig)

type compileConfig struct {
	maxSteps        int
	checkpointer    Checkpointer
	stateVersion    int
	migrate         MigrateFunc
	retention       Retention
	interruptBefore []string
	interruptAfter  []string
	parallelism     int
}

// WithMaxSteps sets how many node runs an Invoke may take before it stops
// with ErrMaxSteps (default DefaultMaxSteps). Values below 1 are ignored.
func WithMaxSteps(n int) CompileOption {
	return func(c *compileConfig) {
		if n > 0 {
			c.maxSteps = n
		}
	}
}

// Edge is one edge of a compiled graph, as drawn on a diagram. From may be
// START and To may be END.
type Edge struct {
	From, To    string
	Label       string // the label set with SetEdgeLabel; for conditional edges, the target's name by default
	Conditional bool   // chosen by a router (drawn dashed)
	Parallel    bool   // one branch of a fan-out (AddParallelEdges, AddSendEdges)
}

// endIndex is the index of END in a compiled graph's successor fields.
const endIndex = -1

type node[S any] struct {
	name      string
	fn        NodeFunc[S]
	next      int            // static successor, or endIndex
	router    RouterFunc[S]  // nil for a static edge
	targets   []string       // declared targets, in declaration order
	targetIdx []int          // their indices (endIndex for END)
	targetSet map[string]int // for nodes with many targets

	fanout []int       // AddParallelEdges targets; next is their join
	sender SendFunc[S] // AddSendEdges; targets declared in targets
	before bool        // WithInterruptBefore
	after  bool        // WithInterruptAfter
}

// Runnable is a compiled graph. It is immutable and safe for concurrent use:
// any number of goroutines may Invoke or Stream it at once.
type Runnable[S any] struct {
	nodes    []node[S]
	entry    int
	maxSteps int
	names    []string // sorted
	edges    []Edge   // sorted, START edge first
	index    map[string]int

	checkpointer Checkpointer
	stateVersion int
	migrate      MigrateFunc
	retention    Retention
	parallelism  int
	merger       *merger
	subgraphs    map[string]diagram
}

// Compile checks the graph and returns a runnable copy of it. It returns the
// first error the builder recorded, or else every structural problem found
// (joined), each wrapping a sentinel such as ErrUnknownNode, ErrUnreachable
// or ErrDeadEnd and naming the node concerned. Later changes to g do not
// affect the returned Runnable.
func (g *StateGraph[S]) Compile(opts ...CompileOption) (*Runnable[S], error) {
	if g.err != nil {
		return nil, g.err
	}
	cfg := compileConfig{maxSteps: DefaultMaxSteps, stateVersion: 1, parallelism: DefaultParallelism}
	for _, o := range opts {
		o(&cfg)
	}
	if err := g.validate(&cfg); err != nil {
		return nil, err
	}
	var m *merger
	if len(g.fanouts) > 0 {
		var err error
		if m, err = newMerger[S](g.reducers); err != nil {
			return nil, err
		}
	}

	names := slices.Clone(g.order)
	slices.Sort(names)
	index := make(map[string]int, len(names))
	for i, n := range names {
		index[n] = i
	}
	idx := func(name string) int {
		if name == END {
			return endIndex
		}
		return index[name]
	}
	r := &Runnable[S]{
		nodes:    make([]node[S], len(names)),
		entry:    index[g.entry],
		maxSteps: cfg.maxSteps,
		names:    names,
		index:    index,

		checkpointer: cfg.checkpointer,
		stateVersion: cfg.stateVersion,
		migrate:      cfg.migrate,
		retention:    cfg.retention,
		parallelism:  cfg.parallelism,
		merger:       m,
		subgraphs:    make(map[string]diagram, len(g.subgraphs)),
	}
	for k, v := range g.subgraphs {
		r.subgraphs[k] = v
	}
	r.edges = append(r.edges, Edge{From: START, To: g.entry, Label: g.labels[edgeKey{START, g.entry}]})
	for i, name := range names {
		n := node[S]{name: name, fn: g.nodes[name], next: endIndex}
		if p, ok := g.policies[name]; ok {
			n.fn = withPolicy(n.fn, p)
		}
		n.before = slices.Contains(cfg.interruptBefore, name)
		n.after = slices.Contains(cfg.interruptAfter, name)
		if f, ok := g.fanouts[name]; ok {
			sorted := slices.Clone(f.targets)
			slices.Sort(sorted)
			for _, t := range sorted {
				r.edges = append(r.edges, Edge{From: name, To: t, Label: g.labels[edgeKey{name, t}], Parallel: true})
			}
			n.next = idx(g.static[f.targets[0]]) // the join, checked by validate
			if f.send != nil {
				n.sender = f.send
				n.targets = slices.Clone(f.targets)
				n.targetIdx = make([]int, len(f.targets))
				for j, t := range f.targets {
					n.targetIdx[j] = idx(t)
				}
			} else {
				n.fanout = make([]int, len(f.targets))
				for j, t := range f.targets {
					n.fanout[j] = idx(t)
				}
			}
		} else if to, ok := g.static[name]; ok {
			n.next = idx(to)
			r.edges = append(r.edges, Edge{From: name, To: to, Label: g.labels[edgeKey{name, to}]})
		} else {
			b := g.branches[name]
			n.router = b.router
			n.targets = slices.Clone(b.targets)
			n.targetIdx = make([]int, len(b.targets))
			for j, t := range b.targets {
				n.targetIdx[j] = idx(t)
			}
			if len(b.targets) > 8 {
				n.targetSet = make(map[string]int, len(b.targets))
				for j, t := range b.targets {
					n.targetSet[t] = n.targetIdx[j]
				}
			}
			sorted := slices.Clone(b.targets)
			slices.SortFunc(sorted, compareTargets)
			for _, t := range sorted {
				label, ok := g.labels[edgeKey{name, t}]
				if !ok {
					label = displayName(t)
				}
				r.edges = append(r.edges, Edge{From: name, To: t, Label: label, Conditional: true})
			}
		}
		r.nodes[i] = n
	}
	return r, nil
}

// compareTargets sorts node names with END last.
func compareTargets(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == END:
		return 1
	case b == END:
		return -1
	}
	return strings.Compare(a, b)
}

func displayName(name string) string {
	switch name {
	case START:
		return "START"
	case END:
		return "END"
	}
	return name
}

// validate collects every structural problem, in a deterministic order.
func (g *StateGraph[S]) validate(cfg *compileConfig) error {
	var errs []error
	known := func(name string) bool { return name == END || g.nodes[name] != nil }

	if g.entry == "" {
		errs = append(errs, fmt.Errorf("graph: %w; call SetEntryPoint or AddEdge(graph.START, node)", ErrNoEntryPoint))
	} else if !known(g.entry) || g.entry == END {
		errs = append(errs, fmt.Errorf("graph: entry point %q: %w", g.entry, ErrUnknownNode))
	}
	for _, from := range sortedKeys(g.static) {
		to := g.static[from]
		if !known(from) {
			errs = append(errs, fmt.Errorf("graph: edge %q -> %q: %q: %w", from, to, from, ErrUnknownNode))
		}
		if !known(to) {
			errs = append(errs, fmt.Errorf("graph: edge %q -> %q: %q: %w", from, to, to, ErrUnknownNode))
		}
	}
	for _, from := range sortedKeys(g.branches) {
		b := g.branches[from]
		if !known(from) {
			errs = append(errs, fmt.Errorf("graph: conditional edges from %q: %q: %w", from, from, ErrUnknownNode))
		}
		for _, t := range b.targets {
			if !known(t) {
				errs = append(errs, fmt.Errorf("graph: conditional edges from %q: target %q: %w", from, t, ErrUnknownNode))
			}
		}
	}
	for _, from := range sortedKeys(g.fanouts) {
		f := g.fanouts[from]
		if !known(from) {
			errs = append(errs, fmt.Errorf("graph: fan-out from %q: %q: %w", from, from, ErrUnknownNode))
		}
		join := ""
		for _, t := range f.targets {
			switch {
			case !known(t):
				errs = append(errs, fmt.Errorf("graph: fan-out from %q: target %q: %w", from, t, ErrUnknownNode))
				continue
			case t == from:
				errs = append(errs, fmt.Errorf("graph: fan-out from %q: a node cannot be its own branch: %w", from, ErrFanOut))
				continue
			}
			to, ok := g.static[t]
			if !ok {
				errs = append(errs, fmt.Errorf("graph: fan-out from %q: branch %q needs a static edge to the join node (AddEdge(%q, join)): %w", from, t, t, ErrFanOut))
				continue
			}
			if join == "" {
				join = to
			} else if to != join {
				errs = append(errs, fmt.Errorf("graph: fan-out from %q: branches join at %q and %q; every branch must have an edge to the same join node: %w", from, join, to, ErrFanOut))
			}
		}
	}
	for _, list := range [][]string{cfg.interruptBefore, cfg.interruptAfter} {
		for _, n := range list {
			if g.nodes[n] == nil {
				errs = append(errs, fmt.Errorf("graph: interrupt at %q: %w", n, ErrUnknownNode))
			}
		}
	}
	labelKeys := make([]edgeKey, 0, len(g.labels))
	for k := range g.labels {
		labelKeys = append(labelKeys, k)
	}
	slices.SortFunc(labelKeys, func(a, b edgeKey) int {
		if c := strings.Compare(a.from, b.from); c != 0 {
			return c
		}
		return strings.Compare(a.to, b.to)
	})
	for _, k := range labelKeys {
		if !g.hasEdge(k.from, k.to) {
			errs = append(errs, fmt.Errorf("graph: SetEdgeLabel(%q, %q): no such edge: %w", k.from, k.to, ErrUnknownEdge))
		}
	}
	if len(errs) > 0 {
		return join(errs)
	}

	// Structure: every node has a way out, is reachable, and can reach END.
	succ := func(name string) []string {
		if to, ok := g.static[name]; ok {
			return []string{to}
		}
		if f, ok := g.fanouts[name]; ok {
			return f.targets
		}
		return g.branches[name].targets
	}
	names := slices.Clone(g.order)
	slices.Sort(names)
	noExit := make(map[string]bool)
	for _, n := range names {
		if len(succ(n)) == 0 {
			noExit[n] = true
			errs = append(errs, fmt.Errorf("graph: node %q has no outgoing edge; add AddEdge(%q, graph.END) or edges to other nodes: %w", n, n, ErrDeadEnd))
		}
	}
	reach := map[string]bool{g.entry: true}
	queue := []string{g.entry}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, t := range succ(n) {
			if t != END && !reach[t] {
				reach[t] = true
				queue = append(queue, t)
			}
		}
	}
	for _, n := range names {
		if !reach[n] {
			errs = append(errs, fmt.Errorf("graph: node %q cannot be reached from the entry point %q: %w", n, g.entry, ErrUnreachable))
		}
	}
	pred := make(map[string][]string)
	for _, n := range names {
		for _, t := range succ(n) {
			pred[t] = append(pred[t], n)
		}
	}
	ends := map[string]bool{}
	queue = []string{END}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, p := range pred[n] {
			if !ends[p] {
				ends[p] = true
				queue = append(queue, p)
			}
		}
	}
	for _, n := range names {
		if !ends[n] && !noExit[n] {
			errs = append(errs, fmt.Errorf("graph: END cannot be reached from node %q (every path from it loops forever): %w", n, ErrDeadEnd))
		}
	}
	return join(errs)
}

func (g *StateGraph[S]) hasEdge(from, to string) bool {
	if from == START {
		return g.entry == to
	}
	if g.static[from] == to {
		return true
	}
	return slices.Contains(g.branches[from].targets, to) || slices.Contains(g.fanouts[from].targets, to)
}

func join(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return errors.Join(errs...)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Nodes returns the names of the graph's nodes, sorted (START and END are
// not included).
func (r *Runnable[S]) Nodes() []string { return slices.Clone(r.names) }

// Edges returns the graph's edges: the START edge first, then each node's
// edges in node-name order, conditional targets sorted with END last.
func (r *Runnable[S]) Edges() []Edge { return slices.Clone(r.edges) }

// MaxSteps returns the step limit runs use unless WithRunMaxSteps overrides it.
func (r *Runnable[S]) MaxSteps() int { return r.maxSteps }
