package nodes

import "strings"

// This file keeps a changelog entry with the line of the release it is
// under: the entry ("* Fix a crash in the parser (Closes: #123456)") says
// what changed, the release line when and in which version, which "which
// version fixed the crash", "when did it get support for X" and any
// reader of the entry want to know. It was first done only for questions
// asking "which version"; on the tuning sets of the real-documents
// benchmark a question asking "which revision" or "when" missed it.

// withReleaseLines puts the line of the release each chosen entry of a
// changelog or NEWS file is under above the entry, when neither the entry
// nor the question names its release's version (asked what jq
// 1.6-2.1+deb12u1 fixed, the reader knows which release it is): the
// heading and the entry are shown as a lead-in with its item.
func withReleaseLines(query string, chosen []candidate) {
	for k, c := range chosen {
		h := c.unit.heading
		if c.unit.code || c.unit.lead || !releaseHeading(h) {
			continue
		}
		v := releaseVersion.FindString(h)
		if v == "" || strings.Contains(c.text, v) || strings.Contains(query, v) {
			continue
		}
		chosen[k].text = h + "\n- " + c.text
		chosen[k].unit.lead = true
	}
}
