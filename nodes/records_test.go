package nodes

import (
	"testing"

	"github.com/graphrag/graphrag"
)

// A question asking who made a thing or its licence reads the thing's
// record of it before its changelog, which names many people.
func TestAskingWhoMadeItPrefersItsRecord(t *testing.T) {
	hits := []graphrag.Hit{
		fileHit("/doc/zorp/changelog.Debian.gz", "", "zorp (2.1-1) unstable\n  * New upstream release, thanks to Bea Reporter <bea@example.org>.\n -- Al Packer <al@example.org>"),
		fileHit("/doc/zorp/README", "", "zorp compresses snapshots. Send bugs to Cy Keeper <cy@example.org>."),
		fileHit("/doc/zorp/copyright", "", "Files: *\nCopyright: 1994, Dora Firstwriter.\nLicense: BSD-2-clause"),
		fileHit("/doc/zorp/COPYING", "", "Redistribution and use in source and binary forms are permitted."),
	}
	for _, c := range []struct{ q, want string }{
		{"who first wrote zorp", "/doc/zorp/copyright"},
		{"which licence is zorp released under", "/doc/zorp/copyright"},
		// Not an author or licence question: the order is the search's.
		{"what changed in zorp 2.1", "/doc/zorp/changelog.Debian.gz"},
	} {
		kept, _, _ := gradeByConstraints(c.q, hits, hits[:2], RetrievalPoor, 5)
		if len(kept) == 0 || kept[0].Source.Path != c.want {
			t.Errorf("%q: kept %v, want %s first", c.q, paths(kept), c.want)
		}
	}
}
