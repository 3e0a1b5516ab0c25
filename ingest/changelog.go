package ingest

import (
	"regexp"
	"strings"

	"github.com/graphrag/graphrag"
)

// This file reads Debian's changelogs (deb-changelog(5)):
// /usr/share/doc/*/changelog.Debian.gz and NEWS.Debian.gz on a Debian
// system. Such a file is entries, newest first, each opened by the line
// that names its release ("zorp (3.4.1-2) bookworm; urgency=medium") and
// closed by its maintainer's trailer. A long entry (a kernel's stable
// update lists hundreds of fixes) is cut into several chunks, and those
// after the first never write the release they belong to: asked which CVE
// goes with a fix in zorp 3.4.1-2, the passage with the fix does not say
// 3.4.1-2. Such a chunk is headed by the release line of the entry its
// first line is in, as a chunk of a Markdown file is by the heading above
// it. A chunk that writes a release line has its releases in its text and
// is left as it is: there the units after each line are that release's
// (see the nodes package's release headings).

// changelogEntry matches the line that opens an entry of a Debian
// changelog: "package (version) distribution(s); urgency=…".
var changelogEntry = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]* \([^()\s]+\) [^;]+; *urgency=\w+`)

// isDebianChangelog reports whether text is a Debian changelog: its first
// non-blank line opens an entry.
func isDebianChangelog(text string) bool {
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		if strings.TrimSpace(line) != "" {
			return changelogEntry.MatchString(line)
		}
		text = rest
	}
	return false
}

// headChangelogChunks heads each chunk of a Debian changelog's text that
// writes no release line by the release line of the entry its first line
// (StartLine) is in. A chunk without a line number keeps its heading.
func headChangelogChunks(text string, chunks []graphrag.Chunk) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	// release[i] is the release line in force at line i (0-based).
	release := make([]string, len(lines))
	current := ""
	for i, l := range lines {
		if changelogEntry.MatchString(l) {
			current = strings.TrimSpace(l)
		}
		release[i] = current
	}
	for k, c := range chunks {
		if at := c.StartLine - 1; at >= 0 && at < len(release) && release[at] != "" && !writesRelease(c.Text) {
			chunks[k].Heading = release[at]
		}
	}
}

// writesRelease reports whether a chunk's text holds a line that opens an
// entry.
func writesRelease(text string) bool {
	for l := range strings.SplitSeq(text, "\n") {
		if changelogEntry.MatchString(l) {
			return true
		}
	}
	return false
}
