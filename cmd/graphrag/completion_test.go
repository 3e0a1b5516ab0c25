package main

import (
	"strings"
	"testing"
)

func TestCompletion(t *testing.T) {
	c := newCLI(t)
	for shell, marker := range map[string]string{"bash": "complete -o default -F __start_graphrag graphrag", "zsh": "#compdef graphrag", "fish": "complete -c graphrag"} {
		out := c.ok("completion", shell)
		if !strings.Contains(out, marker) {
			t.Errorf("completion %s lacks %q", shell, marker)
		}
	}
	out := c.ok("__complete", "search", "--mode", "")
	for _, w := range []string{"keyword", "vector", "hybrid"} {
		if !strings.Contains(out, w) {
			t.Errorf("search --mode completes %q, want %s", out, w)
		}
	}
	out = c.ok("__complete", "so")
	if !strings.Contains(out, "sources") {
		t.Errorf("command names do not complete: %q", out)
	}
}
