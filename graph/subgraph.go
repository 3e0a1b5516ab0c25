package graph

import (
	"context"
	"fmt"
	"reflect"
	"time"
)

// AddSubgraph adds a node named name that runs the compiled graph child.
// in derives the child's initial state from the parent's and out folds the
// child's final state back into the parent's; both may be nil when S and T
// are the same type (the state passes through unchanged).
//
// The child's node events, decisions and custom events (streamed tokens)
// reach the parent run's observers with Event.Subgraph set to the path of
// subgraph nodes ("outer/inner"). The child runs within one step of the
// parent: the parent checkpoints around it, not inside it. A node of the
// child may call Interrupt; the parent run pauses at the subgraph node, and
// on resume the subgraph runs again and that Interrupt call returns the
// resume value. Diagrams draw the child inside the node (Mermaid
// subgraph, DOT cluster).
func AddSubgraph[S, T any](g *StateGraph[S], name string, child *Runnable[T], in func(S) T, out func(S, T) S, opts ...NodeOption) {
	if child == nil {
		g.fail(fmt.Errorf("graph: AddSubgraph(%q): child: %w", name, ErrNilFunc))
		return
	}
	same := reflect.TypeFor[S]() == reflect.TypeFor[T]()
	if (in == nil || out == nil) && !same {
		g.fail(fmt.Errorf("graph: AddSubgraph(%q): the child's state %s differs from %s; pass in and out to convert: %w",
			name, reflect.TypeFor[T](), reflect.TypeFor[S](), ErrNilFunc))
		return
	}
	g.AddNode(name, func(ctx context.Context, s S) (S, error) {
		var cs T
		if in != nil {
			cs = in(s)
		} else {
			cs = any(s).(T)
		}
		res, err := child.runSub(ctx, cs, name)
		if err != nil {
			return s, err
		}
		if out != nil {
			return out(s, res), nil
		}
		return any(res).(S), nil
	}, opts...)
	g.subgraphs[name] = child
}

// runSub runs r as the subgraph node name of an enclosing run.
func (r *Runnable[S]) runSub(ctx context.Context, s S, name string) (S, error) {
	var sc *scope
	var start time.Time
	if parent, _ := ctx.Value(emitterKey{}).(*scope); parent != nil {
		path := name
		if parent.path != "" {
			path = parent.path + "/" + name
		}
		sc = &scope{em: parent.em, path: path}
		ctx = context.WithValue(ctx, emitterKey{}, sc)
		start = time.Now()
	}
	return r.run(ctx, s, position{cur: r.entry}, r.maxSteps, sc, start, nil)
}

// diagram is what rendering needs of a compiled graph, whatever its state
// type: subgraphs are drawn inside their node.
type diagram interface {
	Nodes() []string
	Edges() []Edge
	subgraphDiagrams() map[string]diagram
}

func (r *Runnable[S]) subgraphDiagrams() map[string]diagram { return r.subgraphs }
