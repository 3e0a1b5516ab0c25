package text

import "testing"

func TestChangelogRelease(t *testing.T) {
	for _, tc := range []struct{ line, version string }{
		{"zorp (3.4.1-2) bookworm; urgency=medium", "3.4.1-2"},
		{"libzorp-frob (0+git20190715-1) unstable experimental; urgency=low", "0+git20190715-1"},
		{"quill (1:5.4p1-2) bookworm-security; urgency=high", "1:5.4p1-2"},
		{"  * Fix the frob (Closes: #123456).", ""},
		{"Zorp (3.4) is out; urgency=high", ""}, // a package name is lower case
		{"zorp (3.4.1-2) bookworm", ""},         // no urgency: prose
	} {
		m := ChangelogRelease.FindStringSubmatch(tc.line)
		got := ""
		if m != nil {
			got = m[1]
		}
		if got != tc.version {
			t.Errorf("%q: version %q, want %q", tc.line, got, tc.version)
		}
	}
}
