package graph

import (
	"strconv"
	"strings"
)

// RenderOption configures Mermaid and DOT output.
type RenderOption func(*renderConfig)

type renderConfig struct {
	trace     *Trace
	direction string
}

// WithTrace overlays a recorded trace: visited nodes are highlighted and
// every visited edge is drawn thicker with its count ("3x").
func WithTrace(t *Trace) RenderOption {
	return func(c *renderConfig) { c.trace = t }
}

// WithDirection sets the layout direction: "TD" (top-down, the default),
// "LR", "BT" or "RL". Other values are ignored.
func WithDirection(dir string) RenderOption {
	return func(c *renderConfig) {
		switch dir {
		case "TD", "TB", "LR", "BT", "RL":
			c.direction = dir
		}
	}
}

func renderOptions(opts []RenderOption) renderConfig {
	c := renderConfig{direction: "TD"}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// overlay is a snapshot of a trace's counts, seen from one graph: the
// invoked one (prefix "") or a subgraph (prefix "path/").
type overlay struct {
	nodes  map[string]int
	edges  map[edgeKey]int
	prefix string
}

// node returns how many times n ran; 0 without a trace.
func (o *overlay) node(n string) int {
	if o == nil {
		return 0
	}
	return o.nodes[o.prefix+n]
}

// within is the overlay of the subgraph node sub.
func (o *overlay) within(sub string) *overlay {
	if o == nil {
		return nil
	}
	return &overlay{nodes: o.nodes, edges: o.edges, prefix: o.prefix + sub + "/"}
}

func (c renderConfig) overlay() *overlay {
	if c.trace == nil {
		return nil
	}
	t := c.trace
	t.mu.Lock()
	defer t.mu.Unlock()
	o := &overlay{nodes: make(map[string]int, len(t.nodes)), edges: make(map[edgeKey]int, len(t.edges))}
	for k, v := range t.nodes {
		o.nodes[k] = v
	}
	for k, v := range t.edges {
		o.edges[k] = v
	}
	return o
}

// edgeLabel is the label drawn for e, with the trace count when visited.
func edgeLabel(e Edge, o *overlay) (label string, count int) {
	label = e.Label
	if o != nil {
		count = o.edges[edgeKey{o.prefix + e.From, o.prefix + e.To}]
	}
	if count > 0 {
		c := strconv.Itoa(count) + "x"
		if label == "" {
			label = c
		} else {
			label += " (" + c + ")"
		}
	}
	return label, count
}

// oneLine folds newlines and tabs so a label stays on one line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s)
}
