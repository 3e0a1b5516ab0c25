package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestAFolderNamedAsDebianPackagesANameIsOfIt: a question that writes a
// library's exact name ("libQuux") asks about the files of the folder
// Debian names after it, though the folder adds the library's soname
// ("libquux7/"): its units are chosen before another package's that say
// as much.
func TestAFolderNamedAsDebianPackagesANameIsOfIt(t *testing.T) {
	other := fileHit("/usr/share/doc/frobnik/README", "", "Bugs may be reported by e-mail to frobnik-bugs@example.org without an account.")
	own := fileHit("/usr/share/doc/libquux7/README", "", "Bugs may be reported by e-mail to quux-bugs@example.org without an account.")
	a := extractive("Without a tracker account, which e-mail address takes bug reports for libQuux?", []graphrag.Hit{other, own}, 1)
	if !strings.Contains(a.Text, "quux-bugs@example.org") {
		t.Errorf("answer:\n%s\nwant libquux7's address", a.Text)
	}
}
