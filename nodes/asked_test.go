package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

func TestNamesSomeone(t *testing.T) {
	for text, want := range map[string]bool{
		"1996-2010 Julian R Seward <jseward@bzip.org>":                                  true,
		"1999-2022 Free Software Foundation, Inc.":                                      true,
		"D. Richard Hipp <drh@hwaci.com>":                                               true,
		"(c) 2006-2007 The Written Word, Inc.":                                          true,
		"type inference is designed to mostly work as expected":                         false,
		"The panic built-in function stops normal execution of the current":             false,
		"In Sydney, Australia, both standard and daylight-savings time are abbreviated": false,
		"https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/":            false,
		"Copyright: 2019-2024 ZQX Limited":                                              true,
		"IF NOT EXISTS Do not throw an error if the zorp already exists.":               false,
		"License: QPLX This file is free software":                                      false,
		// A title quoted in a longer phrase, and a name quoted alone.
		"(see the “Zorp Wire Format of Frob records” section)": false,
		"the plug-in was written by “Ada Quillon” in 2019":     true,
	} {
		if got := namesSomeone(maskIdentifiers(text)); got != want {
			t.Errorf("namesSomeone(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestAsksForName(t *testing.T) {
	for q, want := range map[string]bool{
		"who wrote bzip2":                 true,
		"who holds the copyright on gzip": true,
		"Who directed the film?":          true,
		"who can run pg_dump":             false, // a role, not a name
		"who is allowed to connect":       false,
		"what license is jq under":        false,
	} {
		if got := asksForName(q); got != want {
			t.Errorf("asksForName(%q) = %v, want %v", q, got, want)
		}
	}
}

// An extractive answer is of the kind its question asks for, or none: a
// "who" question is answered by a name, a licence question by the
// licence of what it names.
func TestAnswersOfTheKindAsked(t *testing.T) {
	spec := fileHit("/go/doc/go_spec.html", "html", "Type inference\n\nBut by and large these rules can be ignored when writing Go code: "+
		"type inference is designed to mostly \"work as expected\", and the unification rules are fine-tuned accordingly.")
	boost := stanzaHit("/doc/libboost-iostreams1.74.0/copyright", "Files: libs/config/include/boost/config/compiler/digitalmars.hpp", "",
		"Files: libs/config/include/boost/config/compiler/digitalmars.hpp\nCopyright: 2003 Christof Meerwald\nLicense: BSL-1.0", 7)
	changelog := fileHit("/doc/chromium/changelog.Debian.gz", "", "  * d/patches:\n    - trixie/rust-no-alloc-shim.patch: mark nightly feature 'no_mangle' as\n      unsafe to make rustc happy.")
	ssh := stanzaHit("/doc/libssh2-1/copyright", "libssh2", "libssh2", "Files: *\nCopyright: (c) 2006-2007 The Written Word, Inc.\nLicense: BSD3", 0)
	jq := stanzaHit("/doc/jq/copyright", "jq", "jq", "Upstream-Name: jq\n\nFiles: *\nCopyright: 2012 Stephen Dolan <mu@netsoc.tcd.ie>\nLicense: MIT", 0)
	frob := fileHit("/doc/frobnitz/copyright", "", "This is the Debian package of frobnitz, a file shredder.\n\n"+
		"Copyright and license:\n\nThis is version 3 of the Frobnitz license. Permission is granted to anyone to use this software for any purpose.")
	zorp := stanzaHit("/doc/libzorp2-1/copyright", "", "", "Upstream-Name: zorp-reference\n\nFiles: *\nCopyright: 2015, Ann Smith\nLicense: CC0 or Apache-2.0", 0)
	frobnet := stanzaHit("/doc/python3-frobnet/copyright", "", "", "Files: python3/frobnet/certificates.pem\nCopyright: 2001 Netscape\nLicense: MPL-1.1 or GPL-2+", 0)
	quuxPackaging := fileHit("/doc/quux/copyright", "", "The same license and copyright applies to the Debian packaging.\n\nLicense: GPL-2+\n The full text of the GPL is in /usr/share/common-licenses/GPL-2 on Debian systems.")
	quill := stanzaHit("/doc/libquillx9-0/copyright", "Quill-X9", "Quill-X9", "Upstream-Name: Quill-X9\nSource: https://example.org/quill\nLicense: BSD-3-Clause-Clear", 0)
	for _, tc := range []struct {
		q       string
		hits    []graphrag.Hit
		abstain bool
		want    string
	}{
		{"who designed Go", []graphrag.Hit{spec}, true, ""},
		// The stanza names Quill-X9; "encoder" is the asker's word for it.
		{"What license is the Quill-X9 encoder released under?", []graphrag.Hit{quill}, false, "License: BSD-3-Clause-Clear"},
		{"What license is the Frob-Z7 encoder released under?", []graphrag.Hit{quill}, true, ""},
		{"what license is the rustc compiler under", []graphrag.Hit{changelog, boost}, true, ""},
		{"what license is Microsoft Word distributed under", []graphrag.Hit{ssh}, true, ""},
		{"what license is jq distributed under", []graphrag.Hit{ssh, jq}, false, "License: MIT"},
		{"who wrote jq", []graphrag.Hit{jq}, false, "Stephen Dolan"},
		{"what licence is frobnitz under", []graphrag.Hit{frob}, false, "Frobnitz license"},
		// The asker's description of the package is not in its
		// "License:" line; its name is, in the folder.
		{"Which licence covers the Zorp2 frob hashing library (libzorp2-1)?", []graphrag.Hit{zorp}, false, "License: CC0 or Apache-2.0"},
		{"Which licence covers the Quux2 frob hashing library (libquux2-1)?", []graphrag.Hit{zorp}, true, ""},
		// A folder named as Debian packages a library or a Python module
		// is the software's own.
		{"Under what licence can I use the zorp library code?", []graphrag.Hit{zorp}, false, "License: CC0 or Apache-2.0"},
		{"Which licences cover the certificates bundled with frobnet?", []graphrag.Hit{frobnet}, false, "License: MPL-1.1 or GPL-2+"},
		{"Which licences cover the certificates bundled with frobnetx?", []graphrag.Hit{frobnet}, true, ""},
		// "Debian" and "packaging" say which document, not whose: another
		// package's stanza for its Debian packaging is not zorp-server's.
		{"Which licence covers the Debian packaging work done for zorp-server?", []graphrag.Hit{quuxPackaging}, true, ""},
		{"Which licence covers the Debian packaging work done for quux?", []graphrag.Hit{quuxPackaging}, false, "License: GPL-2+"},
	} {
		t.Run(tc.q, func(t *testing.T) {
			a := extractive(tc.q, tc.hits, 3)
			if a.Abstained != tc.abstain || !strings.Contains(a.Text, tc.want) {
				t.Errorf("answer (abstained %v):\n%s\nwant abstained %v, holding %q", a.Abstained, a.Text, tc.abstain, tc.want)
			}
		})
	}
}

// A licence named after its project is a licence's name though no list
// holds it; "This license" or "The licence" names none.
func TestNamesOwnLicence(t *testing.T) {
	for s, want := range map[string]bool{
		"This is version 3 of the Frobnitz license.":             true,
		"Distributed under the Wibble-Tools Licence, see below.": true,
		"released under the Quux2 License":                       true,
		"This license applies to the whole package.":             false,
		"The licence text is in /usr/share/common-licenses.":     false,
		"see the license file for details":                       false,
	} {
		if got := namesOwnLicence(s); got != want {
			t.Errorf("namesOwnLicence(%q) = %v, want %v", s, got, want)
		}
	}
}

// A question for the most of something is answered by a limit stated in a
// passage that speaks of that thing: the limit of another count ("the
// maximum number of tries") does not say how many frobs a zorp holds.
func TestLimitOfWhatTheQuestionCounts(t *testing.T) {
	const q = "What is the maximum number of frobs a single zorp can hold?"
	other := fileHit("/usr/share/man/man1/zorpbench.1.gz", "", "--max-tries=number_of_tries Enable retries for zorps with lock errors and set the maximum number of these tries. The default is 1.")
	if a := extractive(q, []graphrag.Hit{other}, 3); !a.Abstained {
		t.Errorf("answered %q; the passage limits tries, not frobs", a.Text)
	}
	own := fileHit("/usr/share/man/man7/CREATE_ZORP.7.gz", "", "A zorp can hold at most 64 frobs; adding a 65th fails with an error.")
	if a := extractive(q, []graphrag.Hit{own}, 3); a.Abstained {
		t.Errorf("abstained; the passage says a zorp holds at most 64 frobs")
	}
}

func TestCountedThing(t *testing.T) {
	for q, want := range map[string]string{
		"What is the maximum number of frobs a zorp can hold?": "frobs",
		"max number of columns in a zorp index":                "columns",
		"what is the most frobs a zorp holds":                  "",
		"What is the largest number of the frobs?":             "",
	} {
		if got := countedThing(q); got != want {
			t.Errorf("countedThing(%q) = %q, want %q", q, got, want)
		}
	}
}
