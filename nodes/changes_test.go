package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

func TestAsksChanges(t *testing.T) {
	for q, want := range map[string]bool{
		"what changed in git 2.30.0":                   true,
		"what is new in tmux 3.3":                      true,
		"what are the changes in coreutils 9.1":        true,
		"which chmod bug was fixed in coreutils 9.1":   false, // a question about one entry
		"what library does grep -P use since grep 3.8": false,
		"what changed": false, // no release
		"what changed between git 2.30.0 and git 2.31.0": false, // two releases
	} {
		if got := asksChanges(q); got != want {
			t.Errorf("asksChanges(%q) = %v, want %v", q, got, want)
		}
	}
}

// "What changed in X" is answered by the first entries of X's notes, in
// their order, though none holds the question's words; the notes of a
// later release, which name X's version as the one they update, are not
// X's.
func TestWhatChangedQuotesTheReleaseNotes(t *testing.T) {
	notes := fileHit("/doc/git/RelNotes/2.30.0.txt", "txt", "Git 2.30 Release Notes\n======================\n\n"+
		"Updates since v2.29\n-------------------\n\nUI, Workflows & Features\n\n"+
		" * Userdiff for PHP update.\n\n * Userdiff for Rust update.\n\n * Userdiff for CSS update.\n\n"+
		" * \"git worktree list\" now shows if each worktree is locked.\n\n"+
		" * \"git diff\" family of commands learned the \"-I<regex>\" option to ignore hunks whose changed lines all match the given pattern.\n")
	later := fileHit("/doc/git/RelNotes/2.31.0.txt", "txt", "Git 2.31 Release Notes\n======================\n\n"+
		"Updates since v2.30.0\n---------------------\n\n * \"git gc\" changed: it now runs \"git maintenance\".\n")
	a := extractive("what changed in git 2.30.0", []graphrag.Hit{later, notes}, 3)
	want := "Userdiff for PHP update. [1] Userdiff for Rust update. [1] Userdiff for CSS update. [1]"
	if a.Text != want || a.Citations[0].Hit.Source.Path != notes.Source.Path {
		t.Errorf("answer:\n%s\nwant the first three entries of the 2.30 notes:\n%s", a.Text, want)
	}
	if strings.Contains(a.Text, "maintenance") {
		t.Errorf("answer quotes the 2.31 notes:\n%s", a.Text)
	}
}

// TestChangelogEntriesAreProse: a changelog writes each entry as an
// imperative ("Fix …", "Drop …", "Bump …"), a statement of what the
// release did, not a label; asked in which revision something was fixed,
// the short entry that says so is quoted with its release line, not a long
// entry that only shares the package's name.
func TestChangelogEntriesAreProse(t *testing.T) {
	for _, s := range []string{"Fix zorpd spool path (closes: #123456).", "Drop support for quill 2.", "Bump debhelper compat to 13."} {
		if !isProse(s) {
			t.Errorf("isProse(%q) = false, want true: an entry says what the release did", s)
		}
	}
	log := fileHit("/usr/share/doc/zorpd/changelog.Debian.gz", "", "zorpd (2.1-3) unstable; urgency=medium\n\n"+
		"  * Refresh the frob patches.\n  * Fix zorpd spool path (closes: #123456).\n\n"+
		" -- Ann Quill <ann@example.org>  Mon, 01 Jan 2024 10:00:00 +0000\n\n"+
		"zorpd (2.1-2) unstable; urgency=medium\n\n"+
		"  * debian/zorpd.postinst:\n    - Stop the zorpd daemon before its spool files move to the new path, so that nothing writes the old spool\n"+
		"    - Keep the zorpd daemon's spool files when the package is removed (closes: #111111).\n\n"+
		" -- Ann Quill <ann@example.org>  Sun, 01 Oct 2023 10:00:00 +0000\n")
	a := extractive("In which zorpd revision was the spool path fixed?", []graphrag.Hit{log}, 1)
	if !strings.Contains(a.Text, "2.1-3") {
		t.Errorf("answer:\n%s\nwant the entry that fixes the spool path, with its release", a.Text)
	}
}
