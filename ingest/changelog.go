package ingest

import (
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
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
// is left as it is: the pipeline reads each release line in a passage as
// the heading of the entries after it.

// isDebianChangelog reports whether body is a Debian changelog: its first
// non-blank line opens an entry.
func isDebianChangelog(body string) bool {
	for len(body) > 0 {
		line, rest, _ := strings.Cut(body, "\n")
		if strings.TrimSpace(line) != "" {
			return text.ChangelogRelease.MatchString(line)
		}
		body = rest
	}
	return false
}

// headChangelogChunks heads each chunk of a Debian changelog (body) that
// writes no release line by the release line of the entry its first line
// (StartLine) is in. A chunk without line numbers keeps its heading.
func headChangelogChunks(body string, chunks []graphrag.Chunk) {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	// opened[i] is the last line at or before line i (0-based) that opens
	// an entry; -1 before the first.
	opened := make([]int, len(lines))
	last := -1
	for i, l := range lines {
		if text.ChangelogRelease.MatchString(l) {
			last = i
		}
		opened[i] = last
	}
	for k, c := range chunks {
		first, end := c.StartLine-1, c.EndLine-1
		if first < 0 || end < first || end >= len(lines) {
			continue
		}
		// The entry the chunk starts in, when no other opens inside it
		// (the chunk writes no release line of its own).
		if at := opened[first]; at >= 0 && at < first && opened[end] == at {
			chunks[k].Heading = strings.TrimSpace(lines[at])
		}
	}
}
