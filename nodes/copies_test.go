package nodes

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestACitationNamesTheCopiesOfItsText: two packages built from one source
// ship the same changelog entry; which of them the search ranks first is
// chance, so the citation of the entry names the other file too.
func TestACitationNamesTheCopiesOfItsText(t *testing.T) {
	entry := "zorpkit (2.4-1) unstable; urgency=medium\n\n  * Fix the frobnicator crash on empty input (Closes: #424242).\n"
	st := docStore(t, map[string]string{
		"/doc/zorpkit/changelog":     entry,
		"/doc/libzorpkit3/changelog": entry,
		"/doc/quuxd/changelog":       "quuxd (1.0-2) unstable; urgency=low\n\n  * New maintainer.\n",
	}, nil)
	s, files := firstCitedFiles(t, st, "which zorpkit release fixed the frobnicator crash on empty input?", "2.4-1")
	if want := []string{"/doc/libzorpkit3/changelog", "/doc/zorpkit/changelog"}; !slices.Equal(files, want) {
		t.Errorf("answer %q cites %v; want the entry with both files", s.Answer.Text, files)
	}
}

// TestWithCopiesLeavesOtherHitsAlone: a hit's own document is no copy,
// nor is a hit of other text, and a document is named once. The hits it
// was given (the searcher's slice) are left as they were.
func TestWithCopiesLeavesOtherHitsAlone(t *testing.T) {
	a, b := doc("a", "a", "same words"), doc("b", "b", "same words")
	other := doc("c", "c", "other words")
	again := doc("a", "a", "same words")
	again.Chunk.ID = graphrag.ChunkID("a", 3)
	in := []graphrag.Hit{a, other, b, again}
	hits := withCopies(in)
	if slices.ContainsFunc(in, func(h graphrag.Hit) bool { return len(h.Copies) > 0 }) {
		t.Errorf("the searcher's hits were written to: %+v", in)
	}
	if len(hits) != 4 || len(hits[1].Copies) != 0 {
		t.Fatalf("hits %+v", hits)
	}
	for i, want := range [][]string{{"/notes/b.md"}, nil, {"/notes/a.md"}, {"/notes/b.md"}} {
		var got []string
		for _, c := range hits[i].Copies {
			got = append(got, c.Path)
		}
		if !slices.Equal(got, want) {
			t.Errorf("hit %d copies %v, want %v", i, got, want)
		}
	}
}

// TestACitationNamesTheFilesThatHoldItsQuote: three packages built from
// one source ship a changelog whose newest entry is the same and whose
// last lines differ, so no two passages are the same text; the citation
// of the entry names the two other files, which hold every line it
// quotes. A file that holds only some of them does not.
func TestACitationNamesTheFilesThatHoldItsQuote(t *testing.T) {
	entry := "zorpkit (2.4-1) unstable; urgency=medium\n\n  * Fix the frobnicator crash on empty input (Closes: #424242).\n  * Bump the quuxlevel to 13.\n\n -- Wendla Ostrova <wendla@example.org>  Mon, 02 Jan 2023 10:00:00 +0100\n\n"
	older := "zorpkit (2.3-1) unstable; urgency=low\n\n  * New upstream release.\n\n -- Wendla Ostrova <wendla@example.org>  Sun, 01 Jan 2023 09:00:00 +0100\n"
	st := docStore(t, map[string]string{
		"/doc/zorpkit/changelog.Debian":     entry + older + "\n# For older changelog entries, run 'apt-get changelog zorpkit'\n",
		"/doc/libzorpkit3/changelog.Debian": entry + older + "\n# For older changelog entries, run 'apt-get changelog libzorpkit3'\n",
		"/doc/zorpkit-dev/changelog.Debian": entry + older + "\n# For older changelog entries, run 'apt-get changelog zorpkit-dev'\n",
		"/doc/quuxd/changelog.Debian":       "zorpkit (2.4-1) unstable; urgency=medium\n\n  * Fix the frobnicator crash on empty input (Closes: #424242).\n\n -- Someone Else <else@example.org>  Tue, 03 Jan 2023 11:00:00 +0100\n",
	}, nil)
	s, files := firstCitedFiles(t, st, "who maintains zorpkit in debian", "Wendla Ostrova")
	if want := []string{"/doc/libzorpkit3/changelog.Debian", "/doc/zorpkit-dev/changelog.Debian", "/doc/zorpkit/changelog.Debian"}; !slices.Equal(files, want) {
		t.Errorf("answer %q cites %v; want the three packages' changelogs", s.Answer.Text, files)
	}
}

// TestAShortQuoteNamesNoCopies: a quote of fewer than minCopyWords words
// ("Default: off.") stands in many unrelated pages, which are not named
// as its copies; a longer one held by another passage, in other spacing
// and punctuation, is.
func TestAShortQuoteNamesNoCopies(t *testing.T) {
	kept := []graphrag.Hit{
		doc("a", "a", "Default: off. The quux spool keeps sealed stacks for thirty days, then drops them."),
		doc("b", "b", "Default: off.\nThe quux spool keeps sealed stacks for thirty days -- then drops them!"),
	}
	for _, tt := range []struct {
		quote string
		want  int
	}{
		{"Default: off.", 0},
		{"The quux spool keeps sealed stacks for thirty days, then drops them.", 1},
	} {
		cites := []graphrag.Citation{{N: 1, Hit: kept[0], Quote: tt.quote}}
		got := withQuotedCopies(cites, []candidate{{text: tt.quote, hit: 0}}, kept)
		if n := len(got[0].Hit.Copies); n != tt.want || n > 0 && got[0].Hit.Copies[0].DocID != "b" {
			t.Errorf("%q: copies %+v, want %d", tt.quote, got[0].Hit.Copies, tt.want)
		}
	}
}

// firstCitedFiles asks the question of the store and returns the run and
// the files its first citation names, its own and its copies', sorted; it
// stops the test unless the answer cites a passage that holds want.
func firstCitedFiles(t *testing.T, st Searcher, question, want string) (State, []string) {
	t.Helper()
	r, err := Build(Deps{Searcher: st}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), State{Query: question})
	if err != nil {
		t.Fatal(err)
	}
	if s.Answer.Abstained || len(s.Answer.Citations) == 0 || !strings.Contains(s.Answer.Text, want) {
		t.Fatalf("answer %q (%s): the test needs the passage holding %q cited", s.Answer.Text, s.Measured, want)
	}
	files := citedFiles(s.Answer.Citations[0].Hit)
	slices.Sort(files)
	return s, files
}

// citedFiles are the files a citation of h names: its own and its copies'.
func citedFiles(h graphrag.Hit) []string {
	files := []string{h.Source.Path}
	for _, cp := range h.Copies {
		files = append(files, cp.Path)
	}
	return files
}
