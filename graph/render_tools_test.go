package graph

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// These tests feed the golden diagrams to the real tools when they are
// installed, and skip otherwise: Graphviz's dot for DOT, and Mermaid's own
// parser (scripts/check-mermaid.mjs, with npm's mermaid and jsdom in
// $MERMAID_DEPS, default /tmp/mmd) for Mermaid.

func goldenFiles(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "golden", pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files %s (%v)", pattern, err)
	}
	return files
}

func TestGoldenDOTParsesWithGraphviz(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz dot not installed (apt-get install graphviz)")
	}
	for _, f := range goldenFiles(t, "*.dot") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			if out, err := exec.Command(dot, "-Tsvg", "-o", os.DevNull, f).CombinedOutput(); err != nil {
				t.Errorf("dot rejects %s: %v\n%s", f, err, out)
			}
		})
	}
}

func TestGoldenMermaidParsesWithMermaid(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Node (a few seconds)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	deps := os.Getenv("MERMAID_DEPS")
	if deps == "" {
		deps = "/tmp/mmd"
	}
	if _, err := os.Stat(filepath.Join(deps, "node_modules", "mermaid")); err != nil {
		t.Skipf("npm's mermaid not installed in %s (see scripts/check-mermaid.mjs)", deps)
	}
	args := append([]string{filepath.Join("..", "scripts", "check-mermaid.mjs")}, goldenFiles(t, "*.mmd")...)
	cmd := exec.Command(node, args...)
	cmd.Env = append(os.Environ(), "MERMAID_DEPS="+deps)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("Mermaid rejects a golden diagram: %v\n%s", err, out)
	}
}
