package nodes

import (
	"slices"
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

// A manual page records who wrote the program in its AUTHOR section,
// which names no word of the question: asked who wrote the program, the
// section is read before the other pages' passages that mention it.
func TestAskingWhoWroteReadsTheAuthorSection(t *testing.T) {
	page := func(name, heading, text string, n int) graphrag.Hit {
		h := fileHit("/usr/share/man/man1/"+name+".1.gz", "man", text)
		h.Chunk.Heading, h.Chunk.ID, h.Source.Title = heading, graphrag.ChunkID(h.Source.Path, n), name
		return h
	}
	hits := []graphrag.Hit{
		page("zorp_renamectl", "SEE ALSO", "zorp_createctl(8), zorp_dropctl(8), zorp_lsctl(1)", 0),
		page("zorp_upgradectl", "SEE ALSO", "zorp_createctl(8), zorp_dropctl(8), zorp_lsctl(1)", 0),
		page("zorp_dropctl", "NAME", "zorp_dropctl - completely delete a zorp cluster", 0),
		page("zorp_dropctl", "SYNOPSIS", "zorp_dropctl [--stop] cluster-version cluster-name", 1),
		page("zorp_dropctl", "AUTHOR", "Ada Quill <ada@example.org>", 2),
	}
	kept, _, _ := gradeByConstraints("who wrote zorp_dropctl", hits, nil, RetrievalGood, 3)
	if !slices.ContainsFunc(kept, func(h graphrag.Hit) bool { return h.Chunk.Heading == "AUTHOR" }) {
		var got []string
		for _, h := range kept {
			got = append(got, h.Source.Title+" "+h.Chunk.Heading)
		}
		t.Errorf("kept %q: want the AUTHOR section", got)
	}
}
