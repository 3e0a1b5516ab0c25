package nodes

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/graphrag/graphrag"
)

func TestPackageNames(t *testing.T) {
	for q, want := range map[string][]string{
		"Who owns the copyright of the zorp-utils package?":           {"zorp-utils"},
		"what changed in frobd's changelog last year":                 {"frobd"},
		"which files does the frob tool read":                         {"frob"},
		"who wrote zorp":                                              nil,
		"Which person is copyright holder for zorp-utils since 2001?": {"zorp-utils"},
		"what does the README say for 2009":                           nil,
		"what is the package manager's cache folder":                  nil,
	} {
		if got := packageNames(q); !slices.Equal(got, want) {
			t.Errorf("packageNames(%q) = %q, want %q", q, got, want)
		}
	}
}

// A package's copyright file may never write the name it is filed under:
// a question that names the package finds the folder's files anyway.
func TestSearchFindsTheNamedPackagesFolder(t *testing.T) {
	var docs []graphrag.Hit
	for i, name := range []string{"libfrob1", "libfrob2", "frob-tools", "libzorp3", "zorp-data"} {
		h := fileHit("/usr/share/doc/"+name+"/copyright", "", "Format: machine-readable copyright\nFiles: *\nCopyright: 2001 Frob Maintainers\nLicense: GPL-2+\nComment: packaged with zorp-utils helpers for the frob suite")
		h.Chunk.ID = graphrag.ChunkID(h.Source.Path, i)
		docs = append(docs, h)
	}
	own := fileHit("/usr/share/doc/zorp-utils/copyright", "", "Format: machine-readable copyright\nFiles: *\nCopyright: 1999 Ada Quux\nLicense: MIT")
	docs = append(docs, own)
	if got := retrievedPaths(t, docs, "Who owns the copyright of the zorp-utils package?"); !slices.Contains(got, own.Source.Path) {
		t.Errorf("hits %q: want zorp-utils/copyright among them", got)
	}
}

// retrievedPaths retrieves for q over docs, three hits, and returns the
// hits' paths.
func retrievedPaths(t *testing.T, docs []graphrag.Hit, q string) []string {
	t.Helper()
	p, err := newPipeline(Deps{Searcher: newMemSearcher(docs)}, Options{K: 3, MaxKept: 3})
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.retrieve(context.Background(), State{Query: q, Plan: graphrag.Plan{Route: graphrag.RouteVector, Query: q}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range s.Hits {
		got = append(got, h.Source.Path)
	}
	return got
}

// A question may write a constant's name out in words: the declaration
// it spells is read first.
func TestSpelledOutDeclarationIsReadFirst(t *testing.T) {
	typ := fileHit("/src/zorp/scan.go", "go", "// Reader reads frobs from a zorp, one token at a time.\ntype Reader struct {\n\tbuf []byte\n}")
	typ.Chunk.ID, typ.Chunk.Symbol, typ.Chunk.Kind = "scan#0", "zorp.Reader", "type"
	size := fileHit("/src/zorp/scan.go", "go", "// MaxFrobTokenSize is the largest token a Reader buffers.\nconst MaxFrobTokenSize = 32 * 1024")
	size.Chunk.ID, size.Chunk.Symbol, size.Chunk.Kind = "scan#1", "zorp.MaxFrobTokenSize", "const"
	hits := []graphrag.Hit{typ, size}
	got := preferHits("zorp.Reader gives up on long lines: what is the max token size it buffers?", hits, hits[:1], nil, 1)
	if len(got) == 0 || got[0].Chunk.Symbol != "zorp.MaxFrobTokenSize" {
		t.Errorf("read first: %v, want zorp.MaxFrobTokenSize", got)
	}
	if spelledOut("MaxFrobTokenSize", func() map[string]bool { return looseSet("what is the size of a frob") }) {
		t.Error("two words of four spell out no name")
	}
}

// The search's best passage is read even when the passages of the page
// the question names are ordered by how many of its words they hold: the
// ones that say "start", "run" and "systemd" do not say which port.
func TestTheSearchsBestPassageIsRead(t *testing.T) {
	page := "/usr/share/man/man8/quilld.8.gz"
	port := fileHit(page, "gz", "quilld listens on TCP port 7101 unless told otherwise.")
	port.Chunk.ID = graphrag.ChunkID(page, 0)
	hits := []graphrag.Hit{port}
	for i, text := range []string{
		"--foreground Run quilld in the foreground when you start it from systemd.",
		"--user name Run as this user when started by root or systemd.",
		"--pidfile file Where to write the process id when quilld is started by systemd.",
		"--config file Read this file when quilld starts; systemd units pass it.",
		"--log-level level How much quilld logs when systemd starts it.",
	} {
		h := fileHit(page, "gz", text)
		h.Chunk.ID = graphrag.ChunkID(page, i+1)
		hits = append(hits, h)
	}
	kept := preferHits("which port does quilld use when I start it from systemd", hits, hits[:5], nil, 5)
	if !slices.ContainsFunc(kept, func(h graphrag.Hit) bool { return h.Chunk.ID == port.Chunk.ID }) {
		t.Errorf("kept %d passages without the search's best one", len(kept))
	}
}

// A pasted error message is found where the files write it, though the
// question's other words rank the code that returns it higher.
func TestSearchFindsAQuotedMessage(t *testing.T) {
	var docs []graphrag.Hit
	for i := range 6 {
		h := fileHit(fmt.Sprintf("/src/quill/fold%d.go", i), "go", fmt.Sprintf("// Fold%d folds the quill before Stack stacks it; Fold%d fails on a sealed quill\n// that cannot bend.\nfunc Fold%d(q *Quill) error { return q.fold() }", i, i, i))
		h.Chunk.ID = graphrag.ChunkID(h.Source.Path, 0)
		docs = append(docs, h)
	}
	msg := fileHit("/src/quill/errors.go", "go", "var (\n\tErrSealed = errors.New(\"quill is sealed and cannot bend\")\n\tErrTorn = errors.New(\"quill torn\")\n)")
	docs = append(docs, msg)
	q := `Fold on a quill gives "quill is sealed and cannot bend" before Stack, why does Fold fail?`
	if got := retrievedPaths(t, docs, q); !slices.Contains(got, msg.Source.Path) {
		t.Errorf("hits %q: want errors.go, which writes the quoted message", got)
	}
	for q, want := range map[string][]string{
		`it says “Quill  is sealed” and ` + "`fold --all now`": {"quill is sealed", "fold --all now"},
		`what does "quill torn" mean`:                          nil,
	} {
		if got := quotedPhrases(q); !slices.Equal(got, want) {
			t.Errorf("quotedPhrases(%q) = %q, want %q", q, got, want)
		}
	}
}

// Asked for a package's licence, the package's copyright file answers,
// though it never writes the package's name and its changelog, which
// does in every entry, outranks it: the copyright file of the folder a
// hit is in, named by the question as Debian packages it, is searched.
func TestLicenceQuestionFindsThePackagesCopyrightFile(t *testing.T) {
	var docs []graphrag.Hit
	changelog := fileHit("/usr/share/doc/libzorp2/changelog.Debian.gz", "", "zorp (2.1-1) unstable; urgency=medium\n  * New upstream release of zorp.\n  * Update the zorp license year.\n -- Ann Smith <ann@example.org>")
	docs = append(docs, changelog)
	for i, name := range []string{"libfrob1", "libquux3", "frob-tools", "quux-data"} {
		h := fileHit("/usr/share/doc/"+name+"/copyright", "", "Files: *\nCopyright: 2001 Frob Maintainers\nLicense: GPL-2+\n This license applies to the frob license helpers; see the license text.")
		h.Chunk.ID = graphrag.ChunkID(h.Source.Path, i)
		docs = append(docs, h)
	}
	own := fileHit("/usr/share/doc/libzorp2/copyright", "", "Files: *\nCopyright: 1999 Ada Quux\nLicense: MIT")
	docs = append(docs, own)
	if got := retrievedPaths(t, docs, "zorp license"); !slices.Contains(got, own.Source.Path) {
		t.Errorf("hits %q: want libzorp2/copyright among them", got)
	}
}

// Asked who made a package, its copyright file is the record that
// answers: found among the hits, though the changelog that names the
// package in every entry ranks above it, it comes first, where evidence
// weighs the question's words.
func TestAuthorQuestionPutsTheNamedCopyrightFileFirst(t *testing.T) {
	var docs []graphrag.Hit
	for i := range 2 {
		h := fileHit("/usr/share/doc/zorp-data/changelog.Debian.gz", "", fmt.Sprintf("zorp-data (1.%d-1) unstable; urgency=medium\n  * Frobnix packaging of zorp-data: the zorp-data maintainers list the helper's writers.\n -- Ann Smith <ann@example.org>", i))
		h.Chunk.ID = graphrag.ChunkID(h.Source.Path, i)
		docs = append(docs, h)
	}
	own := fileHit("/usr/share/doc/zorp-data/copyright", "", "Source Package: zorp\nFrobnix maintainers: Bea Frobisher and others\n\nCopyright 2004 Quux Ltd.")
	docs = append(docs, own)
	got := retrievedPaths(t, docs, "Which Frobnix maintainers does zorp-data list, and who wrote the helper?")
	if len(got) == 0 || got[0] != own.Source.Path {
		t.Errorf("hits %q: want zorp-data/copyright first", got)
	}
}

// Asked who made a package's Debian packaging, or when, the package's
// copyright file is the record that answers ("This package was
// debianized by …"), though its changelog, which names the package in
// every entry, fills the hits: the copyright file of the folder the
// question names is searched and comes first.
func TestPackagerQuestionPutsTheNamedCopyrightFileFirst(t *testing.T) {
	var docs []graphrag.Hit
	for i := range 4 {
		h := fileHit("/usr/share/doc/libzorp2/changelog.Debian.gz", "", fmt.Sprintf("zorp (2.%d-1) unstable; urgency=medium\n  * New upstream release of zorp, first in Debian.\n -- Ann Smith <ann@example.org>", i))
		h.Chunk.ID = graphrag.ChunkID(h.Source.Path, i)
		docs = append(docs, h)
	}
	for i, name := range []string{"frob", "quux", "libfrob1", "quux-data", "frob-tools", "libquux3"} {
		// Other packages' records say "debianized" as often.
		docs = append(docs, fileHit("/usr/share/doc/"+name+"/copyright", "", fmt.Sprintf("This package was debianized by Packager %d <p%d@example.org> on\nTue, 1 Jun 2004.", i, i)))
	}
	own := fileHit("/usr/share/doc/libzorp2/copyright", "", "This package was debianized by Bea Frobisher <bea@example.org> on\nMon, 12 May 2003 05:14:45 +0900.")
	docs = append(docs, own)
	for _, q := range []string{"Who first debianized zorp for Debian?", "When was zorp first debianized?"} {
		if got := retrievedPaths(t, docs, q); len(got) == 0 || got[0] != own.Source.Path {
			t.Errorf("%s: hits %q, want libzorp2/copyright first", q, got)
		}
	}
}

// Debian ships one source package's changelog in the folder of each
// binary package built from it. Asked about one of those packages, the
// hits hold the copy in its folder, though the search ranked the copies
// in its siblings' folders first; the sibling's copy stays, so that the
// citation names it as a copy.
func TestNamedPackagesCopyOfAChangelogJoinsTheHits(t *testing.T) {
	entry := "quux (4.2-1) trixie; urgency=medium\n  * Stop shipping the frobgate helper setuid root.\n -- Bea Frobisher <bea@example.org>  Mon, 02 Feb 2026 10:00:00 +0000"
	var docs []graphrag.Hit
	for _, name := range []string{"libquux7", "quux-data", "quux-doc", "libquux-dev"} {
		docs = append(docs, fileHit("/usr/share/doc/"+name+"/changelog.Debian.gz", "debian", entry))
	}
	own := fileHit("/usr/share/doc/quux-tools/changelog.Debian.gz", "debian", entry)
	docs = append(docs, own)
	got := retrievedPaths(t, docs, "why did quux-tools stop shipping frobgate setuid")
	if len(got) == 0 || got[0] != own.Source.Path {
		t.Errorf("hits %q: want quux-tools/changelog.Debian.gz first", got)
	}
	if !slices.Contains(got, docs[0].Source.Path) {
		t.Errorf("hits %q: the sibling's copy should stay among them", got)
	}
	// No package named: the hits stay as the search ranked them.
	if got := retrievedPaths(t, docs, "why did frobgate stop being setuid"); slices.Contains(got, own.Source.Path) {
		t.Errorf("hits %q: no package is named, quux-tools' copy should not come in", got)
	}
	// Nor does another file of the named folder that only looks alike.
	docs[len(docs)-1] = fileHit(own.Source.Path, "debian", entry+"\n")
	if got := retrievedPaths(t, docs, "why did quux-tools stop shipping frobgate setuid"); slices.Contains(got, own.Source.Path) {
		t.Errorf("hits %q: quux-tools' changelog differs from the hit's text, it is no copy", got)
	}
}

func TestFolderPrefixes(t *testing.T) {
	terms := contentTerms("zorp")
	got := folderPrefixes("/usr/share/doc/zorp2/changelog.Debian.gz", terms)
	want := []string{"/usr/share/doc/zorp", "/usr/share/doc/libzorp", "/usr/share/doc/python3-zorp"}
	if !slices.Equal(got, want) {
		t.Errorf("folderPrefixes = %q, want %q", got, want)
	}
	for _, id := range []string{"changelog.Debian.gz", "/changelog.Debian.gz"} {
		if got := folderPrefixes(id, terms); got != nil {
			t.Errorf("folderPrefixes(%q) = %q, want none: no folder holds it", id, got)
		}
	}
}
