package nodes

import (
	"regexp"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
)

// This file keeps a changelog entry with the line of the release it is
// under: the entry ("* Fix a crash in the parser (Closes: #123456)") says
// what changed, the release line when and in which version, which "which
// version fixed the crash", "when did it get support for X" and any
// reader of the entry want to know. It was first done only for questions
// asking "which version"; on the tuning sets of the real-documents
// benchmark a question asking "which revision" or "when" missed it. Asked
// who made a change, the entry is also kept with the trailer that closes
// its release, which names the maintainer (withSigners).

// withReleaseLines puts the line of the release each chosen entry of a
// changelog or NEWS file is under above the entry, when neither the entry
// nor the question names its release's version (asked what jq
// 1.6-2.1+deb12u1 fixed, the reader knows which release it is): the
// heading and the entry are shown as a lead-in with its item. An entry
// that leads in a list of its own keeps the list indented under it.
func withReleaseLines(query string, chosen []candidate) {
	for k, c := range chosen {
		h := c.unit.heading
		if c.unit.code || !releaseHeading(h) {
			continue
		}
		v := releaseOf(h)
		if v == "" || strings.Contains(c.text, v) || strings.Contains(query, v) {
			continue
		}
		// An entry that leads in its own list keeps it under itself.
		chosen[k].text = h + "\n- " + strings.ReplaceAll(c.text, "\n", "\n  ")
		chosen[k].unit.lead = true
	}
}

// changelogTrailer finds the line that closes an entry of a Debian
// changelog (deb-changelog(5)): " -- Ann Smith <ann@example.org>  Mon, 21
// Nov 2022 04:51:57 -0500", with the maintainer who made the entry.
var changelogTrailer = regexp.MustCompile(`(?m)^ -- ([^<\n]+?)\s*<[^>\n]*>.*$`)

// withSigners adds, to each chosen entry of a Debian changelog, the line
// that closes its release with the name of who made it, when the question
// asks who (asksForName) and no chosen unit names anyone: asked who added
// frob support to zorp, the entry ("* Add frob support.") says what was
// done and its trailer who did it. An entry of the release the question
// names gets it whoever else is named: asked who packaged zorp 3.4.1,
// the copyright holder another quote names did not. The trailer is looked
// up under the entry's release line in the hit; a passage cut before it
// adds nothing.
func withSigners(query string, chosen []candidate, kept []graphrag.Hit) {
	if !asksForName(query) {
		return
	}
	named := slices.ContainsFunc(chosen, func(c candidate) bool { return c.name })
	for k, c := range chosen {
		if c.unit.code || !releaseHeading(c.unit.heading) || named && c.release <= 0 {
			continue
		}
		text := kept[c.hit].Chunk.Text
		at := strings.Index(text, c.unit.heading)
		if at < 0 {
			continue
		}
		// Every entry closes with its trailer: the first after the
		// release's line is its own.
		m := changelogTrailer.FindStringIndex(text[at:])
		if m == nil {
			continue
		}
		chosen[k].text = c.text + "\n" + strings.TrimSpace(text[at+m[0]:at+m[1]])
		chosen[k].name = true
	}
}
