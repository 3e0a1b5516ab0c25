package nodes

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// A question's hyphenated word is found in a passage holding its parts,
// and an inflected word in one holding another form of it.
func TestEvidenceFindsWordsByPartsAndLooseForms(t *testing.T) {
	q := "zorp deep-clean deleted my old snapshots, how do I keep them"
	hits := []graphrag.Hit{
		fileHit("/doc/zorp/NEWS", "", "zorp {quick,deep}-clean now deletes snapshots older than a week. Set Zorp::Clean::KeepSnapshots to true to keep them."),
	}
	ev := measureEvidence(contentTerms(q), hits, evidenceHits)
	for _, w := range []string{"deep-clean", "deleted"} {
		if slices.Contains(ev.Missing, w) {
			t.Errorf("evidence misses %q (missing %v), which the passage holds", w, ev.Missing)
		}
	}
	// Both parts are needed.
	ev = measureEvidence(contentTerms("what does zorp half-clean do"), hits, evidenceHits)
	if !slices.Contains(ev.Missing, "half-clean") {
		t.Errorf("half-clean found (missing %v): the passage has clean but not half", ev.Missing)
	}
}

// TestIAndItsContractionsNameNothing: "I" is written with a capital, and
// so are "I'm", "I've", "I'd" and "I'll": function words, not names a
// passage must hold.
func TestIAndItsContractionsNameNothing(t *testing.T) {
	for _, q := range []string{
		"which setting tells me whether the role I'm connected as is a superuser",
		"the cache is stale although I've flushed it and I'll restart the daemon",
	} {
		for _, term := range contentTerms(q) {
			if strings.HasPrefix(term.Word, "i'") {
				t.Errorf("%q: %q is a term (weight %.2f)", q, term.Word, term.Weight)
			}
		}
	}
}

// A question that names a file's folder (its package) or the file itself
// is matched by that file's passages, though their text never writes the
// name: /doc/libzorp0d/README is about libzorp0d.
func TestEvidenceFindsTheNameOfTheFilesFolder(t *testing.T) {
	hits := []graphrag.Hit{fileHit("/usr/share/doc/libzorp0d/README.Debian", "", "The shared library is built by Debian from the upstream sources; upstream ships only a static one.")}
	ev := measureEvidence(contentTerms("Is the libzorp0d shared library built by upstream?"), hits, evidenceHits)
	if slices.Contains(ev.Missing, "libzorp0d") {
		t.Errorf("evidence misses libzorp0d (missing %v), the folder of the file", ev.Missing)
	}
	// A product's short name is held by the pages installed under its
	// folder ("zorpgres" of /usr/share/zorpgresql/15/…), as folderOf reads it.
	page := []graphrag.Hit{fileHit("/usr/share/zorpgresql/15/man/man7/CREATE_FROB.7.gz", "gz", "The name of the frob to be defined.")}
	if ev := measureEvidence(contentTerms("Is => allowed as a frob name in Zorpgres?"), page, evidenceHits); slices.Contains(ev.Missing, "zorpgres") {
		t.Errorf("evidence misses zorpgres (missing %v), the product its pages are installed under", ev.Missing)
	}
	ev = measureEvidence(contentTerms("Is the libfrob2 shared library built by upstream?"), hits, evidenceHits)
	if !slices.Contains(ev.Missing, "libfrob2") {
		t.Errorf("libfrob2 found (missing %v): no passage, title or folder names it", ev.Missing)
	}
}

// TestFieldLabelNamesItsWords: a field's hyphenated label holds its words
// ("Upstream-Contact:" the contact), though a hyphenated name elsewhere
// in the text is not split.
func TestFieldLabelNamesItsWords(t *testing.T) {
	hits := []graphrag.Hit{fileHit("/doc/zorpd/copyright", "", "Upstream-Name: zorpd\nUpstream-Contact: Ann Quill <ann@example.org>\n\nFiles: *\nCopyright: 2020 Ann Quill\nLicense: frob-licence")}
	ev := measureEvidence(contentTerms("who is the contact for zorpd"), hits, evidenceHits)
	if slices.Contains(ev.Missing, "contact") {
		t.Errorf("evidence misses contact (missing %v), which the field's label holds", ev.Missing)
	}
	ev = measureEvidence(contentTerms("which frob does zorpd use"), hits, evidenceHits)
	if !slices.Contains(ev.Missing, "frob") {
		t.Errorf("frob found (missing %v): only the name frob-licence holds it", ev.Missing)
	}
}
