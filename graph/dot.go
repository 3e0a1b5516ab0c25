package graph

import (
	"fmt"
	"strings"
)

// DOT renders the graph in Graphviz's DOT language, with the same layout
// rules as Mermaid: sorted nodes between START and END, solid static edges,
// dashed labelled conditional edges, bold fan-out branches. A subgraph node
// is drawn as a cluster holding the child graph; edges into it reach the
// child's START and edges out of it leave the child's END. The output is
// deterministic.
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
	dotGraph(&b, r, "", "\t", o)
	b.WriteString("}\n")
	return b.String()
}

// dotGraph writes d's nodes and edges, node ids prefixed with prefix
// ("sub/" inside the subgraph node sub).
func dotGraph(b *strings.Builder, d diagram, prefix, indent string, o *overlay) {
	names := d.Nodes()
	subs := d.subgraphDiagrams()
	id := func(n string, in bool) string {
		if sub := subs[n]; sub != nil {
			if in {
				return prefix + n + "/" + START
			}
			return prefix + n + "/" + END
		}
		return prefix + n
	}
	all := append(append([]string{START}, names...), END)
	for _, n := range all {
		if sub := subs[n]; sub != nil {
			fmt.Fprintf(b, "%ssubgraph %s {\n", indent, dotQuote("cluster_"+prefix+n))
			fmt.Fprintf(b, "%s\tlabel=%s;\n", indent, dotQuote(n))
			fmt.Fprintf(b, "%s\tstyle=dashed;\n", indent)
			dotGraph(b, sub, prefix+n+"/", indent+"\t", o.within(n))
			fmt.Fprintf(b, "%s}\n", indent)
			continue
		}
		attrs := []string{"label=" + dotQuote(displayName(n))}
		if n == START || n == END {
			attrs = append(attrs, "shape=oval")
		}
		if o.node(n) > 0 {
			style := "rounded,filled"
			if n == START || n == END {
				style = "filled"
			}
			attrs = append(attrs, `style="`+style+`"`, `fillcolor="#d7f0dd"`, `color="#1e7b34"`, "penwidth=2")
		}
		fmt.Fprintf(b, "%s%s [%s];\n", indent, dotQuote(prefix+n), strings.Join(attrs, ", "))
	}
	for _, e := range d.Edges() {
		var attrs []string
		switch {
		case e.Conditional:
			attrs = append(attrs, "style=dashed")
		case e.Parallel:
			attrs = append(attrs, "style=bold")
		}
		label, count := edgeLabel(e, o)
		if label != "" {
			attrs = append(attrs, "label="+dotQuote(label))
		}
		if count > 0 {
			attrs = append(attrs, `color="#1e7b34"`, "penwidth=2")
		}
		from, to := dotQuote(id(e.From, false)), dotQuote(id(e.To, true))
		if len(attrs) > 0 {
			fmt.Fprintf(b, "%s%s -> %s [%s];\n", indent, from, to, strings.Join(attrs, ", "))
		} else {
			fmt.Fprintf(b, "%s%s -> %s;\n", indent, from, to)
		}
	}
}

// dotQuote returns s as a DOT double-quoted string.
func dotQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(oneLine(s)) + `"`
}
