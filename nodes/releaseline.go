package nodes

import (
	"regexp"
	"strings"
)

// This file keeps a changelog entry with the line of the release it is
// under when the question asks which release: "which version fixed the
// crash in cscope's parser" is answered by the release line, which the
// entry itself ("* Fix a crash in the parser (Closes: #123456)") does not
// hold.

// versionQuestion finds a question that asks for a version or a release:
// "which version", "in what Debian release", "which upstream version".
var versionQuestion = regexp.MustCompile(`(?i)\b(which|what)\s+(\w+\s+){0,2}(versions?|releases?)\b`)

// withReleaseLines puts the line of the release each chosen entry of a
// changelog or NEWS file is under above the entry, when the question asks
// for a version and the entry names none of its release's: the heading
// and the entry are shown as a lead-in with its item.
func withReleaseLines(query string, chosen []candidate) {
	if !versionQuestion.MatchString(query) {
		return
	}
	for k, c := range chosen {
		h := c.unit.heading
		if c.unit.code || c.unit.lead || !releaseHeading(h) {
			continue
		}
		v := releaseVersion.FindString(h)
		if v == "" || strings.Contains(c.text, v) {
			continue
		}
		chosen[k].text = h + "\n- " + c.text
		chosen[k].unit.lead = true
	}
}
