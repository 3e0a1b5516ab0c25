package nodes

import (
	"slices"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestGoFileSystem: go/build's rules for a file built for one system by
// its name alone.
func TestGoFileSystem(t *testing.T) {
	for p, want := range map[string]string{
		"src/zorp/spool_netbsd.go":        "netbsd",
		"src/zorp/spool_netbsd_test.go":   "netbsd",
		"src/zorp/spool_linux_arm64.go":   "linux",
		"src/zorp/spool_unix.go":          "",
		"src/zorp/linux.go":               "",
		"src/zorp/spool_arm64.go":         "",
		"src/zorp/spool_netbsd.c":         "",
		"/usr/share/doc/zorp/README.aix":  "",
		"src/zorp/internal/plan9_stub.go": "",
	} {
		if got := goFileSystem(p); got != want {
			t.Errorf("goFileSystem(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestAskedSystemsOwnFile: asked what zorp reads on NetBSD, the file built
// for NetBSD holds the answer though it never writes the system's name;
// it is read before its package's general file, other packages keep their
// place, and the file built for Linux is left out.
func TestAskedSystemsOwnFile(t *testing.T) {
	general := fileHit("src/zorp/spool.go", "", "// loadSpool reads the spool list from each of spoolFiles.\nfunc loadSpool() {\n\tfor _, f := range spoolFiles {\n\t\tread(f)\n\t}\n}\n")
	other := fileHit("src/frob/frob.go", "", "// Spool is the frob spool.\nvar Spool = \"/var/spool/frob\"\n")
	linux := fileHit("src/zorp/spool_linux.go", "", "func init() {\n\tspoolFiles = append(spoolFiles, \"/etc/zorp/spool.list\")\n}\n")
	own := fileHit("src/zorp/spool_netbsd.go", "", "func init() {\n\tspoolFiles = append(spoolFiles, \"/usr/pkg/etc/zorp.spool\")\n}\n")
	hits := []graphrag.Hit{other, linux, general, own}
	q := "On NetBSD, which extra spool list does the zorp package load?"
	if missing := unscoped(q, hits); len(missing) > 0 {
		t.Errorf("unscoped = %v, want the NetBSD file to hold netbsd", missing)
	}
	if missing := unscoped(q, hits[:3]); !slices.Equal(missing, []string{"netbsd"}) {
		t.Errorf("unscoped without the NetBSD file = %v, want [netbsd]", missing)
	}
	var got []string
	for _, h := range forAskedSystem(q, hits) {
		got = append(got, h.Source.Path)
	}
	if want := []string{"src/frob/frob.go", "src/zorp/spool_netbsd.go", "src/zorp/spool.go"}; !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
	if got := forAskedSystem("which extra spool list does the zorp package load?", hits); len(got) != len(hits) {
		t.Errorf("a question limited to no system kept %d of %d hits", len(got), len(hits))
	}
}
