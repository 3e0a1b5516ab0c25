package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A store on read-only media, or another user's, can be queried.
func TestRunOnReadOnlyStore(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", sampleDir(t))
	dir := filepath.Join(c.env["XDG_DATA_HOME"], "graphrag")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{dir}
	for _, e := range entries {
		paths = append(paths, filepath.Join(dir, e.Name()))
	}
	if os.Geteuid() == 0 {
		if out, err := exec.Command("chattr", append([]string{"+i"}, paths...)...).CombinedOutput(); err != nil {
			t.Skipf("cannot make a read-only directory as root here (chattr: %v %s)", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("chattr", append([]string{"-i"}, paths...)...).Run() })
	} else {
		for _, p := range paths[1:] {
			if err := os.Chmod(p, 0o444); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
	}
	out, errs, code := c.run("", "run", "When does the nightly backup run?")
	if code != 0 || !strings.Contains(out, "02:30") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
}
