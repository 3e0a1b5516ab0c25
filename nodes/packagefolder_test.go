package nodes

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// The README or changelog of a package no file is of is not in the files,
// however well another package's passages match the rest of the question;
// a package's folder may hold its name in a longer one ("libfrob2" for
// frob) or without its punctuation ("zorpjs" for Zorp.js), and a word that
// says which document is meant ("upstream") names no package.
func TestDocumentOfAPackageWithoutFiles(t *testing.T) {
	texts := map[string]string{
		"/usr/share/doc/zorpd/README.Debian":          "The zorpd spool directory is /var/spool/zorpd. Keep the spool directory on a local disk.",
		"/usr/share/doc/libfrob2/changelog.Debian.gz": "libfrob2 (2.1-1) unstable; urgency=medium\n\n  * Move the spool directory to /var/spool/frob.",
		"/usr/share/doc/quill/README":                 "Quill keeps its spool directory under /var/spool/quill.",
		"/usr/share/doc/zorpjs/changelog.Debian.gz":   "zorpjs (18.1-1) unstable; urgency=medium\n\n  * Zorp.js keeps the spool directory in /var/spool/zorpjs.",
	}
	for _, tc := range []struct {
		question string
		absent   bool
	}{
		{"What does the wombat package's README.Debian tell us about the spool directory?", true},
		{"Where does the changelog of wombat move the spool directory?", true},
		{"What does zorpd's README.Debian tell us about the spool directory?", false},
		{"Where does the frob changelog move the spool directory?", false},
		{"What does the upstream README say about the spool directory?", false},
		// "package" and a qualifier between the package's name and its document.
		{"Where did the wombat package's Debian NEWS move the spool directory?", true},
		{"Where did the zorpd package's Debian README put the spool directory?", false},
		// "its" stands for the package named before it.
		{"Where does wombat-server keep its spool directory, according to its Debian changelog?", true},
		{"Where does the zorpd package keep the spool directory, according to its README.Debian?", false},
		// A folder may write the name without its punctuation.
		{"Where does Zorp.js keep its spool directory, according to its package changelog?", false},
	} {
		s := evaluateOver(t, texts, tc.question)
		if got := strings.Contains(s.Measured, "no file is of the package"); got != tc.absent || tc.absent && s.Retrieval != RetrievalEmpty {
			t.Errorf("%q: retrieval %s (%s), want the package absent %v", tc.question, s.Retrieval, s.Measured, tc.absent)
		}
	}
}

// evaluateOver is evaluate's judgement of question over the files texts
// holds (path to text), all of them the hits and the store.
func evaluateOver(t *testing.T, texts map[string]string, question string) State {
	t.Helper()
	var hits []graphrag.Hit
	for _, p := range slices.Sorted(maps.Keys(texts)) {
		hits = append(hits, fileHit(p, "", texts[p]))
	}
	p, _ := newPipeline(Deps{Searcher: newMemSearcher(hits)}, DefaultOptions())
	s, err := p.evaluate(context.Background(), State{Query: question, Plan: graphrag.Plan{Route: graphrag.RouteVector}, Hits: hits, Budget: Budget{Retrieve: 2}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A file Debian names alike in every package that has one (README.Debian,
// NEWS.Debian) is not in the files when the package's folder does not
// hold it, though the folder holds others that match the question.
func TestDebianFileAPackageLacks(t *testing.T) {
	texts := map[string]string{
		"/usr/share/doc/zorpd/README.Debian":       "The zorpd spool directory is /var/spool/zorpd. Keep the spool directory on a local disk.",
		"/usr/share/doc/quill/README":              "Quill keeps its spool directory under /var/spool/quill.",
		"/usr/share/doc/quill/changelog.Debian.gz": "quill (1.2-1) unstable; urgency=medium\n\n  * Keep the spool directory in /var/spool/quill.",
		"/usr/share/doc/frobd/NEWS.Debian.gz":      "frobd (3.0-1) unstable; urgency=medium\n\n  * The spool directory moved to /srv/frobd.",
		"/usr/share/doc/frobd/README":              "frobd keeps its spool directory in /srv/frobd.",
	}
	for _, tc := range []struct {
		question string
		absent   bool
	}{
		{"Which spool directory does quill's README.Debian name?", true},
		{"Is the spool directory of frobd moved, per frobd's README.Debian?", true},
		{"Which spool directory does zorpd's README.Debian name?", false},
		{"To which folder did frobd's NEWS.Debian move the spool directory?", false},
		{"Which spool directory does quill's README name?", false},
	} {
		s := evaluateOver(t, texts, tc.question)
		if got := strings.Contains(s.Measured, "no file is "); got != tc.absent || tc.absent && s.Retrieval != RetrievalEmpty {
			t.Errorf("%q: retrieval %s (%s), want the file absent %v", tc.question, s.Retrieval, s.Measured, tc.absent)
		}
	}
}
