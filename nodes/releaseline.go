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
// asks who (asksForName) and neither the entry nor a chosen unit of
// another kind names anyone: asked who added frob support to zorp, the
// entry ("* Add frob support.") says what was done and its trailer who
// did it. Another entry naming someone ("Thanks, Ann Smith!") does not
// name this one's maker. An entry of a release several people made also
// gets the name of the section it is in ("[ Ann Smith ]", see
// changelogSection), in front: she made it, whoever signed the release.
// An entry of the release the question names gets them whoever else is
// named: asked who packaged zorp 3.4.1, the copyright holder another
// quote names did not. Both are looked up under the entry's release line
// in the hit; a passage cut before the trailer adds only the section's
// name.
func withSigners(query string, chosen []candidate, kept []graphrag.Hit) {
	if !asksForName(query) {
		return
	}
	entry := func(c candidate) bool { return !c.unit.code && releaseHeading(c.unit.heading) }
	named := slices.ContainsFunc(chosen, func(c candidate) bool { return c.name && !entry(c) })
	for k, c := range chosen {
		if !entry(c) || (named || c.name) && c.release <= 0 {
			continue
		}
		text := kept[c.hit].Chunk.Text
		at := strings.Index(text, c.unit.heading)
		if at < 0 {
			continue
		}
		// Every entry closes with its trailer: the first after the
		// release's line is its own. A passage cut before it holds the
		// rest of the release, and the section the entry is in names its
		// maker all the same.
		release, trailer := text[at:], ""
		if m := changelogTrailer.FindStringIndex(release); m != nil {
			release, trailer = release[:m[0]], strings.TrimSpace(release[m[0]:m[1]])
		}
		who := sectionMaker(release, c.text)
		if trailer == "" && who == "" {
			continue
		}
		t := c.text
		if who != "" {
			t = "[ " + who + " ] " + t
		}
		if trailer != "" {
			t += "\n" + trailer
		}
		chosen[k].text = t
		chosen[k].name = true
	}
}

// changelogSection finds the line that opens a part of a Debian changelog
// release one person made, in a release several made ("  [ Ann Smith ]",
// as dch's multi-maintainer mode writes it): the entries under it, up to
// the next such line, are hers.
var changelogSection = regexp.MustCompile(`(?m)^[ \t]+\[ ([^\]\n]+?) \][ \t]*$`)

// sectionEntryWords is how many of an entry's first words find it in its
// release: enough to tell it from its neighbours, few enough to stay on
// its first line.
const sectionEntryWords = 4

// sectionMaker is the name on the last section line (changelogSection) of
// a release's text before the entry that starts with entry's words; ""
// when the release has none before it or the entry is not found.
func sectionMaker(release, entry string) string {
	words := strings.Fields(entry)
	if len(words) == 0 {
		return ""
	}
	words = words[:min(len(words), sectionEntryWords)]
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	loc := regexp.MustCompile(strings.Join(words, `\s+`)).FindStringIndex(release)
	if loc == nil {
		return ""
	}
	ms := changelogSection.FindAllStringSubmatch(release[:loc[0]], -1)
	if len(ms) == 0 {
		return ""
	}
	return ms[len(ms)-1][1]
}
