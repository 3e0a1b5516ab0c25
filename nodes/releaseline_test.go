package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestChangelogEntryKeepsReleaseLine: a changelog's entry is quoted under
// its release line, which holds the version: asked which release fixed
// something, and asked what the fix was (the reader wants to know when it
// came too).
func TestChangelogEntryKeepsReleaseLine(t *testing.T) {
	log := fileHit("/usr/share/doc/frobnicate/changelog.Debian.gz", "", "frobnicate (2.4-1) unstable; urgency=medium\n\n"+
		"  * New upstream release.\n  * Fix a crash when the spool directory is missing (Closes: #700001)\n\n"+
		" -- Ada Quill <ada@example.org>  Mon, 02 Jan 2023 10:00:00 +0100\n\n"+
		"frobnicate (2.3-2) unstable; urgency=low\n\n  * Update the watch file.\n")
	a := extractive("in which version of frobnicate was the crash with a missing spool directory fixed", []graphrag.Hit{log}, 1)
	if !strings.Contains(a.Text, "frobnicate (2.4-1) unstable; urgency=medium\n- Fix a crash when the spool directory is missing") {
		t.Errorf("answer:\n%s\nwant the entry under its release line", a.Text)
	}
	a = extractive("how was the crash with a missing spool directory in frobnicate fixed", []graphrag.Hit{log}, 1)
	if !strings.Contains(a.Text, "frobnicate (2.4-1) unstable; urgency=medium\n- Fix a crash") {
		t.Errorf("answer:\n%s\nwant the entry under its release line", a.Text)
	}
}

// TestChangelogLeadInKeepsReleaseLine: an entry that leads in a list of
// its own is quoted under its release line too, its list under it.
func TestChangelogLeadInKeepsReleaseLine(t *testing.T) {
	log := fileHit("/usr/share/doc/frobnicate/changelog.Debian.gz", "", "frobnicate (2.4-1+deb12u3) bookworm; urgency=medium\n\n"+
		"  * d/p/fix-zorp-leak.patch: New patch to fix a memory leak in zorp_reset:\n    - Thanks to Ada Quill for the report\n\n"+
		" -- Bo Tranter <bo@example.org>  Mon, 02 Jan 2023 10:00:00 +0100\n")
	a := extractive("which frobnicate upload stopped zorp_reset from leaking?", []graphrag.Hit{log}, 1)
	if !strings.Contains(a.Text, "frobnicate (2.4-1+deb12u3) bookworm; urgency=medium\n- d/p/fix-zorp-leak.patch") || !strings.Contains(a.Text, "Thanks to Ada Quill") {
		t.Errorf("answer:\n%s\nwant the entry and its list under its release line", a.Text)
	}
}

// TestChangelogEntryOfOnlyTheAskedCVE: an entry that is only the CVE
// asked about says its release fixed it, though it is no sentence.
func TestChangelogEntryOfOnlyTheAskedCVE(t *testing.T) {
	log := fileHit("/usr/share/doc/libzorp2/changelog.Debian.gz", "", "zorp (1.2.4-0.2+deb12u1) bookworm-security; urgency=medium\n\n  * CVE-2031-0042\n\n"+
		" -- Ada Quill <ada@example.org>  Tue, 12 Sep 2023 21:35:44 +0200\n\n"+
		"zorp (1.2.1-7) unstable; urgency=medium\n\n  * No changes; uploading to unstable for the frob transition.\n\n"+
		" -- Bo Tranter <bo@example.org>  Mon, 02 Jan 2023 10:00:00 +0100\n")
	a := extractive("Which zorp upload fixes CVE-2031-0042?", []graphrag.Hit{log}, 1)
	if !strings.Contains(a.Text, "zorp (1.2.4-0.2+deb12u1) bookworm-security") || !strings.Contains(a.Text, "CVE-2031-0042") {
		t.Errorf("answer:\n%s\nwant the CVE's entry under its release line", a.Text)
	}
}

// TestDebianReleaseLine: a Debian changelog's entry opens with its
// package, its version in parentheses and its distribution, whether or not
// the version is a dotted number; a sentence that mentions a version is no
// release line.
func TestDebianReleaseLine(t *testing.T) {
	for line, want := range map[string]string{
		"zorp (0+git20190715-1) unstable; urgency=medium": "0+git20190715-1",
		"libfrob2 (20-3) bookworm-security; urgency=high": "20-3",
		"frob-utils (1.2.3-1) unstable; urgency=low":      "1.2.3-1",
		"Zorp 2.3 (2021-01-02)":                           "2.3",
		"Upgrade to zorp (1.2) before you migrate.":       "",
	} {
		got := ""
		if releaseHeading(line) {
			got = releaseOf(line)
		}
		if got != want {
			t.Errorf("release of %q = %q, want %q", line, got, want)
		}
	}
	// A passage cut after the entry above it starts with its trailer:
	// the next line still opens a release.
	log := fileHit("/usr/share/doc/zorp/changelog.Debian.gz", "", " -- Ada Quill <ada@example.org>  Sun, 13 Oct 2019 01:27:45 +0100\n\n"+
		"zorp (0+git20190715-1) unstable; urgency=medium\n\n  * New upstream release\n  * Provide the frob virtual package (Closes: #700002)\n")
	if a := extractive("which zorp upload started providing the frob virtual package?", []graphrag.Hit{log}, 1); !strings.Contains(a.Text, "zorp (0+git20190715-1)") {
		t.Errorf("answer:\n%s\nwant the entry under its release line", a.Text)
	}
}

// TestChangelogEntryNamesItsSigner: asked who made a change, the entry
// says what was done and its release's trailer who did it; the trailer of
// the release below is someone else's.
func TestChangelogEntryNamesItsSigner(t *testing.T) {
	log := fileHit("/usr/share/doc/frobnicate/changelog.Debian.gz", "", "frobnicate (2.4-1) unstable; urgency=medium\n\n"+
		"  * Add a zorp test suite run by autopkgtest.\n\n"+
		" -- Ada Quill <ada@example.org>  Mon, 02 Jan 2023 10:00:00 +0100\n\n"+
		"frobnicate (2.3-2) unstable; urgency=low\n\n  * Update the watch file.\n\n"+
		" -- Bo Tranter <bo@example.org>  Tue, 01 Mar 2022 09:00:00 +0100\n")
	a := extractive("who added the zorp test suite to frobnicate?", []graphrag.Hit{log}, 1)
	if a.Abstained || !strings.Contains(a.Text, "Ada Quill") || strings.Contains(a.Text, "Bo Tranter") {
		t.Errorf("answer (abstained %v):\n%s\nwant the entry with Ada Quill's trailer", a.Abstained, a.Text)
	}
	// Asked what was done, the answer needs no signer.
	if a := extractive("what did frobnicate 2.4-1 add?", []graphrag.Hit{log}, 1); strings.Contains(a.Text, "Ada Quill") {
		t.Errorf("answer:\n%s\nwant no trailer when no one is asked for", a.Text)
	}
}

// TestOutlineSubheadings: a GNU-style NEWS file heads each release with
// "* …release 2.4…" and its parts with "** Bug fixes", "** New features";
// asked what features a release brought, the entry under that release's
// "New features" answers, though it does not repeat the program's name
// as the bug fix above it does.
func TestOutlineSubheadings(t *testing.T) {
	news := fileHit("/usr/share/doc/frobnicate/NEWS.gz", "", "GNU frobnicate NEWS\n\n"+
		"* Noteworthy changes in release 2.4 (2023-01-02) [stable]\n\n"+
		"** Bug fixes\n\n  frobnicate no longer crashes when its spool directory is missing.\n\n"+
		"** New features\n\n  The --dry-run option prints what would be done and does nothing.\n\n"+
		"* Noteworthy changes in release 2.3 (2022-05-01) [stable]\n\n"+
		"** New features\n\n  The --quiet option silences the progress report.\n")
	a := extractive("what new features came in frobnicate 2.4", []graphrag.Hit{news}, 1)
	if !strings.Contains(a.Text, "--dry-run") || strings.Contains(a.Text, "--quiet") {
		t.Errorf("answer:\n%s\nwant 2.4's new feature", a.Text)
	}
	units := answerUnits("* Noteworthy changes in release 2.4\n\n** New features\n\n  The --dry-run option.\n\n* Noteworthy changes in release 2.3\n\n  The --quiet option.\n")
	if len(units) != 2 || units[0].scope != "* Noteworthy changes in release 2.4 > New features" || units[1].scope != "* Noteworthy changes in release 2.3" {
		t.Errorf("units = %+v\nwant each under its release, the first under its subheading", units)
	}
}

// TestUploaderOfAnUpstreamRelease: the Debian uploads of an upstream
// version ("zorp 3.4.1") are its packaged releases ("zorp (3.4.1-2)"),
// and asked who uploaded one, its trailer answers, though another passage
// quoted names someone else.
func TestUploaderOfAnUpstreamRelease(t *testing.T) {
	for heading, want := range map[string]int{
		"zorp (3.4.1-2) unstable; urgency=low":    1,
		"zorp (3.4.1-3+b1) unstable; urgency=low": 1,
		"zorp (3.4.0-1) unstable; urgency=low":    -1,
		"zorp (3.4.1) unstable; urgency=low":      1,
	} {
		if got := releaseScope([]string{"3.4.1"}, heading); got != want {
			t.Errorf("release scope of %q for 3.4.1 = %d, want %d", heading, got, want)
		}
	}
	log := fileHit("/usr/share/doc/libzorp5/changelog.Debian.gz", "", "zorp (3.4.1-2) unstable; urgency=low\n\n"+
		"  * Build the frob plugin again.\n  * Ship the zorpd unit file.\n\n"+
		" -- Bo Tranter <bo@example.org>  Thu, 06 Apr 2023 11:12:13 +0200\n\n"+
		"zorp (3.4.0-1) unstable; urgency=low\n\n  * Rename the frob plugin.\n\n"+
		" -- Cy Frobisher <cy@example.org>  Mon, 02 Jan 2023 10:00:00 +0100\n")
	copyright := fileHit("/usr/share/doc/libzorp5/copyright", "", "Files: *\nCopyright: 2014-2022 Ada Quill\nLicense: MIT\n")
	q := "who packaged zorp 3.4.1 for Debian?"
	for _, tc := range []struct {
		release int
		want    bool
	}{{1, true}, {-1, false}} {
		chosen := []candidate{
			{text: "Build the frob plugin again.", hit: 0, release: tc.release, unit: quoteUnit{heading: "zorp (3.4.1-2) unstable; urgency=low"}},
			{text: "Copyright: 2014-2022 Ada Quill", hit: 1, name: true},
		}
		withSigners(q, chosen, []graphrag.Hit{log, copyright})
		if got := strings.Contains(chosen[0].text, "Bo Tranter"); got != tc.want {
			t.Errorf("release scope %d: entry %q, want its trailer %v (another unit names Ada Quill)", tc.release, chosen[0].text, tc.want)
		}
	}
}

// TestOverlinedReleaseTitle: a NEWS file that writes each release as a
// title between two rules ("=====" / "Version 2.4.1" / "=====") keeps an
// entry under its release's title, as the entry alone does not say which
// release it is from.
func TestOverlinedReleaseTitle(t *testing.T) {
	news := fileHit("/usr/share/doc/libzorp-2/NEWS.gz", "", "=============\nVersion 2.4.1\n=============\n\n"+
		"- ZorpDock no longer drops frobs on resize\n- Translations updated\n\n"+
		"=============\nVersion 2.4.0\n=============\n\n- Add ZorpDock\n")
	a := extractive("In what libzorp release did ZorpDock stop dropping frobs?", []graphrag.Hit{news}, 1)
	if !strings.Contains(a.Text, "Version 2.4.1\n- ZorpDock no longer drops frobs on resize") {
		t.Errorf("answer:\n%s\nwant the entry under its release's title", a.Text)
	}
}

// TestChangelogSectionNamesItsMaker: a release several people made puts
// each one's entries under a line with their name ("[ Ann Smith ]"), and
// asked who made an entry, that name answers, besides the trailer's; an
// entry not in the release's text has no section.
func TestChangelogSectionNamesItsMaker(t *testing.T) {
	log := fileHit("/usr/share/doc/libquux3/changelog.Debian.gz", "", "quux (4.1-2) unstable; urgency=medium\n\n"+
		"  [ Ada Quill ]\n  * Mend the sparc64 build of the quux plugin loader.\n\n"+
		"  [ Bo Tranter ]\n  * Refresh the manual page of quuxctl.\n\n"+
		" -- Cy Frobisher <cy@example.org>  Thu, 06 Apr 2023 11:12:13 +0200\n\n"+
		"quux (4.1-1) unstable; urgency=medium\n\n  * Mend the quux test run on slow buildds. Thanks, Di Halloran!\n\n"+
		" -- Cy Frobisher <cy@example.org>  Mon, 02 Jan 2023 10:00:00 +0100\n")
	a := extractive("who mended the sparc64 build of the quux plugin loader?", []graphrag.Hit{log}, 2)
	if a.Abstained || !strings.Contains(a.Text, "[ Ada Quill ] Mend the sparc64") || strings.Contains(a.Text, "Bo Tranter") {
		t.Errorf("answer (abstained %v):\n%s\nwant the entry under Ada Quill's name", a.Abstained, a.Text)
	}
	release := log.Chunk.Text[:strings.Index(log.Chunk.Text, " -- ")]
	for entry, want := range map[string]string{
		"Mend the sparc64 build of the quux plugin loader.": "Ada Quill",
		"Refresh the manual page of quuxctl.":               "Bo Tranter",
		"Mend the quux test run on slow buildds.":           "",
	} {
		if got := sectionMaker(release, entry); got != want {
			t.Errorf("sectionMaker(%q) = %q, want %q", entry, got, want)
		}
	}
}

// TestSignerBesideAnotherEntrysName: an entry that thanks someone names
// no maker of the entries beside it, which keep their trailers; the
// thanking entry keeps its own name alone.
func TestSignerBesideAnotherEntrysName(t *testing.T) {
	log := fileHit("/usr/share/doc/libquux3/changelog.Debian.gz", "", "quux (4.2-1) unstable; urgency=medium\n\n"+
		"  * Mend the quux test run on slow buildds. Thanks, Di Halloran!\n\n"+
		" -- Cy Frobisher <cy@example.org>  Mon, 02 Jan 2023 10:00:00 +0100\n\n"+
		"quux (4.1-1) unstable; urgency=medium\n\n  * Drop the quux test patch, merged upstream.\n\n"+
		" -- Ed Marlow <ed@example.org>  Sun, 01 Jan 2023 10:00:00 +0100\n\n"+
		"quux (4.0-3) unstable; urgency=medium\n\n  * Add the quux test patch for slow buildds.\n\n"+
		" -- Fay Gunther <fay@example.org>  Sat, 31 Dec 2022 10:00:00 +0100\n")
	a := extractive("who wrote the quux test patch for slow buildds?", []graphrag.Hit{log}, 3)
	if a.Abstained || !strings.Contains(a.Text, "Fay Gunther") {
		t.Errorf("answer (abstained %v):\n%s\nwant the patch's entry with its trailer", a.Abstained, a.Text)
	}
	if strings.Contains(a.Text, "Thanks, Di Halloran!\n  -- Cy Frobisher") {
		t.Errorf("answer:\n%s\nwant no trailer under the entry that names someone", a.Text)
	}
}

// TestSectionMakerWithoutTrailer: a long release is cut into passages,
// and the one holding an entry may end before the trailer that closes
// the release; asked who made the entry, the section it is under ("[ Ada
// Quill ]") in that passage still names its maker.
func TestSectionMakerWithoutTrailer(t *testing.T) {
	log := fileHit("/usr/share/doc/libquux3/changelog.Debian.gz", "", "quux (4.1-2) unstable; urgency=medium\n\n"+
		"  [ Bo Tranter ]\n  * Refresh the manual page of quuxctl.\n\n"+
		"  [ Ada Quill ]\n  * Mend the sparc64 build of the quux plugin loader.\n"+
		"  * Move the packaging to the quux team's repository.\n")
	a := extractive("who moved the quux packaging to the team's repository?", []graphrag.Hit{log}, 1)
	if a.Abstained || !strings.Contains(a.Text, "[ Ada Quill ] Move the packaging") {
		t.Errorf("answer (abstained %v):\n%s\nwant the entry under Ada Quill's name", a.Abstained, a.Text)
	}
}

// TestReleaseLineOverItsEntries: an upstream changelog's release line
// heads the entries right under it, with no blank line between them
// ("version 0.7" over "added:  frobnicate …"), and one that spaces its
// words as a table's row does ("=item 2.4  (3 March 2011)") heads
// them too: asked which release brought a change, the answer names it.
func TestReleaseLineOverItsEntries(t *testing.T) {
	changes := fileHit("/usr/share/doc/libzorp-frob-perl/changelog.gz", "", "Changes of Zorp::Frob\n\n"+
		"version 0.8\nfixed   quill order\n\n"+
		"version 0.7\nadded:  frobnicate method, which returns the frobs as a list\n\n"+
		"version 0.6\nfix:    spool path\n")
	a := extractive("Which Zorp::Frob release added the frobnicate method?", []graphrag.Hit{changes}, 1)
	if !strings.Contains(a.Text, "version 0.7\n- added: frobnicate method") {
		t.Errorf("answer:\n%s\nwant the entry under its release line", a.Text)
	}
	history := fileHit("/usr/share/doc/libzorp-ixfrob-perl/changelog.gz", "", "=head1 NAME\n\nHISTORY - the releases of Zorp::IxFrob\n\n=over 8\n\n"+
		"=item 2.4  (3 March 2011)\n\nNew method Quill()\n\n"+
		"=item 2.3  (9 May 2009)\n\nQuux.PL added\n")
	for _, u := range splitUnits(history.Chunk.Text, false) {
		if strings.Contains(u.text, "Quill") && u.heading != "=item 2.4  (3 March 2011)" {
			t.Errorf("unit %q under %q, want it under its release line", u.text, u.heading)
		}
		if releaseVersion.MatchString(u.text) {
			t.Errorf("release line %q quoted as an entry", u.text)
		}
	}
	// A title of two lines that each name a release heads nothing: the
	// first says which release the file describes.
	readme := "=== README for Zorp-Frob version 3.2\n=   Generated on Tue Jun 4 2019 by Quilldoc 1.4\n\nThere are two ways to install it.\n"
	if u := splitUnits(readme, false); len(u) == 0 || !strings.Contains(u[0].text, "version 3.2") {
		t.Errorf("units %+v: want the title quoted", u)
	}
}
