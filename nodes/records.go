package nodes

import (
	"path"
	"strings"

	"github.com/graphrag/graphrag"
)

// A package keeps who made it, and on what terms, in files named for
// that: Debian's copyright file, an AUTHORS or CREDITS file, a LICENSE or
// COPYING file. A question asking who wrote or maintains a thing, or under
// which licence it is, is answered by the thing's own such file first:
// its changelog names many people (who packaged a release, who reported
// a bug), its record names the authors and the licence.

// authorshipRecords are the base names (lower case, without extensions)
// of the files that record who made a work; agentCue reads the same words
// as a field or heading in a passage.
var authorshipRecords = toSet(`copyright authors author credits maintainers contributors`)

// licenceRecords are those of the files that record a work's licence.
var licenceRecords = toSet(`copyright license licence licenses licences copying`)

// recordBase is a path's file name lower-cased, without its extensions:
// "AUTHORS.md" and "copyright" are "authors" and "copyright".
func recordBase(p string) string {
	b := strings.ToLower(path.Base(p))
	if i := strings.IndexByte(b, '.'); i > 0 {
		b = b[:i]
	}
	return b
}

// asksRecord reports whether a hit's file is the record that answers a
// question for the author of a thing (asksForName and asksAuthor) or under
// which licence it is (asksLicence).
func asksRecord(question, p string) bool {
	base := recordBase(p)
	switch {
	case authorshipRecords[base] && asksForName(question) && asksAuthor(question):
		return true
	case licenceRecords[base] && asksLicence(question):
		return true
	}
	return false
}

// recordHit is asksRecord for a hit: its file, or its section, headed as
// a record ("AUTHOR" of a manual page, "Authors" of a README: see
// sectionName) of who made what the document is about.
func recordHit(question string, h graphrag.Hit) bool {
	return asksRecord(question, h.Source.Path) || asksRecord(question, sectionName(h.Chunk.Heading))
}

// sectionName is the last part of a passage's heading path ("Authors" of
// "zorp > Credits > Authors"), as the name of a record.
func sectionName(heading string) string {
	if i := strings.LastIndex(heading, ">"); i >= 0 {
		heading = heading[i+1:]
	}
	return strings.TrimSpace(heading)
}
