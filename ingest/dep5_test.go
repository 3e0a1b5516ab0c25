package ingest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestDEP5Stanzas ingests Debian machine-readable copyright files
// (testdata/dep5: gzip's, sqlite3's and bzip2's from Debian 12): each
// stanza is a chunk of fields with its lines; the header and the "Files: *"
// stanza are one chunk named by the upstream work; a copyright file in any
// other form is plain text.
func TestDEP5Stanzas(t *testing.T) {
	st, _ := ingestDir(t, "testdata/dep5", Options{})
	rec := func(pkg string) graphrag.Record {
		for _, r := range st.recs {
			if strings.HasSuffix(filepath.ToSlash(r.Doc.Path), "/"+pkg+"/copyright") {
				return r
			}
		}
		t.Fatalf("%s/copyright not stored", pkg)
		return graphrag.Record{}
	}
	for _, tc := range []struct {
		pkg, holds          string
		heading, symbol     string
		startLine, endLine  int
		alsoHolds, notHolds string
	}{
		{"gzip", "Copyright: 1999-2022 Free Software Foundation, Inc.", "GNU Gzip", "GNU Gzip", 1, 9, "Upstream-Name: GNU Gzip", "debian/*"},
		{"gzip", "Bdale Garbee", "Files: debian/*", "", 11, 13, "License: GPL-3+", "Free Software Foundation"},
		{"gzip", "This program is free software", "License: GPL-3+", "", 25, 40, "", "Files:"},
		{"sqlite3", "License: public-domain", "sqlite3", "sqlite3", 1, 7, "Copyright: D. Richard Hipp", "debian/*"},
		{"bzip2", "Julian R Seward", "bzip2", "bzip2", 1, 22, "License: BSD-variant", "Files: debian/*"},
	} {
		t.Run(tc.pkg+" "+tc.heading, func(t *testing.T) {
			c := chunkWith(t, rec(tc.pkg), tc.holds)
			if c.Kind != KindFields || c.Heading != tc.heading || c.Symbol != tc.symbol {
				t.Errorf("kind %q heading %q symbol %q, want %q %q %q", c.Kind, c.Heading, c.Symbol, KindFields, tc.heading, tc.symbol)
			}
			if c.StartLine != tc.startLine || c.EndLine != tc.endLine {
				t.Errorf("lines %d-%d, want %d-%d", c.StartLine, c.EndLine, tc.startLine, tc.endLine)
			}
			if !strings.Contains(c.Text, tc.alsoHolds) || tc.notHolds != "" && strings.Contains(c.Text, tc.notHolds) {
				t.Errorf("chunk:\n%s\nwant it to hold %q and not %q", c.Text, tc.alsoHolds, tc.notHolds)
			}
		})
	}
	t.Run("a copyright file that is not DEP-5", func(t *testing.T) {
		text := "This is the Debian prepackaged version of foo.\n\nCopyright (C) 2001 Jane Doe\n\nLicense: GPL-2\n"
		if isDEP5(text) {
			t.Error("isDEP5 = true for a free-form copyright file")
		}
		if l, err := loadText(t.Context(), "copyright", []byte(text)); err != nil || l.Sections != nil {
			t.Errorf("sections %v err %v, want plain text", l.Sections, err)
		}
	})
}
