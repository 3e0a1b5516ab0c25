package nodes

import (
	"testing"

	"github.com/graphrag/graphrag"
)

// The asker's own wording (how a thing is framed, the verb asking who made
// it, a name the files put in a file name) is not a constraint the best
// passage must spell out: measured with it missing, a well-matched
// question looks unanswered and abstains.
func TestAskersWordingIsNotMissing(t *testing.T) {
	t.Run("a manner adverb weighs as an everyday word", func(t *testing.T) {
		for _, w := range []string{"automatically", "previously", "recursively", "repeatedly"} {
			if !mannerAdverb(w) {
				t.Errorf("mannerAdverb(%q) = false, want an adverb", w)
			}
		}
		for _, w := range []string{"family", "apply", "assembly", "anomaly", "only", "fully"} {
			if mannerAdverb(w) {
				t.Errorf("mannerAdverb(%q) = true, want no adverb", w)
			}
		}
		for _, tm := range contentTerms("does quuxd rotate its logs automatically") {
			if tm.Word == "automatically" && tm.specific() {
				t.Errorf("automatically weighs %.2f: want an everyday word, under 1", tm.Weight)
			}
		}
	})

	t.Run("a file name's parts are words of its passage", func(t *testing.T) {
		notes := fileHit("/usr/share/doc/quuxd/README.Zephyr", "txt", "quuxd rotates its logs once a week; set ROTATE=daily in /etc/default/quuxd to rotate daily.")
		ev := measureQuestion("how often does Zephyr rotate the quuxd logs", contentTerms("how often does Zephyr rotate the quuxd logs"), []graphrag.Hit{notes}, evidenceHits)
		if containsWord(ev.Missing, "zephyr") {
			t.Errorf("missing %v: README.Zephyr is about Zephyr", ev.Missing)
		}
	})

	t.Run("who made a work is met by the passage naming its author", func(t *testing.T) {
		q := "who wrote the quuxd daemon"
		stanza := fileHit("/usr/share/doc/quuxd/copyright", "txt", "Comment: quuxd, a log rotation daemon.\nFiles: *\nCopyright: 1994, Imogen Partridge.\nLicense: BSD-3-clause")
		noName := fileHit("/usr/share/doc/quuxd/README", "txt", "quuxd is a small log rotation daemon. Send bug reports to the list.")
		ev := measureQuestion(q, contentTerms(q), []graphrag.Hit{stanza}, evidenceHits)
		if len(ev.Missing) > 0 {
			t.Errorf("missing %v: the copyright stanza names who wrote the quuxd daemon", ev.Missing)
		}
		if ev := measureQuestion(q, contentTerms(q), []graphrag.Hit{noName}, evidenceHits); len(ev.Missing) == 0 {
			t.Errorf("a passage naming nobody holds every word of %q: want wrote missing", q)
		}
		// Not an author question: the verb is matched as written.
		q = "what does quuxd do with the logs it wrote"
		if ev := measureQuestion(q, contentTerms(q), []graphrag.Hit{stanza}, evidenceHits); !containsWord(ev.Missing, "wrote") {
			t.Errorf("missing %v: the stanza does not say what quuxd wrote", ev.Missing)
		}
	})
}

func containsWord(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}
