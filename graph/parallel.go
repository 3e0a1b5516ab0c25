package graph

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"
)

// Errors of fan-out and fan-in.
var (
	// ErrFanOut: a fan-out is declared wrongly (its branches do not join at
	// one node, the state is not a struct of exported fields, a reducer
	// names no such field or has the wrong type).
	ErrFanOut = errors.New("invalid fan-out")
	// ErrMergeConflict: two parallel branches wrote the same field, which
	// has no reducer.
	ErrMergeConflict = errors.New("parallel branches wrote the same field")
)

// DefaultParallelism is how many branches of a fan-out run at once unless
// WithParallelism says otherwise. Branches are usually I/O-bound (model and
// store calls); 16 keeps a large Send list from opening that many
// connections at once while leaving small fan-outs fully parallel.
const DefaultParallelism = 16

// WithParallelism sets how many branches of one fan-out run at once
// (default DefaultParallelism). Values below 1 are ignored.
func WithParallelism(n int) CompileOption {
	return func(c *compileConfig) {
		if n > 0 {
			c.parallelism = n
		}
	}
}

// Send is one branch of a dynamic fan-out: run node To on State.
type Send[S any] struct {
	To    string
	State S
}

// SendFunc picks the branches of a dynamic fan-out from the state, for
// example one branch per sub-question (map-reduce). It must be a
// deterministic function of the state: a run resumed after a crash calls
// it again.
type SendFunc[S any] func(ctx context.Context, state S) ([]Send[S], error)

// AddParallelEdges makes from fan out: after it runs, every target runs
// concurrently on a copy of its state. Each target must have a static edge
// to the same node (or END), the join: when every branch has returned,
// their states are merged into one (see AddReducer) and the run continues
// at the join. A branch is one node; make a longer branch a subgraph
// (AddSubgraph).
//
// Merging is field by field, so the state must be a struct of exported
// fields. A field written by one branch takes that branch's value; a field
// written by two branches needs a reducer, or the run fails with
// ErrMergeConflict naming both.
func (g *StateGraph[S]) AddParallelEdges(from string, targets ...string) {
	if len(targets) == 0 {
		g.fail(fmt.Errorf("graph: AddParallelEdges(%q): no targets: %w", from, ErrFanOut))
		return
	}
	g.addFanOut("AddParallelEdges", from, targets, nil)
}

// AddSendEdges makes from fan out dynamically: after it runs, send returns
// the branches to run, each a node among targets with its own state (the
// same node may be sent several times). They run concurrently and join as
// with AddParallelEdges; results merge in the order of send's list.
func (g *StateGraph[S]) AddSendEdges(from string, send SendFunc[S], targets ...string) {
	if send == nil {
		g.fail(fmt.Errorf("graph: AddSendEdges(%q): send: %w", from, ErrNilFunc))
		return
	}
	if len(targets) == 0 {
		g.fail(fmt.Errorf("graph: AddSendEdges(%q): no targets declared; list every node send may answer: %w", from, ErrUndeclaredTarget))
		return
	}
	g.addFanOut("AddSendEdges", from, targets, send)
}

func (g *StateGraph[S]) addFanOut(op, from string, targets []string, send SendFunc[S]) {
	switch {
	case reserved(from):
		g.fail(fmt.Errorf("graph: %s(%q): %w", op, from, ErrReservedName))
		return
	case g.hasWayOut(from):
		g.fail(fmt.Errorf("graph: %s(%q): node %q already has a way out; a node has exactly one: %w", op, from, from, ErrEdgeConflict))
		return
	}
	var ts []string
	for _, t := range targets {
		if reserved(t) {
			g.fail(fmt.Errorf("graph: %s(%q): target %q: a branch must be a node: %w", op, from, t, ErrReservedName))
			return
		}
		if !containsString(ts, t) {
			ts = append(ts, t)
		}
	}
	g.fanouts[from] = fanOutDef[S]{targets: ts, send: send}
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

type fanOutDef[S any] struct {
	targets []string
	send    SendFunc[S]
}

// AddReducer gives field (of the state struct S, of type F) a reducer:
// when parallel branches join, each branch's value of the field is folded
// into the value it had before the fan-out, in branch order:
// acc = fn(acc, branchValue). A branch starts with the field zeroed, so
// its value is its own contribution, and a branch that leaves it zero
// contributes nothing. For example, to collect hits from several
// retrievers:
//
//	graph.AddReducer(g, "Hits", func(acc, hits []Hit) []Hit { return append(acc, hits...) })
func AddReducer[S, F any](g *StateGraph[S], field string, fn func(acc, v F) F) {
	if fn == nil {
		g.fail(fmt.Errorf("graph: AddReducer(%q): %w", field, ErrNilFunc))
		return
	}
	if _, dup := g.reducers[field]; dup {
		g.fail(fmt.Errorf("graph: AddReducer(%q): field already has a reducer: %w", field, ErrFanOut))
		return
	}
	g.reducers[field] = reducerDef{typ: reflect.TypeFor[F](), fn: func(acc, v reflect.Value) reflect.Value {
		var a, b F
		if x := acc.Interface(); x != nil {
			a = x.(F)
		}
		if x := v.Interface(); x != nil {
			b = x.(F)
		}
		out := fn(a, b)
		return reflect.ValueOf(&out).Elem()
	}}
}

type reducerDef struct {
	typ reflect.Type
	fn  func(acc, v reflect.Value) reflect.Value
}

// merger merges parallel branches' states field by field.
type merger struct {
	fields []mergeField
}

type mergeField struct {
	index  int
	name   string
	reduce func(acc, v reflect.Value) reflect.Value // nil: one writer at most
}

// newMerger checks that S can be merged and resolves the reducers.
func newMerger[S any](reducers map[string]reducerDef) (*merger, error) {
	t := reflect.TypeFor[S]()
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("graph: the state type %s is not a struct, so parallel branches cannot be merged field by field: %w", t, ErrFanOut)
	}
	m := &merger{}
	var errs []error
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			errs = append(errs, fmt.Errorf("graph: state field %s.%s is unexported, so parallel branches cannot merge it; export it: %w", t, f.Name, ErrFanOut))
			continue
		}
		mf := mergeField{index: i, name: f.Name}
		if rd, ok := reducers[f.Name]; ok {
			if rd.typ != f.Type {
				errs = append(errs, fmt.Errorf("graph: AddReducer(%q): the reducer takes %s but the field is %s: %w", f.Name, rd.typ, f.Type, ErrFanOut))
			}
			mf.reduce = rd.fn
		}
		m.fields = append(m.fields, mf)
	}
	for _, name := range sortedKeys(reducers) {
		if f, ok := t.FieldByName(name); !ok || len(f.Index) != 1 {
			errs = append(errs, fmt.Errorf("graph: AddReducer(%q): the state type %s has no such field: %w", name, t, ErrFanOut))
		}
	}
	return m, join(errs)
}

// clearReduced zeroes the reduced fields of a branch's input.
func (m *merger) clearReduced(v reflect.Value) {
	for _, f := range m.fields {
		if f.reduce != nil {
			fv := v.Field(f.index)
			fv.SetZero()
		}
	}
}

// branchRun is one branch of a fan-out.
type branchRun[S any] struct {
	node       int
	in, out    S
	err        error
	start, end time.Time // when the node ran, for its NodeEnd event
}

// merge folds the branches' states into base, in branch order.
func (r *Runnable[S]) merge(base S, from string, bs []branchRun[S]) (S, error) {
	out := base
	ov := reflect.ValueOf(&out).Elem()
	ins := make([]reflect.Value, len(bs))
	outs := make([]reflect.Value, len(bs))
	for i := range bs {
		ins[i] = reflect.ValueOf(&bs[i].in).Elem()
		outs[i] = reflect.ValueOf(&bs[i].out).Elem()
	}
	var errs []error
	for _, f := range r.merger.fields {
		if f.reduce != nil {
			acc := ov.Field(f.index)
			for i := range bs {
				if v := outs[i].Field(f.index); !v.IsZero() {
					acc = f.reduce(acc, v)
				}
			}
			ov.Field(f.index).Set(acc)
			continue
		}
		writer := -1
		for i := range bs {
			if reflect.DeepEqual(ins[i].Field(f.index).Interface(), outs[i].Field(f.index).Interface()) {
				continue
			}
			if writer >= 0 {
				errs = append(errs, fmt.Errorf("graph: fan-out from %q: branches %q and %q both wrote field %s; give it a reducer (graph.AddReducer) or let each branch write its own field: %w",
					from, r.branchName(bs, writer), r.branchName(bs, i), f.name, ErrMergeConflict))
				break
			}
			writer = i
		}
		if writer >= 0 {
			ov.Field(f.index).Set(outs[writer].Field(f.index))
		}
	}
	return out, join(errs)
}

// branchName names branch i: its node, with its position when a Send list
// runs one node several times.
func (r *Runnable[S]) branchName(bs []branchRun[S], i int) string {
	name := r.nodes[bs[i].node].name
	for j := range bs {
		if j != i && bs[j].node == bs[i].node {
			return fmt.Sprintf("%s[%d]", name, i)
		}
	}
	return name
}

// fanOut runs the branches of node n concurrently and merges them. step is
// the source node's step; branches take the steps after it. It returns the
// merged state and how many steps the branches took.
func (r *Runnable[S]) fanOut(ctx context.Context, n *node[S], s S, step, used, maxSteps int, sc *scope, d *durable) (S, int, error) {
	var bs []branchRun[S]
	if n.sender != nil {
		sends, err := callSender(ctx, n.sender, s, sc)
		if err != nil {
			return s, 0, &NodeError{Node: n.name, Step: step, Err: fmt.Errorf("send: %w", err)}
		}
		bs = make([]branchRun[S], 0, len(sends))
		for _, snd := range sends {
			i, ok := n.target(snd.To)
			if !ok || i == endIndex {
				return s, 0, &NodeError{Node: n.name, Step: step, Err: fmt.Errorf("send answered %q, which is not among its declared targets [%s]: %w",
					snd.To, strings.Join(n.targets, " "), ErrUndeclaredTarget)}
			}
			bs = append(bs, branchRun[S]{node: i, in: snd.State})
		}
	} else {
		bs = make([]branchRun[S], len(n.fanout))
		for i, t := range n.fanout {
			bs[i] = branchRun[S]{node: t, in: s}
		}
	}
	if used+1+len(bs) > maxSteps {
		return s, 0, &stepError{step: step + 1, node: n.name, err: &MaxStepsError{Limit: maxSteps, Next: n.name}}
	}
	for i := range bs {
		r.merger.clearReduced(reflect.ValueOf(&bs[i].in).Elem())
	}
	resumeNode := -1
	if d != nil {
		resumeNode, d.resumeNode = d.resumeNode, -1
	}

	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first = -1 // the branch that failed first
	)
	sem := make(chan struct{}, r.parallelism)
	// Node events of branches are sent from this goroutine, in branch
	// order: every NodeStart before the branches run, every NodeEnd after
	// they have all returned. Only a branch's own Emit calls come from its
	// goroutine.
	scopes := make([]*scope, len(bs))
	if sc != nil {
		now := time.Now()
		for i := range bs {
			scopes[i] = &scope{em: sc.em, path: sc.path, branch: i + 1}
			scopes[i].sendNode(Event{Kind: EventNodeStart, Step: step + 1 + i, Node: r.nodes[bs[i].node].name, Time: now}, true)
		}
	}
	for i := range bs {
		b := &bs[i]
		bn := &r.nodes[b.node]
		bctx := fctx
		if b.node == resumeNode {
			bctx = context.WithValue(bctx, resumeKey{}, &resumeSlot{value: d.resume})
			resumeNode = -1
		}
		bsc := scopes[i]
		if bsc != nil {
			bctx = context.WithValue(bctx, emitterKey{}, bsc)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if bsc != nil {
				b.start = time.Now()
			}
			if err := bctx.Err(); err != nil {
				b.err = err
			} else {
				b.out, b.err = callNode(bctx, bn.fn, b.in, bsc)
			}
			if bsc != nil {
				b.end = time.Now()
				bsc.leave() // no custom events once the node has returned
			}
			if b.err != nil {
				mu.Lock()
				if first < 0 {
					first = i
				}
				mu.Unlock()
				cancel()
			}
		}()
	}
	wg.Wait()
	if sc != nil {
		for i := range bs {
			b := &bs[i]
			bstep := step + 1 + i
			name := r.nodes[b.node].name
			var err error
			if b.err != nil {
				err = &NodeError{Node: name, Step: bstep, Err: b.err}
			}
			scopes[i].sendNode(Event{Kind: EventNodeEnd, Step: bstep, Node: name, Duration: b.end.Sub(b.start), Err: err, Time: b.end}, false)
		}
		sc.joined = time.Now()
	}
	if first >= 0 {
		b := bs[first]
		name := r.nodes[b.node].name
		var sig *interruptSignal
		if d != nil && errors.As(b.err, &sig) {
			// The whole fan-out runs again on resume; the resume value goes
			// to the branch that asked.
			return s, 0, r.pauseAt(ctx, d, s, step, n.name, "", name, InterruptInside, sig.payload, sc)
		}
		return s, 0, &NodeError{Node: name, Step: step + 1 + first, Err: b.err}
	}
	out, err := r.merge(s, n.name, bs)
	if err != nil {
		return s, 0, &stepError{step: step + len(bs), node: n.name, err: err}
	}
	return out, len(bs), nil
}

func callSender[S any](ctx context.Context, fn SendFunc[S], s S, sc *scope) (sends []Send[S], err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered(v, sc)
		}
	}()
	return fn(ctx, s)
}
