package graph

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly proves the engine imports nothing outside the
// standard library (its tests included).
func TestStandardLibraryOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not on PATH")
	}
	for _, args := range [][]string{
		{"list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "."},
		{"list", "-deps", "-test", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "."},
	} {
		out, err := exec.Command(goBin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		for _, p := range strings.Fields(string(out)) {
			p = strings.Fields(strings.NewReplacer("[", " ", "]", " ").Replace(p))[0]
			switch p {
			case "github.com/graphrag/graphrag/graph", "github.com/graphrag/graphrag/graph_test", "github.com/graphrag/graphrag/graph.test",
				// The checkpointer conformance suite, itself standard library only.
				"github.com/graphrag/graphrag/graph/checkpoint/checkpointtest":
			default:
				t.Errorf("graph depends on %s; it must import only the standard library", p)
			}
		}
	}
}
