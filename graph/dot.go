package graph

import (
	"fmt"
	"strings"
)

// DOT renders the graph in Graphviz's DOT language, with the same layout
// rules as Mermaid: sorted nodes between START and END, solid static edges,
// dashed labelled conditional edges. The output is deterministic.
func (r *Runnable[S]) DOT(opts ...RenderOption) string {
	cfg := renderOptions(opts)
	o := cfg.overlay()
	rankdir := cfg.direction
	if rankdir == "TD" {
		rankdir = "TB"
	}
	var b strings.Builder
	b.WriteString("digraph G {\n")
	fmt.Fprintf(&b, "\trankdir=%s;\n", rankdir)
	b.WriteString("\tnode [shape=box, style=rounded, fontname=\"Helvetica\"];\n")
	b.WriteString("\tedge [fontname=\"Helvetica\", fontsize=10];\n")
	for _, n := range r.allNodes() {
		attrs := []string{"label=" + dotQuote(displayName(n))}
		if n == START || n == END {
			attrs = append(attrs, "shape=oval")
		}
		if o != nil && o.nodes[n] > 0 {
			style := "rounded,filled"
			if n == START || n == END {
				style = "filled"
			}
			attrs = append(attrs, `style="`+style+`"`, `fillcolor="#d7f0dd"`, `color="#1e7b34"`, "penwidth=2")
		}
		fmt.Fprintf(&b, "\t%s [%s];\n", dotQuote(n), strings.Join(attrs, ", "))
	}
	for _, e := range r.edges {
		var attrs []string
		if e.Conditional {
			attrs = append(attrs, "style=dashed")
		}
		label, count := edgeLabel(e, o)
		if label != "" {
			attrs = append(attrs, "label="+dotQuote(label))
		}
		if count > 0 {
			attrs = append(attrs, `color="#1e7b34"`, "penwidth=2")
		}
		if len(attrs) > 0 {
			fmt.Fprintf(&b, "\t%s -> %s [%s];\n", dotQuote(e.From), dotQuote(e.To), strings.Join(attrs, ", "))
		} else {
			fmt.Fprintf(&b, "\t%s -> %s;\n", dotQuote(e.From), dotQuote(e.To))
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// dotQuote returns s as a DOT double-quoted string.
func dotQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(oneLine(s)) + `"`
}
