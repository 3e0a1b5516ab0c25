package graph

import (
	"errors"
	"fmt"
)

// Errors returned by Compile and by runs. Every error the package returns
// wraps one of these, so match them with errors.Is; the message names the
// node concerned.
var (
	// ErrNoEntryPoint: Compile was called before SetEntryPoint.
	ErrNoEntryPoint = errors.New("no entry point")
	// ErrUnknownNode: an edge, a conditional target or the entry point names a
	// node that was never added.
	ErrUnknownNode = errors.New("unknown node")
	// ErrDuplicateNode: AddNode was called twice with the same name.
	ErrDuplicateNode = errors.New("duplicate node")
	// ErrReservedName: a node was named START, END or "", or an edge leaves
	// END or enters START.
	ErrReservedName = errors.New("reserved node name")
	// ErrNilFunc: a node function or router is nil.
	ErrNilFunc = errors.New("nil function")
	// ErrEdgeConflict: a node was given two static edges, or both a static
	// edge and conditional edges, or the entry point was set twice. A node
	// has exactly one way out.
	ErrEdgeConflict = errors.New("conflicting edges")
	// ErrUnknownEdge: SetEdgeLabel names an edge that does not exist.
	ErrUnknownEdge = errors.New("unknown edge")
	// ErrUndeclaredTarget: conditional edges were added without targets, or
	// at run time a router answered with a target it did not declare.
	ErrUndeclaredTarget = errors.New("undeclared target")
	// ErrUnreachable: a node cannot be reached from the entry point.
	ErrUnreachable = errors.New("unreachable node")
	// ErrDeadEnd: END cannot be reached from a node (it has no outgoing
	// edge, or all its paths loop forever).
	ErrDeadEnd = errors.New("node cannot reach END")
	// ErrMaxSteps: a run executed its step limit without reaching END.
	ErrMaxSteps = errors.New("step limit reached")
	// ErrPanic: a node or router panicked; the *PanicError carries the value
	// and the stack.
	ErrPanic = errors.New("panic in node")
)

// NodeError reports a failure of one node during a run: the node function
// returned an error or panicked, or its router failed or answered with an
// undeclared target.
type NodeError struct {
	Node string // name of the node
	Step int    // 1-based step at which it ran
	Err  error  // what went wrong
}

func (e *NodeError) Error() string {
	return fmt.Sprintf("graph: node %q (step %d): %v", e.Node, e.Step, e.Err)
}

func (e *NodeError) Unwrap() error { return e.Err }

// PanicError is the Err of a NodeError when a node or router panicked. The
// engine recovers the panic so that one bad node cannot crash the host.
type PanicError struct {
	Value any    // the value passed to panic
	Stack []byte // the goroutine's stack at the panic
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Is reports whether target is ErrPanic.
func (e *PanicError) Is(target error) bool { return target == ErrPanic }

// Unwrap returns the panic value when it is an error (panic(err)).
func (e *PanicError) Unwrap() error {
	if err, ok := e.Value.(error); ok {
		return err
	}
	return nil
}
