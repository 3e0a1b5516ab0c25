package graph

import (
	"fmt"
	"strconv"
	"strings"
)

// Mermaid renders the graph as a Mermaid flowchart. Nodes are declared in
// sorted order between START and END; static edges are solid, conditional
// edges dashed and labelled, so loops show as dashed back-edges, and the
// branches of a fan-out thick. A subgraph node is drawn as a Mermaid
// subgraph holding the child graph. Node ids are derived from names and
// made safe for Mermaid; names are shown as quoted labels. The output is
// deterministic.
func (r *Runnable[S]) Mermaid(opts ...RenderOption) string {
	cfg := renderOptions(opts)
	o := cfg.overlay()
	var b strings.Builder
	fmt.Fprintf(&b, "flowchart %s\n", cfg.direction)
	m := &mermaidWriter{b: &b}
	m.graph(r, "", "    ", cfg.direction, o)
	if o != nil {
		b.WriteString("    classDef visited fill:#d7f0dd,stroke:#1e7b34,stroke-width:2px\n")
		if len(m.nodes) > 0 {
			fmt.Fprintf(&b, "    class %s visited\n", strings.Join(m.nodes, ","))
		}
		if len(m.visited) > 0 {
			fmt.Fprintf(&b, "    linkStyle %s stroke:#1e7b34,stroke-width:3px\n", strings.Join(m.visited, ","))
		}
	}
	return b.String()
}

// mermaidWriter writes a graph and its subgraphs, numbering links as
// Mermaid does (in order of appearance) for linkStyle.
type mermaidWriter struct {
	b       *strings.Builder
	links   int
	visited []string // links a trace took
	nodes   []string // ids of the nodes a trace visited
}

// graph writes d's nodes and edges, with o's counts (nil: no trace);
// prefix makes a subgraph's ids unique.
func (m *mermaidWriter) graph(d diagram, prefix, indent, direction string, o *overlay) {
	names := d.Nodes()
	subs := d.subgraphDiagrams()
	ids := mermaidIDs(names)
	if prefix != "" {
		for k, v := range ids {
			ids[k] = prefix + "__" + v
		}
	}
	all := append(append([]string{START}, names...), END)
	for _, n := range all {
		if o.node(n) > 0 {
			m.nodes = append(m.nodes, ids[n])
		}
		switch {
		case n == START || n == END:
			fmt.Fprintf(m.b, "%s%s([\"%s\"])\n", indent, ids[n], displayName(n))
		case subs[n] != nil:
			fmt.Fprintf(m.b, "%ssubgraph %s [\"%s\"]\n", indent, ids[n], mermaidText(n))
			fmt.Fprintf(m.b, "%s    direction %s\n", indent, direction)
			m.graph(subs[n], ids[n], indent+"    ", direction, o.within(n))
			fmt.Fprintf(m.b, "%send\n", indent)
		default:
			fmt.Fprintf(m.b, "%s%s[\"%s\"]\n", indent, ids[n], mermaidText(n))
		}
	}
	for _, e := range d.Edges() {
		arrow := "-->"
		switch {
		case e.Conditional:
			arrow = "-.->"
		case e.Parallel:
			arrow = "==>"
		}
		label, count := edgeLabel(e, o)
		if label != "" {
			fmt.Fprintf(m.b, "%s%s %s|\"%s\"| %s\n", indent, ids[e.From], arrow, mermaidText(label), ids[e.To])
		} else {
			fmt.Fprintf(m.b, "%s%s %s %s\n", indent, ids[e.From], arrow, ids[e.To])
		}
		if count > 0 {
			m.visited = append(m.visited, strconv.Itoa(m.links))
		}
		m.links++
	}
}

// mermaidIDs maps node names to ids Mermaid accepts: "n_" plus the name
// with every character outside [A-Za-z0-9_] replaced by "_", suffixed with
// a number when two names collide. The prefix keeps ids clear of Mermaid's
// keywords (end, graph, subgraph, ...). START and END get __start__ and
// __end__.
func mermaidIDs(names []string) map[string]string {
	ids := map[string]string{START: "__start__", END: "__end__"}
	used := map[string]bool{"__start__": true, "__end__": true}
	for _, n := range names { // sorted, so collisions resolve deterministically
		base := "n_" + strings.Map(func(r rune) rune {
			if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				return r
			}
			return '_'
		}, n)
		id := base
		for i := 2; used[id]; i++ {
			id = base + "_" + strconv.Itoa(i)
		}
		used[id] = true
		ids[n] = id
	}
	return ids
}

// mermaidEscaper turns the characters Mermaid would interpret inside a
// quoted label (the quote, entity and HTML syntax, markdown backticks) into
// Mermaid's #code; entities, so the text shows as written.
var mermaidEscaper = strings.NewReplacer(`"`, "#quot;", "#", "#35;", "&", "#38;", "<", "#lt;", ">", "#gt;", "`", "#96;")

// mermaidText escapes s for use inside a double-quoted Mermaid label.
func mermaidText(s string) string {
	return mermaidEscaper.Replace(oneLine(s))
}
