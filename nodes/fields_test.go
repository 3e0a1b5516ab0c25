package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// stanzaHit is a chunk of fields of a Debian copyright file, as ingest
// cuts one (ingest.KindFields).
func stanzaHit(path, heading, symbol, text string, ordinal int) graphrag.Hit {
	h := fileHit(path, "", text)
	h.Chunk.ID, h.Chunk.Ordinal = graphrag.ChunkID(path, ordinal), ordinal
	h.Chunk.Kind, h.Chunk.Heading, h.Chunk.Symbol = kindFields, heading, symbol
	return h
}

func TestFieldUnits(t *testing.T) {
	units := fieldUnits("Files: *\nCopyright: 1999-2022 Free Software Foundation, Inc.\n           1992-1993 Jean-loup Gailly and Mark Adler\n" +
		"License: GPL-3+\n This program is free software; you can redistribute it.\n .\n On Debian systems, the complete text is in /usr/share/common-licenses/GPL-3.")
	want := []struct{ text, field, heading string }{
		{"Files: *", "Files", ""},
		{"Copyright: 1999-2022 Free Software Foundation, Inc. 1992-1993 Jean-loup Gailly and Mark Adler", "Copyright", ""},
		{"License: GPL-3+", "License", ""},
		{"This program is free software; you can redistribute it.", "", "License"},
		{"On Debian systems, the complete text is in /usr/share/common-licenses/GPL-3.", "", "License"},
	}
	if len(units) != len(want) {
		for _, u := range units {
			t.Logf("%q field %q heading %q", u.text, u.field, u.heading)
		}
		t.Fatalf("%d units, want %d", len(units), len(want))
	}
	for i, w := range want {
		if u := units[i]; u.text != w.text || u.field != w.field || u.heading != w.heading {
			t.Errorf("unit %d: %q field %q heading %q, want %q %q %q", i, u.text, u.field, u.heading, w.text, w.field, w.heading)
		}
	}
}

// Questions about a package asked of its Debian copyright file are
// answered by the fields of the upstream work's stanza.
func TestCopyrightFieldsAnswer(t *testing.T) {
	gzip := stanzaHit("/doc/gzip/copyright", "GNU Gzip", "GNU Gzip", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"+
		"Upstream-Name: GNU Gzip\nUpstream-Contact: http://www.gnu.org/software/gzip/\nSource: https://ftp.gnu.org/gnu/gzip\n\n"+
		"Files: *\nCopyright: 1999-2022 Free Software Foundation, Inc.\n           1992-1993 Jean-loup Gailly and Mark Adler\nLicense: GPL-3+", 0)
	packaging := stanzaHit("/doc/gzip/copyright", "Files: debian/*", "", "Files: debian/*\nCopyright: 1995-2017 Bdale Garbee <bdale@gag.com>\nLicense: GPL-3+", 1)
	bzip2 := stanzaHit("/doc/bzip2/copyright", "bzip2", "bzip2", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"+
		"Upstream-Name: bzip2\nSource: http://www.bzip.org/\n\nFiles: *\nCopyright: 1996-2010 Julian R Seward <jseward@bzip.org>\nLicense: BSD-variant\n"+
		" Redistribution and use in source and binary forms, with or without\n modification, are permitted provided that the following conditions\n are met:", 0)
	jq := stanzaHit("/doc/jq/copyright", "jq", "jq", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"+
		"Upstream-Name: jq\nSource: <https://github.com/stedolan/jq>\n\nFiles: *\nCopyright: 2012 Stephen Dolan <mu@netsoc.tcd.ie>\nLicense: MIT\n"+
		" Permission is hereby granted, free of charge, to any person obtaining a\n copy of this software.\n .\n The above copyright notice shall be included.", 0)
	for _, tc := range []struct {
		q     string
		hits  []graphrag.Hit
		first string
		not   []string
	}{
		{"who holds the copyright on gzip", []graphrag.Hit{packaging, gzip}, "Copyright: 1999-2022 Free Software Foundation, Inc.", []string{"Format:"}},
		{"who wrote bzip2", []graphrag.Hit{bzip2}, "Copyright: 1996-2010 Julian R Seward", []string{"Format:", "Files: *"}},
		{"what license is jq distributed under", []graphrag.Hit{jq}, "License: MIT", []string{"Format:"}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			kept, _, _ := gradeByConstraints(tc.q, tc.hits, tc.hits, RetrievalGood, 5)
			a := extractive(tc.q, kept, 3)
			if !strings.HasPrefix(a.Text, tc.first) {
				t.Errorf("answer:\n%s\nwant it to open with %q", a.Text, tc.first)
			}
			for _, n := range tc.not {
				if strings.Contains(a.Text, n) {
					t.Errorf("answer quotes %q:\n%s", n, a.Text)
				}
			}
		})
	}
}

// A Debian copyright file's stanzas are of the work as a whole ("Files:
// *", or the header), of parts of it, or of the packaging ("Files:
// debian/*"). Asked who wrote the work, or its licence, the answer is the
// whole work's field: not the header's comment on who packaged it, nor
// the licence of a few of its files that the question's words match
// better.
func TestCopyrightWholeWorkStanza(t *testing.T) {
	const path = "/doc/quillsort/copyright"
	head := stanzaHit(path, "Header", "", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"+
		"Comment: This is the Debian build of quillsort, a sorting tool for ledgers.\n"+
		" The package was assembled by Petra Lindqvist <petra@example.org>.\n"+
		"Upstream-Contact: Oskar Brandt <oskar@example.net>\n\n"+
		"Files: *\nCopyright: 2001, Oskar M. Brandt.\n 2015-2021, Ines Carvalho.\nLicense: ISC\n\n"+
		"Files: debian/*\nCopyright: 2003 Petra Lindqvist\nLicense: ISC", 0)
	parts := stanzaHit(path, "Files: src/quillsort/vendor/fastcmp.c", "", "Files: src/quillsort/vendor/fastcmp.c\n src/quillsort/vendor/fastcmp.h\n"+
		"Copyright: 2009 Hale Werner\nLicense: BSD-2-clause", 3)
	more := stanzaHit(path, "Files: src/quillsort/ref/radix.c", "", "Files: src/quillsort/ref/radix.c\n src/quillsort/ref/radix.h\n"+
		"Copyright: no copyright claimed\nLicense: public-domain", 4)
	for _, tc := range []struct {
		q     string
		hits  []graphrag.Hit
		first string
		not   string
	}{
		// The header's comment names the packager, and the words
		// "quillsort" and "by": the upstream Copyright names the author.
		{"who originally wrote quillsort", []graphrag.Hit{head}, "Copyright: 2001, Oskar M. Brandt.", "Petra"},
		// The stanzas of vendored files name the package in their paths
		// and rank first: the whole work's licence is ISC.
		{"what license does quillsort have", []graphrag.Hit{parts, more, head}, "License: ISC", "public-domain"},
	} {
		t.Run(tc.q, func(t *testing.T) {
			a := extractive(tc.q, tc.hits, 3)
			if !strings.HasPrefix(a.Text, tc.first) {
				t.Errorf("answer:\n%s\nwant it to open with %q", a.Text, tc.first)
			}
			if strings.Contains(a.Text, tc.not) {
				t.Errorf("answer quotes %q:\n%s", tc.not, a.Text)
			}
		})
	}
}

// A question that names a file a part's stanza covers ("Files:
// select-zorp*") asks about that part: its authors and licence, not the
// whole work's.
func TestStanzaOfANamedFile(t *testing.T) {
	const path = "/usr/share/doc/zorp-utils/copyright"
	whole := stanzaHit(path, "zorp-utils", "zorp-utils", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: zorp-utils\n\n"+
		"Files: *\nCopyright: 2002-2009, Ann Smith <ann@example.org>\nLicense: GPL-2+", 0)
	part := stanzaHit(path, "Files: select-zorp*", "", "Files: select-zorp*\nCopyright: 2009, Bo Tranter <bo@example.org>\nLicense: MIT", 1)
	other := stanzaHit(path, "Files: frob-editor*", "", "Files: frob-editor*\nCopyright: 1997, Cy Quill\nLicense: BSD-3-clause", 2)
	kept := []graphrag.Hit{part, whole, other}
	for _, tc := range []struct{ q, want, not string }{
		{"who wrote select-zorp in zorp-utils", "Bo Tranter", "Ann Smith"},
		{"what licence is select-zorp under", "License: MIT", "GPL-2+"},
		{"who wrote zorp-utils", "Ann Smith", "Bo Tranter"},
		{"which licence covers zorp-utils", "License: GPL-2+", "MIT"},
	} {
		if a := extractive(tc.q, kept, 1); !strings.Contains(a.Text, tc.want) || strings.Contains(a.Text, tc.not) {
			t.Errorf("%s: answer %q, want %q and not %q", tc.q, a.Text, tc.want, tc.not)
		}
	}
}

// A question about a manual page names the page as its command or header
// is called, without its section: "the zorp.h man page" is the stanza of
// "man3/zorp.h.3head". Asked about the program, the page's stanza is not
// what is asked.
func TestStanzaOfANamedManPage(t *testing.T) {
	const path = "/usr/share/doc/zorp-pages/copyright"
	whole := stanzaHit(path, "zorp-pages", "zorp-pages", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: zorp-pages\n\n"+
		"Files: *\nCopyright: 2005-2021 Ann Smith <ann@example.org>\nLicense: GPL-2+", 0)
	page := stanzaHit(path, "Files: man3/zorp.h.3head", "", "Files: man3/zorp.h.3head\nCopyright: (c) 1996 Bo Tranter\nLicense: BSD-2-clause", 1)
	kept := []graphrag.Hit{page, whole}
	for _, tc := range []struct{ q, want, not string }{
		{"Who holds the 1996 copyright on the zorp.h man page shipped in zorp-pages?", "Bo Tranter", "Ann Smith"},
		{"who wrote the zorp.h man page", "Bo Tranter", "Ann Smith"},
	} {
		if a := extractive(tc.q, kept, 1); !strings.Contains(a.Text, tc.want) || strings.Contains(a.Text, tc.not) {
			t.Errorf("%s: answer %q, want %q and not %q", tc.q, a.Text, tc.want, tc.not)
		}
	}
	if filesNamed([]string{"zorp.1"}, []string{"who", "wrote", "zorp"}) || !filesNamed([]string{"zorp.1"}, []string{"the", "zorp", "man", "page"}) {
		t.Error("filesNamed: a page's stanza is named by the page's name when a man page is asked about, and only then")
	}
}

// A question may name a part by its Java package, written with dots: the
// stanza of the files under that package's folders answers it.
func TestStanzaOfANamedPackage(t *testing.T) {
	const path = "/usr/share/doc/libzorp-realms-java/copyright"
	whole := stanzaHit(path, "zorp-realms", "zorp-realms", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: zorp-realms\n\n"+
		"Files: *\nCopyright: 2001-2010, Zorp Foundation\nLicense: Apache-2.0", 0)
	part := stanzaHit(path, "Files: src/main/java/org/quill/realms/RealmError.java", "",
		"Files: src/main/java/org/quill/realms/RealmError.java\n src/main/java/org/quill/realms/NoSuchRealm.java\nCopyright: 2002 (C) The Quillworks Company\nLicense: Apache-1.1", 1)
	kept := []graphrag.Hit{whole, part}
	q := "A few org.quill.realms source files of Quill Realms are under Apache-1.1. Who holds their copyright?"
	if a := extractive(q, kept, 1); !strings.Contains(a.Text, "Quillworks") || strings.Contains(a.Text, "Zorp Foundation") {
		t.Errorf("answer %q, want the Quillworks Company and not the Zorp Foundation", a.Text)
	}
	if dottedPackageOf("celt/x86/pitch_sse4_1.c", "sse4.1") || !dottedPackageOf("src/org/quill/realms/*", "org.quill.realms") {
		t.Error("dottedPackageOf: a package needs three parts, and names its folders")
	}
}

// Asked who wrote a work upstream, when its Debian folder is named
// otherwise ("libzorpkit0" for zorpkit), the answer is its copyright file's
// record of who made it, found by the header's name (the passage's
// heading): not another package's "Upstream-Author:" field, which holds
// the asker's words "upstream" and "author" where zorpkit's "Copyright:"
// holds none.
func TestUpstreamAuthorOfTheWorkNamed(t *testing.T) {
	own := stanzaHit("/usr/share/doc/libzorpkit0/copyright", "zorpkit", "", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"+
		"Upstream-Name: zorpkit\nSource: https://example.org/zorpkit/\n\n"+
		"Files: *\nCopyright: 2004-2011 Mira Quellen <mira@example.org>\nLicense: GPL-2+", 0)
	log := fileHit("/usr/share/doc/libzorpkit0/changelog.Debian.gz", "changelog.Debian.gz",
		"zorpkit (2.1-3) unstable; urgency=medium\n\n  * New upstream release.\n  * Thanks to Ugo Brandt <ugo@example.net> for the patch.\n\n"+
			" -- Lea Frobisher <lea@example.org>  Mon, 02 Mar 2020 10:00:00 +0100\n")
	other := stanzaHit("/usr/share/doc/fonts-quill/copyright", "Quill fonts", "", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"+
		"Upstream-Name: Quill fonts\nUpstream-Author: Tomas Vint <tomas@example.net> (original author)\n\n"+
		"Files: *\nCopyright: 2003 Tomas Vint\nLicense: OFL-1.1", 0)
	a := extractive("zorpkit: who authored it upstream?", []graphrag.Hit{own, log, other}, 3)
	if !strings.HasPrefix(a.Text, "Copyright: 2004-2011 Mira Quellen") {
		t.Errorf("answer:\n%s\nwant it to open with zorpkit's Copyright field", a.Text)
	}
}

// The whole work's record of who made it answers "who wrote it" though it
// holds none of the question's words: not the file's first line.
func TestTheRecordAnswersWithoutTheQuestionsWords(t *testing.T) {
	h := stanzaHit("/usr/share/doc/libzorpd0/copyright", "", "", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"+
		"Comment: Zorpd takes its queue design from frobd, an older daemon.\n\n"+
		"Files: *\nCopyright: 2001-2009 Ann Smith <ann@example.org>\nLicense: ISC", 0)
	a := extractive("zorpd was first written by whom?", []graphrag.Hit{h}, 3)
	if !strings.HasPrefix(a.Text, "Copyright: 2001-2009 Ann Smith") {
		t.Errorf("answer:\n%s\nwant it to open with the Copyright field", a.Text)
	}
}

// A field whose name the question writes as a program's ("the files
// command") is not the field asked about: the "Files:" line of the
// library's copyright file does not say since when the files program is
// built with it.
func TestFieldNamedAsAProgram(t *testing.T) {
	zorp := stanzaHit("/doc/libzorp2/copyright", "libzorp", "libzorp", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"+
		"Upstream-Name: libzorp\nSource: https://example.org/libzorp\n\nFiles: *\nCopyright: 2012 Ann Quill\nLicense: LGPL-2.1", 0)
	readme := fileHit("/doc/files/README.Debian", "", "zorp support\n------------\n\nStarting with version 1:5.37-1, files is built using libzorp. This\nwill slow down the --zap option.")
	const q = "since which version is the files command built with libzorp on Debian"
	a := extractive(q, []graphrag.Hit{readme, zorp}, 3)
	if !strings.Contains(a.Text, "1:5.37-1") || strings.HasPrefix(a.Text, "Files:") {
		t.Errorf("answer:\n%s\nwant the release that built it, not the Files field", a.Text)
	}
}

// A copyright file's Format field names the specification the file
// follows, nothing of the work: it is no unit, and an answer about the
// packaging quotes the fields that name it, not the specification's URL
// (whose words, "packaging" among them, are the question's).
func TestTheFormatFieldIsNoUnit(t *testing.T) {
	const header = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: zorpkit-lite\nSource: https://example.org/zorpkit-lite\n"
	draft := "Format-Specification: http://svn.debian.org/wsvn/dep/web/deps/dep5.mdwn?op=file&rev=135\nName: zorpkit-lite\n"
	for _, u := range append(fieldUnits(header), fieldUnits(draft)...) {
		if strings.HasPrefix(u.field, "Format") {
			t.Errorf("unit %q: the Format field is no unit", u.text)
		}
	}
	h := stanzaHit("/usr/share/doc/zorpkit/copyright", "zorpkit-lite", "zorpkit-lite", header+"\nFiles: *\nCopyright: 2010 Ann Quill\nLicense: MIT", 0)
	if a := extractive("Which upstream work is Debian's zorpkit packaging made from?", []graphrag.Hit{h}, 2); strings.Contains(a.Text, "copyright-format") || !strings.Contains(a.Text, "zorpkit-lite") {
		t.Errorf("answer:\n%s\nwant the Upstream-Name and not the Format field", a.Text)
	}
}
