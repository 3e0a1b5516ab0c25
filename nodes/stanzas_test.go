package nodes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// gplText is a licence's text as a copyright file gives it: long enough
// that each stanza is a passage of its own.
const gplText = ` This program is free software; you can redistribute it and/or modify
 it under the terms of the GNU General Public License as published by
 the Free Software Foundation; either version 2 of the License, or
 (at your option) any later version.
 .
 This program is distributed in the hope that it will be useful,
 but WITHOUT ANY WARRANTY; without even the implied warranty of
 MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
 GNU General Public License for more details.
 .
 On Debian systems, the complete text of the GNU General Public License
 version 2 can be found in "/usr/share/common-licenses/GPL-2".
`

// TestTheStanzaOfTheAskedPartAnswers: a question about the Debian
// packaging of a work, or about a part of it named by its folder (the
// folder named most closely), is answered by the stanza of that part in
// the work's copyright file,
// though the header's stanza matches the question's words best and
// another package's packaging stanza speaks of "Debian packaging files".
func TestTheStanzaOfTheAskedPartAnswers(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	files := map[string]string{
		"doc/zorpkit/copyright": "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: zorpkit\nSource: https://zorpkit.example.org/\n\n" +
			"Files: *\nCopyright: 2001-2020 Ada Quux\nLicense: GPL-2+\n\n" +
			"Files: plugins/frobber/*\nCopyright: 2015 Frobnitz Labs\nLicense: Expat\n Permission is hereby granted, free of charge, to any person obtaining a copy.\n\n" +
			"Files: src/mips/*\nCopyright: 2008 Codewrightery\nLicense: GPL-2+\n" + gplText + "\n" +
			"Files: src/sparc/*\nCopyright: 2004 Sparcwerk\nComment: no licence of its own is given\n\n" +
			"Files: src/frob/*\nCopyright: 2017 Quillon Systems\nLicense: GPL-2+\n" + gplText + "\n" +
			"Files: src/frob/yamlette/*\nCopyright: 2012 Brask Vanterpool\nLicense: GPL-2+\n" + gplText + "\n" +
			"Files: debian/*\nCopyright: 2009-2012 Wendla Ostrova\nLicense: GPL-2+\n" + gplText + "\n" +
			"License: GPL-2+\n" + gplText,
		"doc/quuxd/copyright": "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: quuxd\n\n" +
			"Files: *\nCopyright: 1999 Quux Team\nLicense: GPL-2+\n\n" +
			"Files: debian/*\nCopyright: 2010 Ilse Neumann\nLicense: PD-debian\n The Debian packaging files are in the public domain: the Debian packaging files may be used freely.\n\n" +
			"License: GPL-2+\n" + gplText,
	}
	files["doc/libquill-twig-perl/copyright"] = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: Quill-Twig\nUpstream-Contact: Ada Quux <ada@example.org>\n\n" +
		"Files: *\nCopyright: 1999-2010, Ada Quux <ada@example.org>\nLicense: Artistic or GPL-1+\n\n" +
		"Files: tools/quill_lint/quill_lint\nCopyright: 2003, Ada Quux\nLicense: Artistic or GPL-2+\n\n" +
		"Files: debian/*\nCopyright: 2006-2016, Wendla Ostrova\nLicense: Artistic or GPL-1+\n"
	for i := range 12 {
		pkg := fmt.Sprintf("quux%d", i)
		files["doc/"+pkg+"/copyright"] = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: " + pkg + "\n\n" +
			"Files: *\nCopyright: 1999 Quux Team\nLicense: GPL-2+\n\n" +
			"Files: debian/*\nCopyright: 2010 Packager " + strings.Repeat("Q", i+1) + "\nLicense: PD-debian\n The Debian packaging files are in the public domain: the Debian packaging files may be used freely.\n"
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "docs.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ingest.New(st, ingest.Options{}).Run(ctx, root); err != nil {
		t.Fatal(err)
	}
	g, err := Build(Deps{Searcher: st}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ q, want, not string }{
		// The stanza's own Files field says which files its holder's are.
		{"zorpkit bundles yamlette under src/frob/yamlette. Who holds the copyright on that code?", "Files: src/frob/yamlette/*", "Quillon Systems"},
		{"Who holds the copyright on the Debian packaging files of zorpkit?", "Wendla Ostrova", "Ilse Neumann"},
		{"Who holds the copyright on the frobber plugins of zorpkit?", "Frobnitz Labs", "Ada Quux"},
		// Not the file's other licences, stand-alone or the whole work's.
		{"What licence covers the frobber plugins of zorpkit?", "License: Expat", "GPL-2+"},
		// Asked in a sentence after one that says what the part is.
		{"zorpkit ships frobber plugins. Under which licence are those plugins distributed?", "License: Expat", "GPL-2+"},
		{"Quill-Twig ships a quill_lint tool. Under which licence is that tool distributed?", "GPL-2+", "GPL-1+"},
		// A holder in one word reads as no person's name.
		{"Who holds the copyright on the MIPS port of zorpkit?", "Codewrightery", "Ada Quux"},
		{"Who holds the copyright on the SPARC port of zorpkit?", "Sparcwerk", "Ada Quux"},
		{"zorpkit bundles yamlette under src/frob/yamlette. Who holds the copyright on that code?", "Brask Vanterpool", "Quillon Systems"},
	} {
		t.Run(tc.q, func(t *testing.T) {
			s, err := g.Invoke(ctx, State{Query: tc.q})
			if err != nil {
				t.Fatal(err)
			}
			if a := s.Answer.Text; !strings.Contains(a, tc.want) || strings.Contains(a, tc.not) {
				t.Errorf("answer %q (%s): want %q, not %q", a, s.Measured, tc.want, tc.not)
			}
		})
	}
}

// TestWithAskedStanzaReadsThePartsStanza: the stanza of the part a
// question asks about is read from the kept copyright file of the package
// it names, not from another package's, and nothing is read for a
// question about the whole work or about no authorship or licence.
func TestWithAskedStanzaReadsThePartsStanza(t *testing.T) {
	stanza := func(pkg string, i int, text string) graphrag.Hit {
		h := fileHit("/usr/share/doc/"+pkg+"/copyright", "", text)
		h.Chunk.ID, h.Chunk.Kind = graphrag.ChunkID(h.Source.Path, i), kindFields
		if first, _, _ := strings.Cut(text, "\n"); strings.HasPrefix(first, "Files:") {
			h.Chunk.Heading = first
		}
		return h
	}
	header := stanza("zorpkit", 0, "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: zorpkit\n\nFiles: *\nCopyright: 2001 Ada Quux\nLicense: GPL-2+")
	plugins := stanza("zorpkit", 1, "Files: plugins/frobber/*\nCopyright: 2015 Frobnitz Labs\nLicense: MIT")
	packaging := stanza("zorpkit", 2, "Files: debian/*\nCopyright: 2009 Wendla Ostrova\nLicense: GPL-2+")
	patches := stanza("zorpkit", 3, "Files: debian/patches/*\nCopyright: 2022 Patch Person\nLicense: GPL-2+\nComment: the patches of the Debian packaging files of zorpkit, who holds the copyright on them")
	other := stanza("quuxd", 0, "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: quuxd\n\nFiles: *\nCopyright: 1999 Quux Team\nLicense: GPL-2+")
	otherPackaging := stanza("quuxd", 1, "Files: debian/*\nCopyright: 2010 Ilse Neumann\nLicense: PD-debian\n The Debian packaging files are in the public domain: who holds the copyright on the Debian packaging files holds none.")
	p, err := newPipeline(Deps{Searcher: newMemSearcher([]graphrag.Hit{header, plugins, packaging, patches, other, otherPackaging})}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"Who holds the copyright on the Debian packaging files of zorpkit?": packaging.Chunk.ID,
		"What licence covers the frobber plugins of zorpkit?":               plugins.Chunk.ID,
		"Who holds the copyright on zorpkit?":                               "",
		"When was the Debian packaging of zorpkit first done?":              "",
	} {
		s := State{Query: q, Kept: []graphrag.Hit{header, other}}
		got := p.withAskedStanza(context.Background(), &s)
		var added string
		if len(got) > len(s.Kept) {
			added = got[len(got)-1].Chunk.ID
		}
		if added != want {
			t.Errorf("%q: added %q, want %q", q, added, want)
		}
	}
}

func TestPartFiles(t *testing.T) {
	words := func(q string) []string { return stanzaFileWords.FindAllString(strings.ToLower(q), -1) }
	for _, tc := range []struct {
		patterns []string
		file, q  string
		want     int
	}{
		{[]string{"plugins/frob/*"}, "/usr/share/doc/zorpkit/copyright", "what licence covers the frob plugins of zorpkit", 2},
		{[]string{"src/frob/*"}, "/usr/share/doc/zorpkit/copyright", "zorpkit bundles yaml under src/frob/yaml", 2},
		{[]string{"src/frob/yaml/*"}, "/usr/share/doc/zorpkit/copyright", "zorpkit bundles yaml under src/frob/yaml", 3},
		{[]string{"src/frob.c"}, "/usr/share/doc/zorpkit/copyright", "who wrote frob.c in zorpkit", maxFilesDepth},
		// Not when the question names no package of the file: another
		// package's vendored copy of the one asked about.
		{[]string{"thirdparty/zorpkit/*"}, "/usr/share/doc/quuxd/copyright", "what licence is zorpkit under", 0},
		// Nor the folder named like the package: the work itself.
		{[]string{"src/org/zorpkit/*"}, "/usr/share/doc/libzorpkit-frob-annotations-java/copyright", "who holds the copyright on the zorpkit code packaged as libzorpkit-frob-annotations-java", 0},
		{[]string{"debian/frob/*"}, "/usr/share/doc/zorpkit/copyright", "who wrote the debian frob of zorpkit", 1},
	} {
		if got := partFiles(tc.patterns, tc.file, words(tc.q), packageWords(tc.file, words(tc.q))); got != tc.want {
			t.Errorf("partFiles(%q, %q, %q) = %d, want %d", tc.patterns, tc.file, tc.q, got, tc.want)
		}
	}
}

// TestThePackagingOfTheNamedPackageAnswers: of the packaging stanzas
// kept, the one of the package the question names answers, though three
// packages' copies of another come first and speak of "the Debian
// packaging files".
func TestThePackagingOfTheNamedPackageAnswers(t *testing.T) {
	stanza := func(pkg, text string) graphrag.Hit {
		h := fileHit("/usr/share/doc/"+pkg+"/copyright", "", text)
		h.Chunk.Kind, h.Chunk.Heading = kindFields, "Files: debian/*"
		return h
	}
	other := "Files: debian/*\nCopyright: 2009-2012, Ilse Neumann\nLicense: PD-debian\n The Debian packaging files are in the public domain.\n You may freely use, modify, distribute, and relicense them.\n"
	own := stanza("zorpkit", "Files: debian/*\nCopyright: 2008-2021 Wendla Ostrova\nLicense: GPL-2+\n This program is free software: you can redistribute it and/or modify\n it under the terms of the GNU General Public License.")
	a := extractive("Who holds the copyright on the Debian packaging files of zorpkit?", []graphrag.Hit{stanza("quuxd", other), stanza("libquux5", other), stanza("quux-utils", other), own}, 5)
	if !strings.Contains(a.Text, "Wendla Ostrova") || strings.Contains(a.Text, "Ilse Neumann") {
		t.Errorf("answer %q: want zorpkit's packaging holder alone", a.Text)
	}
}
