package graph

import (
	"fmt"
	"strings"
)

// historyLen is how many of a run's last node runs it remembers to name
// the loop that ran away at the step limit. 64 covers the default limit
// (25) twice over; a store per step into a fixed array keeps the step free
// of allocation.
const historyLen = 64

// stepHistory is a ring of the last node indices a run visited.
type stepHistory struct {
	nodes [historyLen]int32
	n     uint
}

func (h *stepHistory) add(node int) {
	h.nodes[h.n%historyLen] = int32(node)
	h.n++
}

// MaxStepsError is the error of a run stopped at its step limit. It
// matches ErrMaxSteps and names the loop that ran away: the edge taken
// most often in the last steps.
type MaxStepsError struct {
	Limit int    // the step limit
	Next  string // the node that would have run next
	// Loop is the edge taken most often among the last steps (preferring a
	// router's edge on a tie, since a router keeps a loop going), and Count
	// how often. Loop is empty when no edge repeated.
	Loop  Edge
	Count int
	// Window is how many of the last edges were counted.
	Window int
}

func (e *MaxStepsError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "graph: %v: %d steps run without reaching END; next node was %q", ErrMaxSteps, e.Limit, e.Next)
	if e.Count > 1 {
		fmt.Fprintf(&b, "; the loop that ran away: %s -> %s (taken %d times in the last %d steps)", e.Loop.From, e.Loop.To, e.Count, e.Window)
		if e.Loop.Conditional {
			fmt.Fprintf(&b, "; check the router of %q", e.Loop.From)
		}
	}
	b.WriteString(" (raise the limit with WithMaxSteps or WithRunMaxSteps)")
	return b.String()
}

// Is reports whether target is ErrMaxSteps.
func (e *MaxStepsError) Is(target error) bool { return target == ErrMaxSteps }

// maxStepsError builds the step-limit error from the run's history; next
// is the node that was due to run. Only edges taken between node runs
// count: on a tie in a cycle, the router's edge, which kept the loop
// going, is named.
func (r *Runnable[S]) maxStepsError(h *stepHistory, step, next, limit int) error {
	e := &MaxStepsError{Limit: limit, Next: r.nameOf(next)}
	k := min(h.n, historyLen)
	seq := make([]int, 0, k+1)
	for i := h.n - k; i < h.n; i++ {
		seq = append(seq, int(h.nodes[i%historyLen]))
	}
	type edge struct{ from, to int }
	counts := make(map[edge]int)
	var best edge
	for i := 1; i < len(seq); i++ {
		ed := edge{seq[i-1], seq[i]}
		counts[ed]++
		c, bc := counts[ed], counts[best]
		routed := r.nodes[ed.from].router != nil
		bestRouted := r.nodes[best.from].router != nil
		if c > bc || c == bc && routed && !bestRouted || c == bc && routed == bestRouted {
			best = ed
		}
	}
	e.Window = len(seq) - 1
	if e.Window > 0 {
		e.Count = counts[best]
		e.Loop = Edge{From: r.nameOf(best.from), To: r.nameOf(best.to), Conditional: r.nodes[best.from].router != nil}
	}
	return &stepError{step: step, node: e.Next, err: e}
}
