package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestVersionQuestionKeepsReleaseLine: asked which release fixed
// something, a changelog's entry is quoted under its release line, which
// holds the version; asked what the fix was, the entry alone.
func TestVersionQuestionKeepsReleaseLine(t *testing.T) {
	log := fileHit("/usr/share/doc/frobnicate/changelog.Debian.gz", "", "frobnicate (2.4-1) unstable; urgency=medium\n\n"+
		"  * New upstream release.\n  * Fix a crash when the spool directory is missing (Closes: #700001)\n\n"+
		" -- Ada Quill <ada@example.org>  Mon, 02 Jan 2023 10:00:00 +0100\n\n"+
		"frobnicate (2.3-2) unstable; urgency=low\n\n  * Update the watch file.\n")
	a := extractive("in which version of frobnicate was the crash with a missing spool directory fixed", []graphrag.Hit{log}, 1)
	if !strings.Contains(a.Text, "frobnicate (2.4-1) unstable; urgency=medium\n- Fix a crash when the spool directory is missing") {
		t.Errorf("answer:\n%s\nwant the entry under its release line", a.Text)
	}
	a = extractive("how was the crash with a missing spool directory in frobnicate fixed", []graphrag.Hit{log}, 1)
	if strings.Contains(a.Text, "(2.4-1)") || !strings.Contains(a.Text, "Fix a crash") {
		t.Errorf("answer:\n%s\nwant the entry alone", a.Text)
	}
}
