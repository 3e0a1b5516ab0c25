package nodes

import (
	"context"
	"strings"
	"testing"
)

// TestBritishSpellingFindsTheAmericanWord: "licence" asks what a copyright
// file calls "License"; before spelling was folded, the word was missing
// from every hit and the run abstained (issue 11: "yq licence").
func TestBritishSpellingFindsTheAmericanWord(t *testing.T) {
	ctx := context.Background()
	docs := map[string]string{
		"/usr/share/doc/yq/copyright":      "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: yq\nUpstream-Contact: Andrey Kislyuk\n\nFiles: *\nCopyright: 2012 Andrey Kislyuk\nLicense: Apache-2.0",
		"/usr/share/doc/yq/README.rst":     "yq: Command-line YAML/XML/TOML processor. yq takes YAML input, converts it to JSON, and pipes it to jq.",
		"/usr/share/doc/jq/copyright":      "Upstream-Name: jq\n\nFiles: *\nCopyright: 2012 Stephen Dolan\nLicense: MIT",
		"/usr/share/doc/bash/copyright":    "Upstream-Name: bash\n\nFiles: *\nCopyright: 1987-2022 Free Software Foundation\nLicense: GPL-3+",
		"/usr/share/doc/yq/changelog.gz":   "yq (3.1.0-3) unstable; urgency=medium\n\n  * Team upload.\n  * Remove the XML test that fails with newer xmltodict.",
		"/usr/share/doc/less/copyright":    "Upstream-Name: less\n\nFiles: *\nCopyright: 1984-2023 Mark Nudelman\nLicense: GPL-3+ or BSD-2-clause",
		"/usr/share/doc/python3/copyright": "Upstream-Name: python\n\nFiles: *\nLicense: PSF-2",
		// British spellings are rare in these files, so the rare word
		// would outrank the package's name if the query kept it.
		"/usr/share/doc/libharfbuzz0b/copyright": "HarfBuzz is licensed under the so-called \"Old MIT\" licence. The licence text follows; this licence is distributed with the software.",
		"/usr/share/doc/libmpc3/copyright":       "This library is free software, distributed under the terms of the LGPL licence; see the licence file.",
	}
	// Ingest reads a Debian copyright file in the machine-readable format
	// as fields.
	st := docStore(t, docs, func(path, text string) string {
		if strings.HasSuffix(path, "/copyright") && strings.Contains(text, "Files:") {
			return kindFields
		}
		return ""
	})
	r, err := Build(Deps{Searcher: st}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"yq licence", "what licence is yq distributed under"} {
		s, err := r.Invoke(ctx, State{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		cited := len(s.Answer.Citations) > 0 && s.Answer.Citations[0].Hit.Source.Path == "/usr/share/doc/yq/copyright"
		if s.Answer.Abstained || !strings.Contains(s.Answer.Text, "Apache-2.0") || !cited {
			t.Errorf("%q: answer %q (abstained %v; %s), want yq's License: Apache-2.0 cited", q, s.Answer.Text, s.Answer.Abstained, s.Measured)
		}
	}
}
