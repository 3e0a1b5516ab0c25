//go:build linux || darwin || freebsd || netbsd || openbsd

package unprivileged

import (
	"os"
	"testing"
)

func TestRerunDropsRoot(t *testing.T) {
	if Rerun(t) {
		return
	}
	if os.Getenv(envChild) != "" && os.Geteuid() == 0 {
		t.Fatal("the rerun still runs as root")
	}
}

func TestRunPattern(t *testing.T) {
	for name, want := range map[string]string{
		"TestX":               "^TestX$",
		"TestX/a_b":           "^TestX$/^a_b$",
		"TestX/links_(1)/x.y": `^TestX$/^links_\(1\)$/^x\.y$`,
	} {
		if got := runPattern(name); got != want {
			t.Errorf("runPattern(%q) = %q, want %q", name, got, want)
		}
	}
}
