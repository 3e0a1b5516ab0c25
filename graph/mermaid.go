package graph

import (
	"fmt"
	"strconv"
	"strings"
)

// Mermaid renders the graph as a Mermaid flowchart. Nodes are declared in
// sorted order between START and END; static edges are solid, conditional
// edges dashed and labelled, so loops show as dashed back-edges. Node ids
// are derived from names and made safe for Mermaid; names are shown as
// quoted labels. The output is deterministic.
func (r *Runnable[S]) Mermaid(opts ...RenderOption) string {
	cfg := renderOptions(opts)
	o := cfg.overlay()
	ids := mermaidIDs(r.names)
	var b strings.Builder
	fmt.Fprintf(&b, "flowchart %s\n", cfg.direction)
	for _, n := range r.allNodes() {
		switch n {
		case START, END:
			fmt.Fprintf(&b, "    %s([\"%s\"])\n", ids[n], displayName(n))
		default:
			fmt.Fprintf(&b, "    %s[\"%s\"]\n", ids[n], mermaidText(n))
		}
	}
	var visited []string
	for i, e := range r.edges {
		arrow := "-->"
		if e.Conditional {
			arrow = "-.->"
		}
		label, count := edgeLabel(e, o)
		if label != "" {
			fmt.Fprintf(&b, "    %s %s|\"%s\"| %s\n", ids[e.From], arrow, mermaidText(label), ids[e.To])
		} else {
			fmt.Fprintf(&b, "    %s %s %s\n", ids[e.From], arrow, ids[e.To])
		}
		if count > 0 {
			visited = append(visited, strconv.Itoa(i))
		}
	}
	if o != nil {
		var nodes []string
		for _, n := range r.allNodes() {
			if o.nodes[n] > 0 {
				nodes = append(nodes, ids[n])
			}
		}
		b.WriteString("    classDef visited fill:#d7f0dd,stroke:#1e7b34,stroke-width:2px\n")
		if len(nodes) > 0 {
			fmt.Fprintf(&b, "    class %s visited\n", strings.Join(nodes, ","))
		}
		if len(visited) > 0 {
			fmt.Fprintf(&b, "    linkStyle %s stroke:#1e7b34,stroke-width:3px\n", strings.Join(visited, ","))
		}
	}
	return b.String()
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
