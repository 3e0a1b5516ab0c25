package graph

import (
	"regexp"
	"strings"
	"testing"
)

var (
	mermaidNodeLine = regexp.MustCompile(`^    (__start__|__end__|n_[A-Za-z0-9_]+)(\(\["[^"]*"\]\)|\["[^"]*"\])$`)
	mermaidEdgeLine = regexp.MustCompile(`^    (__start__|n_[A-Za-z0-9_]+) (-->|-\.->)(\|"[^"]*"\|)? (__end__|n_[A-Za-z0-9_]+)$`)
	dotLine         = regexp.MustCompile(`^\t"(\\.|[^"\\])*"( -> "(\\.|[^"\\])*")?( \[.*\])?;$`)
)

// FuzzRenderNames checks that any node names and labels render to lines of
// the expected shape: safe ids, quoted labels with no stray quote or line
// break.
func FuzzRenderNames(f *testing.F) {
	f.Add("end", "graph", `say "hi"`)
	f.Add("a b", "a-b", "multi\nline|pipe")
	f.Add("x<y>#1", "o", `back\slash "q"`)
	f.Fuzz(func(t *testing.T, a, b, label string) {
		if reserved(a) || reserved(b) || a == b {
			return
		}
		g := NewStateGraph[counter]()
		g.AddNode(a, noop)
		g.AddNode(b, noop)
		g.SetEntryPoint(a)
		g.AddConditionalEdges(a, toEnd, b, END)
		g.AddConditionalEdges(b, toEnd, a, END)
		g.SetEdgeLabel(a, b, label)
		r, err := g.Compile()
		if err != nil {
			t.Fatalf("Compile: %v", err)
		}
		m := strings.Split(strings.TrimSuffix(r.Mermaid(), "\n"), "\n")
		if m[0] != "flowchart TD" || len(m) != 1+4+5 {
			t.Fatalf("unexpected Mermaid shape:\n%s", strings.Join(m, "\n"))
		}
		for _, line := range m[1:5] {
			if !mermaidNodeLine.MatchString(line) {
				t.Errorf("bad Mermaid node line %q", line)
			}
		}
		for _, line := range m[5:] {
			if !mermaidEdgeLine.MatchString(line) {
				t.Errorf("bad Mermaid edge line %q", line)
			}
		}
		d := strings.Split(strings.TrimSuffix(r.DOT(), "\n"), "\n")
		for _, line := range d[4 : len(d)-1] {
			if !dotLine.MatchString(line) {
				t.Errorf("bad DOT line %q", line)
			}
		}
	})
}
