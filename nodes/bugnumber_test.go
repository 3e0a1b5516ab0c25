package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// Asked which bug a change closed, the answer is the changelog entry that
// names the bug ("Closes: #…"), not the entries that share more of the
// question's words.
func TestBugNumberIsAnswered(t *testing.T) {
	newer := fileHit("/usr/share/doc/libzorp-perl/changelog.Debian.gz", "gz", strings.Join([]string{
		"libzorp-perl (6.07-1) unstable; urgency=medium",
		"",
		"  * Import upstream version 6.07.",
		"  * Drop Spool.pm-die-if-close-on-fh-in-save-fails.patch which was taken from the upstream Git repo.",
		"",
		" -- Ann Smith <ann@example.org>  Mon, 01 Mar 2021 10:00:00 +0100",
	}, "\n"))
	older := fileHit("/usr/share/doc/libzorp-perl/changelog.Debian.gz", "gz", strings.Join([]string{
		"libzorp-perl (6.04-2) unstable; urgency=medium",
		"",
		"  [ Bob Jones ]",
		"  * debian/control: Use HTTPS transport protocol for Vcs-Git URI",
		"  * Declare compliance with Debian policy 4.1.1",
		"",
		"  [ Ann Smith ]",
		"  * Update Vcs-* headers for switch to salsa.debian.org",
		"  * Spool.pm: die if close on $fh in ->save fails (Closes: #712345)",
		"  * Set Rules-Requires-Root to no",
		"",
		" -- Ann Smith <ann@example.org>  Mon, 01 Feb 2021 10:00:00 +0100",
	}, "\n"))
	older.Chunk.ID = graphrag.ChunkID(older.Source.Path, 1)
	a := extractive("libzorp-perl: Spool->save silently ignored failures when closing the file. Which Debian bug number got closed by making it die?", []graphrag.Hit{newer, older}, 3)
	if !strings.Contains(a.Text, "#712345") {
		t.Errorf("the answer misses the bug closed:\n%s", a.Text)
	}
}
