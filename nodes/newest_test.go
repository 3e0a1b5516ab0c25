package nodes

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// changelogStore is a store of Debian changelogs cut in passages as ingest
// cuts a long one, with their lines: each file's entries, newest first.
func changelogStore(t *testing.T, files map[string][]string) *sqlite.Store {
	t.Helper()
	var recs []graphrag.Record
	for path, entries := range files {
		rec := fileRecord(path)
		line := 1
		for i, e := range entries {
			n := strings.Count(e, "\n") + 1
			rec.Chunks = append(rec.Chunks, graphrag.Chunk{ID: graphrag.ChunkID(path, i), DocID: path, Ordinal: i, Text: e, StartLine: line, EndLine: line + n - 1})
			line += n + 1
		}
		recs = append(recs, rec)
	}
	return recordStore(t, recs)
}

// zorpdChangelog is a changelog whose newest entry holds none of the words
// a question about the installed version asks with, and whose older
// entries hold many.
func zorpdChangelog() []string {
	entries := []string{"zorpd (3.4.1-2) bookworm; urgency=medium\n\n  * Upload to bookworm.\n\n -- Cy Young <cy@example.org>  Mon, 21 Nov 2022 04:51:57 -0500"}
	for v := 20; v > 6; v-- {
		entries = append(entries, fmt.Sprintf("zorpd (3.%d-1) unstable; urgency=low\n\n  * New upstream version of zorpd: the zorpd version installed now\n    checks the zorpd release it upgrades from.\n\n -- Ann Smith <ann@example.org>  Mon, 3 Jan 2022 10:00:00 +0100", v/10))
	}
	return entries
}

// TestTheInstalledReleaseIsTheChangelogsFirst: asked which version of a
// package is installed, graphrag answers with the newest release of its
// changelog, the first line of the file, which the search ranks below the
// older entries that hold the question's words; a copy of the changelog
// in another binary package's folder is named with it. The first entry of
// a NEWS.Debian file, written in the same form, is the newest news, not
// the release installed. Who maintains the package signs that release.
func TestTheInstalledReleaseIsTheChangelogsFirst(t *testing.T) {
	log := zorpdChangelog()
	st := changelogStore(t, map[string][]string{
		"/doc/zorpd/changelog.Debian.gz":    log,
		"/doc/libzorp7/changelog.Debian.gz": log,
		"/doc/zorpd/NEWS.Debian.gz":         {"zorpd (3.0-1) unstable; urgency=medium\n\n  The installed zorpd version now reads its configuration from /etc/zorpd.d.\n\n -- Ann Smith <ann@example.org>  Mon, 3 Jan 2022 10:00:00 +0100"},
		"/doc/quuxd/README.Debian":          {"quuxd for Debian\n\nquuxd is packaged here for any machine that runs the upstream daemon."},
		"/doc/quuxd/changelog.Debian.gz": {"quuxd (2.0-1) unstable; urgency=low\n\n  * New upstream release.\n\n -- Bo Li <bo@example.org>  Tue, 4 Jan 2022 10:00:00 +0100",
			"quuxd (1.5-1) unstable; urgency=low\n\n  * New maintainer.\n\n -- Bo Li <bo@example.org>  Tue, 4 Jan 2021 10:00:00 +0100"},
		"/doc/quuxd/NEWS.Debian.gz": {"quuxd (1.5-1) unstable; urgency=medium\n\n  The installed quuxd version now reads its configuration from /etc/quuxd.d.\n\n -- Bo Li <bo@example.org>  Tue, 4 Jan 2021 10:00:00 +0100"},
	})
	r, err := Build(Deps{Searcher: st}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"Which zorpd version do I have installed?":                            "- zorpd (3.4.1-2)",
		"which upstream zorpd release is packaged here":                       "- zorpd (3.4.1-2)",
		"What is the exact Debian version of the installed libzorp7 package?": "- zorpd (3.4.1-2)",
		"Which quuxd version is installed here?":                              "- quuxd (2.0-1)",
		"Who maintains the zorpd package in Debian?":                          "- zorpd (3.4.1-2)",
	} {
		s, err := r.Invoke(context.Background(), State{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if s.Answer.Abstained || len(s.Answer.Citations) == 0 {
			t.Errorf("%q: answer %q (%s), want the newest release", q, s.Answer.Text, s.Measured)
			continue
		}
		c := s.Answer.Citations[0].Hit
		files := citedFiles(c)
		if strings.Contains(q, "maintains") && !strings.Contains(s.Answer.Text, "Cy Young") {
			t.Errorf("%q: answer %q, want the newest release's signer", q, s.Answer.Text)
		}
		if !strings.HasPrefix(s.Answer.Text, want) || c.Chunk.Ordinal != 0 || strings.Contains(want, "zorpd") && len(files) != 2 {
			t.Errorf("%q: answer %q first cites %s#%d, copies %v; want the newest release, in both files", q, s.Answer.Text, c.Source.Path, c.Chunk.Ordinal, files)
		}
	}
}

func TestAsksNewestRelease(t *testing.T) {
	for q, want := range map[string]bool{
		"Which CVE did the latest zorpd security update fix?":       true,
		"Who maintains the zorpd package in Debian?":                true,
		"who is the Debian maintainer of zorpd":                     false, // "who is" asks for a role
		"Who are zorpd's maintainers in Debian?":                    false,
		"Who maintains zorpd upstream?":                             false, // the project's, not Debian's
		"Who maintains zorpd?":                                      false, // the project's, or Debian's
		"Who maintained the zorpd package in Debian before 2.0?":    false, // a release of the past
		"Who took over maintenance of the zorpd package in Debian?": false,
		"How do I update the zorpd package installed here?":         false, // asks for steps
		"What's the newest zorpd upload?":                           true,
		"Which zorpd version do I have?":                            true,
		"Which zorpd version fixed the frob crash?":                 false,
	} {
		if got := asksNewestRelease(q); got != want {
			t.Errorf("asksNewestRelease(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestAsksInstalledRelease(t *testing.T) {
	for q, want := range map[string]bool{
		"Which zorpd version is installed on this machine?":                 true,
		"which upstream zorpd release is packaged here":                     true,
		"What changed in the most recent zorpd upload?":                     true,
		"Which zorpd version do I have?":                                    true,
		"Which zorpd version fixed the frob crash?":                         false, // a release of the past
		"Is zorpd 3.4 the version installed here?":                          false, // names the release
		"Which installed program reads /etc/zorpd.conf?":                    false, // asks no release
		"What does the installed-versions action of pg_zorp do?":            false,
		"Since which zorpd revision does the current frob setting exist?":   true,
		"Which Debian version of zorpd is shipped in the bookworm release?": false,
	} {
		if got := asksInstalledRelease(q); got != want {
			t.Errorf("asksInstalledRelease(%q) = %v, want %v", q, got, want)
		}
	}
}
