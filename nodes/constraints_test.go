package nodes

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

func TestQualifiedNamesNeedTheirPackage(t *testing.T) {
	sortHit := fileHit("/go/src/sort/sort.go", "go", "// Reverse returns the reverse order for data.\nfunc Reverse(data Interface) Interface {\n\treturn &reverse{data}\n}")
	sortHit.Chunk.Symbol = "sort.Reverse"
	stringsHit := fileHit("/go/src/strings/strings.go", "go", "// Cut slices s around the first instance of sep.\nfunc Cut(s, sep string) (before, after string, found bool) {")
	stringsHit.Chunk.Symbol = "strings.Cut"
	spec := fileHit("/go/doc/notes.md", "md", "Use strings.Reverse from the x/exp module.")
	for _, tc := range []struct {
		name     string
		question string
		hits     []graphrag.Hit
		want     string
	}{
		{"another package's Reverse", "what does strings.Reverse do", []graphrag.Hit{sortHit, stringsHit}, RetrievalEmpty},
		{"the package's own file", "what does strings.Cut return", []graphrag.Hit{sortHit, stringsHit}, RetrievalGood},
		{"written out in prose", "what does strings.Reverse do", []graphrag.Hit{sortHit, spec}, RetrievalGood},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, r, why := gradeByConstraints(tc.question, tc.hits, tc.hits, RetrievalPoor, 5); r != tc.want {
				t.Errorf("retrieval %s (%s), want %s", r, why, tc.want)
			}
		})
	}
	t.Run("evidence finds the name in its package", func(t *testing.T) {
		join := fileHit("/go/src/errors/join.go", "go", "// Join returns an error that wraps the given errors.\nfunc Join(errs ...error) error {")
		q := "what does errors.Join do"
		if ev := measureQuestion(q, contentTerms(q), []graphrag.Hit{join}, 5); ev.Top < 1 {
			t.Errorf("evidence %+v: want errors.Join found in errors/join.go", ev)
		}
	})
}

func TestNamesMustMeetTheExactTerms(t *testing.T) {
	status := fileHit("/go/src/net/http/status.go", "go", "\tStatusTeapot = 418 // RFC 9110, 15.5.19 (Unused)")
	status.Chunk.Symbol = "http.StatusTeapot"
	python := fileHit("/doc/python3/README", "", "Python's http module and its documentation.")
	hits := []graphrag.Hit{status, python}
	if _, r, why := gradeByConstraints("what is the value of http.StatusTeapot in Python's http module", hits, hits, RetrievalGood, 5); r != RetrievalEmpty || !strings.Contains(why, "python") {
		t.Errorf("retrieval %s (%s): Go's status.go does not answer about Python: want empty", r, why)
	}
	if _, r, _ := gradeByConstraints("what is the value of http.StatusTeapot", hits, hits, RetrievalGood, 5); r != RetrievalGood {
		t.Errorf("retrieval %s: want good without the other product", r)
	}
	sha := fileHit("/go/src/crypto/sha256/sha256.go", "go", "// Package sha256 implements the SHA224 and SHA256 hash algorithms.\nconst BlockSize = 64")
	if _, r, why := gradeByConstraints("what is the block size of SHA-256 in crypto/sha256", []graphrag.Hit{sha}, []graphrag.Hit{sha}, RetrievalPoor, 5); r != RetrievalGood {
		t.Errorf("retrieval %s (%s): SHA-256 is SHA256 without its hyphen", r, why)
	}
	// A name written with underscores is one name: the passage that says
	// $XDG_CONFIG_HOME holds it though it holds no word "xdg".
	if got := properNames("where does git read XDG_CONFIG_HOME from"); !slices.Equal(got, []string{"xdg_config_home"}) {
		t.Errorf("properNames = %q, want the one snake-case name", got)
	}
	git := fileHit("/usr/share/doc/git/config.txt", "txt", "If $XDG_CONFIG_HOME is not set, git reads $HOME/.config/git/config.")
	if _, r, why := gradeByConstraints("where does git read XDG_CONFIG_HOME from", []graphrag.Hit{git}, []graphrag.Hit{git}, RetrievalGood, 5); r != RetrievalGood {
		t.Errorf("retrieval %s (%s): the passage names XDG_CONFIG_HOME, want good", r, why)
	}
	// Names alone (no exact term, no named file) may span passages.
	a := fileHit("/wiki/a.md", "md", "Scott Derrickson is an American director.")
	b := fileHit("/wiki/b.md", "md", "Ed Wood was an American filmmaker.")
	if _, r, _ := gradeByConstraints("Were Scott Derrickson and Ed Wood of the same nationality?", []graphrag.Hit{a, b}, []graphrag.Hit{a, b}, RetrievalGood, 5); r != RetrievalGood {
		t.Errorf("retrieval %s: two people in two passages, want good", r)
	}
}

func TestAbsentWordsEndTheSearch(t *testing.T) {
	c := newMemSearcher([]graphrag.Hit{
		doc("pg", "Cluster setup", "The first cluster runs on the default port 5432."),
		doc("art", "Museum", "John Sheepshanks gave 233 paintings to the museum."),
	})
	p, _ := newPipeline(Deps{Searcher: c}, DefaultOptions())
	s := State{Plan: graphrag.Plan{Route: graphrag.RouteVector}}
	best := c.docs
	for _, tc := range []struct {
		word   string
		absent bool
	}{
		{"redis", true},
		{"ports", false},      // an inflection of a word the files hold
		{"sheeshanks", false}, // a misspelling of a name the best hits hold
		{"paintings", false},
	} {
		got := p.absentWords(context.Background(), &s, []string{tc.word}, best)
		if (len(got) > 0) != tc.absent {
			t.Errorf("absentWords(%q) = %v, want absent %v", tc.word, got, tc.absent)
		}
	}
}

// A word the files hold once, in a passage holding nothing else the
// question asks, is not what the files are about: the whole run abstains
// though the question's other words match a manual well.
func TestWordHeldOnlyInPassing(t *testing.T) {
	c := newMemSearcher([]graphrag.Hit{
		doc("ssh", "sshd notes", "The SSH server listens on port 22 by default; set Port in sshd_config to change it."),
		doc("ssh2", "sshd keys", "The SSH server reads its host keys at start; the default key type is ed25519."),
		doc("chat", "README", "Thanks to the wombat forum for hosting our chat room."),
		doc("forum", "README", "Thanks to the wombat forum for a good start."),
		doc("http", "transfer.go", "Like wombat, we allow one Transfer-Encoding header: it is security sensitive."),
		fileHit("/usr/share/doc/numbat/changelog.Debian.gz", "gz", "numbat (2.1-1) unstable; urgency=medium\n\n  * Build with hardening flags."),
		doc("http2", "transport.go", "Like numbat, we allow one Transfer-Encoding header: it is security sensitive."),
	})
	p, _ := newPipeline(Deps{Searcher: c}, DefaultOptions())
	const atStart = "which port does the wombat SSH server listen on at start"
	if w := contentTerms(atStart)[len(contentTerms(atStart))-1]; w.Word != "start" || w.specific() {
		t.Fatalf("the fixture wants start an everyday word, got %+v", w)
	}
	for _, tc := range []struct {
		question, word string
		absent         bool
	}{
		{"which port does the wombat SSH server listen on by default", "wombat", true},
		{"where do the wombat developers chat", "wombat", false}, // the passage holds "developers"
		// An everyday word beside it is no sign a passage speaks of it: a
		// good start thanks to the wombat forum says nothing of the port
		// the wombat server listens on at start.
		{atStart, "wombat", true},
		{"which key type does the SSH server use by default", "ed25519", false},
		// A word of a package path the question names is matched against
		// file paths (matchConstraints), not searched for in passages.
		{"what does Drain return in queue/wombat", "wombat", false},
		// A name written as a package's is held by the package's own
		// files: code that names it beside the word security says
		// nothing of the package's security fixes.
		{"which security fix came last in the wombat package", "wombat", true},
		{"which security fix came last in the numbat package", "numbat", false},
	} {
		s := State{Query: tc.question, Plan: graphrag.Plan{Route: graphrag.RouteVector}}
		if got := p.absentWords(context.Background(), &s, []string{tc.word}, c.docs[:2]); (len(got) > 0) != tc.absent {
			t.Errorf("%q: absentWords(%q) = %v, want absent %v", tc.question, tc.word, got, tc.absent)
		}
	}
	// Through the graph: retrieval matched well, and still nothing answers.
	s, err := p.evaluate(context.Background(), State{Query: "which port does the wombat SSH server listen on by default", Plan: graphrag.Plan{Route: graphrag.RouteVector}, Hits: c.docs[:2], Budget: Budget{Retrieve: 2}})
	if err != nil || s.Retrieval != RetrievalEmpty {
		t.Errorf("evaluate: retrieval %s (%s), err %v: want empty, wombat is named only in passing", s.Retrieval, s.Measured, err)
	}
	// A word no passage holds at all is as often the question's own
	// wording: when the rest matches well, it does not end the search.
	s, err = p.evaluate(context.Background(), State{Query: "which port does the SSH daemon listen on by default", Plan: graphrag.Plan{Route: graphrag.RouteVector}, Hits: c.docs[:2], Budget: Budget{Retrieve: 2}})
	if err != nil || s.Retrieval != RetrievalGood {
		t.Errorf("evaluate: retrieval %s (%s), err %v: want good, daemon is the question's word for server", s.Retrieval, s.Measured, err)
	}
}

// A word held in passing within the question's scope (the folder it names)
// is a word of the files when passages across the store hold it: "how am I
// supposed to build it" over a folder whose one other passage says
// "supposed" is answered.
func TestAWordInPassingIsCheckedStoreWide(t *testing.T) {
	cmd := fileHit("/src/zorp/types/zorptype.go", "go", "// The zorptype command has an ignore build tag: build this command explicitly with go build zorptype.go")
	docs := []graphrag.Hit{cmd, fileHit("/src/zorp/types/value.go", "go", "// A value is supposed to stay immutable.")}
	for i := range passingMentions {
		docs = append(docs, doc(fmt.Sprintf("n%d", i), "notes", "It was supposed to rain today."))
	}
	p, _ := newPipeline(Deps{Searcher: newMemSearcher(docs)}, DefaultOptions())
	q := "There's a zorptype.go file in zorp/types with an ignore tag. How am I supposed to build that command?"
	s, err := p.evaluate(context.Background(), State{Query: q, Plan: graphrag.Plan{Route: graphrag.RouteVector, SourceHint: "zorp/types"}, Hits: []graphrag.Hit{cmd}})
	if err != nil || s.Retrieval != RetrievalGood {
		t.Errorf("evaluate: retrieval %s (%s), err %v: want good, \"supposed\" is a word of the files", s.Retrieval, s.Measured, err)
	}
}

// A word the best hits hold only beside none of the question's other words
// is checked against the store like a word they do not hold.
func TestPassingWords(t *testing.T) {
	comment := fileHit("/src/proxy/transport.go", "go", "// Skip compression for HEAD: older quokkad releases mishandle it.")
	licence := fileHit("/usr/share/doc/libfoo/copyright", "", "License: MIT. This software may be distributed and changed freely.")
	own := fileHit("/usr/share/doc/quokkad/copyright", "", "quokkad is distributed under the BSD license.")
	q := "what license is quokkad distributed under"
	if got := passingWords(contentTerms(q), []graphrag.Hit{comment, licence}); !slices.Equal(got, []string{"quokkad"}) {
		t.Errorf("passingWords = %q, want quokkad: the one hit naming it holds no other word of the question", got)
	}
	if got := passingWords(contentTerms(q), []graphrag.Hit{comment, licence, own}); len(got) > 0 {
		t.Errorf("passingWords = %q, want none: quokkad's copyright file names it with its licence", got)
	}
	// A passage about the word (its title names it) is the word's own,
	// whatever else it holds: a question about two people finds each in
	// their own passage.
	a := doc("a", "Quokkasson", "Quokkasson was a painter born in Perth.")
	b := doc("b", "Wallabyne", "Wallabyne was a painter and a poet.")
	if got := passingWords(contentTerms("what job did Quokkasson and Wallabyne share"), []graphrag.Hit{a, b}); len(got) > 0 {
		t.Errorf("passingWords = %q, want none: each name has its own passage", got)
	}
	// Through evaluate: the store names quokkad only in the comment.
	c := newMemSearcher([]graphrag.Hit{comment, licence})
	p, _ := newPipeline(Deps{Searcher: c}, DefaultOptions())
	s, err := p.evaluate(context.Background(), State{Query: q, Plan: graphrag.Plan{Route: graphrag.RouteVector}, Hits: []graphrag.Hit{licence, comment}, Budget: Budget{Retrieve: 2}})
	if err != nil || s.Retrieval != RetrievalEmpty {
		t.Errorf("evaluate: retrieval %s (%s), err %v: want empty", s.Retrieval, s.Measured, err)
	}
}

// A release asked about by its bare number must follow its name in a hit:
// the manual of release 7 does not answer about release 9, and a "9" elsewhere
// in it is no release.
func TestBareReleaseNumberMeetsItsName(t *testing.T) {
	page := fileHit("/usr/share/man/man1/quillctl.1", "1", "quillctl - manage Quill queues. Quill 7 added the --drain option; 9 queues at most are kept.")
	hits := []graphrag.Hit{page}
	for _, tc := range []struct {
		question, want string
	}{
		{"what is new in quillctl in Quill 9", RetrievalEmpty},
		{"what is new in quillctl in Quill 7", RetrievalGood},
		{"what changed in quillctl since Quill version 7", RetrievalGood},
	} {
		if _, r, why := gradeByConstraints(tc.question, hits, hits, RetrievalGood, 5); r != tc.want {
			t.Errorf("%q: retrieval %s (%s), want %s", tc.question, r, why, tc.want)
		}
	}
	// A number after a name that no release word leads to is a code or a
	// count, not a release.
	for _, q := range []string{"what does HTTP 418 mean", "who wrote ISO 8601", "what does Quill 7.2 fix", "how many queues in 2019"} {
		if got := releaseNames(q); len(got) > 0 {
			t.Errorf("releaseNames(%q) = %v, want none", q, got)
		}
	}
}

func TestOneEdit(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"sheeshanks", "sheepshanks", true},
		{"apatim", "apratim", true},
		{"filmakers", "filmmakers", true},
		{"recieve", "receive", true},
		{"redis", "redis", false},
		{"redis", "radish", false},
		{"cheetah", "cheat", false},
	} {
		if got := oneEdit(tc.a, tc.b); got != tc.want {
			t.Errorf("oneEdit(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// "File" after another word says what kind of file the question means:
// the zorp package's copyright file is not a file of a package called
// file, nor frob/file.go.
func TestNameWordsFileAsAKind(t *testing.T) {
	for q, named := range map[string]bool{
		"Who holds the copyright in zorp's copyright file?":     false,
		"How do I read a frob config file with the library?":    false,
		"Which header files does quill install?":                false,
		"What does file print for an empty zorp?":               true,
		"Is the file command's magic list in the zorp package?": true,
		"Does zorp.File close its spool when it is collected?":  true,
	} {
		words := nameWords(q)
		if got := slices.Contains(words, "file") || slices.Contains(words, "files"); got != named {
			t.Errorf("%q: names a file called file: %v, want %v (%v)", q, got, named, words)
		}
	}
	if !slices.Contains(nameWords("Who holds the copyright in zorp's copyright file?"), "copyright-file") {
		t.Errorf("the pair is no longer kept")
	}
}

func TestNameWordsJoinNeighbours(t *testing.T) {
	words, weight := nameWordsWeighted("does VACUUM FULL lock the table?")
	for w, n := range map[string]int{"vacuum": 1, "vacuum-full": 2, "vacuum_full": 2, "full": 1} {
		if !slices.Contains(words, w) || weight[w] != n {
			t.Errorf("name word %q: in %v with weight %d, want weight %d", w, words, weight[w], n)
		}
	}
	if _, weight := nameWordsWeighted("How much was invoice INV-2024-0117?"); weight["inv-2024-0117"] != 1 {
		t.Errorf("a hyphenated word as written stands for one word, got %d", weight["inv-2024-0117"])
	}
	// Longer runs name a page too, a function word in capitals inside a
	// run in capitals with them ("SYNC ZORP AS" names SYNC_ZORP_AS.7, not
	// SYNC_ZORP.7); a lower-case function word ends a run.
	words, weight = nameWordsWeighted("does SYNC ZORP AS block readers, or the frob text search configuration as a whole?")
	for w, n := range map[string]int{"sync_zorp_as": 3, "sync_zorp": 2, "frob_text_search": 3, "frob_text_search_configuration": 4, "text-search-configuration": 3} {
		if !slices.Contains(words, w) || weight[w] != n {
			t.Errorf("name word %q: in %v with weight %d, want weight %d", w, words, weight[w], n)
		}
	}
	for _, w := range []string{"zorp_as_block", "as_block", "configuration_as", "block_readers_frob"} {
		if slices.Contains(words, w) {
			t.Errorf("name word %q joins across a run's end: %v", w, words)
		}
	}
	page := fileHit("/usr/share/man/man7/SYNC_ZORP_AS.7.gz", "7", "SYNC ZORP AS copies a zorp while readers go on reading it.")
	other := fileHit("/usr/share/man/man7/SYNC_ZORP.7.gz", "7", "SYNC ZORP blocks readers until the zorp is copied.")
	other.Chunk.ID = "other"
	if kept := preferHits("does SYNC ZORP AS block readers", []graphrag.Hit{other, page}, nil, nil, 1); len(kept) == 0 || kept[0].Source.Path != page.Source.Path {
		t.Errorf("read first: %v, want SYNC_ZORP_AS.7", paths(kept))
	}
	if !slices.ContainsFunc(questionTerms("what is sync.Once for"), func(t term) bool { return t.Word == "once" }) {
		t.Error(`questionTerms drops "once" of sync.Once: the identifier asked about is no stop word`)
	}
}

// An option keeps its dashes and a setting its value: a page that has the
// word but not the option, or the setting with other values, does not
// answer about them.
func TestOptionsAndSettingsAreMatchedAsWritten(t *testing.T) {
	page := fileHit("/man/man1/backupctl.1", "1", "-q, --quiet\n    Print nothing. Useful for cron jobs and scripts.")
	conf := fileHit("/etc/fetchd/notes.txt", "txt", "Set loglevel=debug to see every request; loglevel=info is the default.")
	for _, tc := range []struct {
		name, question string
		hit            graphrag.Hit
		want           string
	}{
		{"an option the page lacks, its word there", "what does backupctl --jobs do", page, RetrievalEmpty},
		{"an option the page has", "what does backupctl --quiet do", page, RetrievalGood},
		{"a setting with another value", "what does the loglevel=trace setting do", conf, RetrievalEmpty},
		{"a setting with its value", "what does the loglevel=debug setting do", conf, RetrievalGood},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r, why := gradeOne(tc.question, tc.hit); r != tc.want {
				t.Errorf("retrieval %s (%s), want %s", r, why, tc.want)
			}
		})
	}
	if got := constrainingTerms("how do I dump with --format=custom"); slices.Contains(got, "format=custom") {
		t.Errorf("constrainingTerms = %q: an option's value is not a setting of its own", got)
	}
}

// A package or folder path the question names is met by a hit under it,
// however few of the question's other words the hit holds; a path no hit
// lies under ("and/or") constrains nothing.
func TestANamedPathIsMetByAHitUnderIt(t *testing.T) {
	reader := fileHit("/src/lib/parsers/ini/reader.go", "go", "// SkipEmpty makes Read drop a key that has no value.\nSkipEmpty bool")
	other := fileHit("/src/lib/parsers/toml/reader.go", "go", "// Strict makes Read fail on a duplicate key.\nStrict bool")
	q := "my parsers/ini config has lines like name= with nothing after, which switch ignores those"
	hits := []graphrag.Hit{reader, other}
	kept, r, why := gradeByConstraints(q, hits, hits, RetrievalPoor, 5)
	if r != RetrievalGood || len(kept) == 0 || kept[0].Source.Path != reader.Source.Path {
		t.Errorf("retrieval %s (%s), first kept %v: want good, the file under parsers/ini first", r, why, kept)
	}
	if m := matchConstraints("can the cache be read and/or written while it syncs", hits); slices.Contains(m.Terms, "and/or") {
		t.Errorf("terms %q: and/or is no path", m.Terms)
	}
	if m := matchConstraints("what does parsers/yaml do with tabs", hits); len(m.Missing) > 0 || len(m.Terms) > 0 {
		t.Errorf("terms %q missing %q: a path no hit lies under constrains nothing", m.Terms, m.Missing)
	}
}

// Names are matched as files write them: names joined by "/" each on its
// own ("darwin/zorpOS" in a switch's case list), an acronym's plural as
// the acronym ("URLs" where the file says URL).
func TestNamesAreMatchedAsFilesWriteThem(t *testing.T) {
	conf := fileHit("/src/net/zorpconf.go", "go", "// zorpOS pops up dialog boxes if programs send their own DNS queries.\nswitch runtime.GOOS {\ncase \"darwin\", \"zorpos\":\n\treturn hostLookupCgo\n}")
	transport := fileHit("/src/net/http/frobtransport.go", "go", "// NewFrobTransport returns a RoundTripper that serves a URL from the frob store.\nfunc NewFrobTransport(s FrobStore) RoundTripper {")
	for _, tc := range []struct {
		question string
		hit      graphrag.Hit
		want     string
	}{
		{"Why does the resolver default to cgo on darwin/zorpOS?", conf, RetrievalGood},
		{"Why does the resolver default to cgo on darwin/plan9OS?", conf, RetrievalEmpty},
		{"Can a client fetch frob:// URLs? Which RoundTripper serves them?", transport, RetrievalGood},
		{"Can a client fetch frob:// URIs? Which RoundTripper serves them?", transport, RetrievalEmpty},
	} {
		if r, why := gradeOne(tc.question, tc.hit); r != tc.want {
			t.Errorf("%q: retrieval %s (%s), want %s", tc.question, r, why, tc.want)
		}
	}
}

// A dotted name written as a package's ("the frob.io package") is asked
// about whole: its last part alone is any word ("io" of "io limits").
// One in running text keeps its last part as the name asked about, as Go
// writes a qualified name its own files write unqualified.
func TestADottedPackageNameIsHeldWhole(t *testing.T) {
	zorpd := fileHit("/usr/share/doc/zorpd/changelog.Debian.gz", "gz", "zorpd (1.2-1) unstable; urgency=medium\n\n  * Fix cgroup v2 detection of io limits. Closes: #104233")
	frob := fileHit("/usr/share/doc/frob.io/changelog.Debian.gz", "gz", "frob.io (20.10-1) unstable; urgency=medium\n\n  * Fix cgroup v2 detection. Closes: #104234")
	for _, tc := range []struct {
		question string
		hit      graphrag.Hit
		want     string
	}{
		{"Which bug does the frob.io changelog close for the cgroup v2 fix?", zorpd, RetrievalEmpty},
		{"What licence is Debian's frob.io package under?", zorpd, RetrievalEmpty},
		{"Which bug does the frob.io changelog close for the cgroup v2 fix?", frob, RetrievalGood},
		// After a kind of document too.
		{"Which bug does the changelog of frob.io close for the cgroup v2 fix?", zorpd, RetrievalEmpty},
		{"What does the README.Debian of frob.io say about cgroup v2?", zorpd, RetrievalEmpty},
		{"Which bug does the changelog of frob.io close for the cgroup v2 fix?", frob, RetrievalGood},
	} {
		if r, why := gradeOne(tc.question, tc.hit); r != tc.want {
			t.Errorf("%q over %s: retrieval %s (%s), want %s", tc.question, tc.hit.Source.Path, r, why, tc.want)
		}
	}
	if names := packageNames("What does the README.Debian of zorpd say about the copyright file of quill?"); !slices.Equal(names, []string{"zorpd", "quill"}) {
		t.Errorf("package names %v: want zorpd and quill, each after a kind of document", names)
	}
	if terms := constrainingTerms("What does runtime.zorpark do to the calling goroutine?"); !slices.Contains(terms, "zorpark") {
		t.Errorf("terms %v: want the qualified name's last part, zorpark", terms)
	}
}

// A name glued to its release ("quux8.2") is a package's name: another
// package's changelog with an 8.2 release does not answer about it.
func TestANameGluedToItsReleaseIsExact(t *testing.T) {
	zorp := fileHit("/usr/share/doc/zorp/changelog.Debian.gz", "gz", "zorp (8.2.7-1~deb12u1) bookworm-security; urgency=medium\n\n  * Fix CVE-2024-10234.")
	quux := fileHit("/usr/share/doc/quux8.2/changelog.Debian.gz", "gz", "quux8.2 (8.2.20-1~deb12u1) bookworm-security; urgency=medium\n\n  * Fix CVE-2024-10235.")
	q := "Which CVEs were fixed in the latest quux8.2 Debian security upload?"
	for _, tc := range []struct {
		hit  graphrag.Hit
		want string
	}{{zorp, RetrievalEmpty}, {quux, RetrievalGood}} {
		if r, why := gradeOne(q, tc.hit); r != tc.want {
			t.Errorf("over %s: retrieval %s (%s), want %s", tc.hit.Source.Path, r, why, tc.want)
		}
	}
}

// A version after a name must be written as that name's version: next to
// it, in a changelog header, as the file's own release or in the file's
// path. Another name's version in the same file does not answer.
func TestVersionMeetsItsName(t *testing.T) {
	news := fileHit("/usr/share/doc/quill/NEWS.Debian.gz", "", "quill (1.8-1) unstable; urgency=low\n\n"+
		"  quill-admin --cache now keeps its index in Gizmo DB version 4.2; an index made by an older\n"+
		"  quill is converted on first use.")
	gnu := fileHit("/usr/share/doc/quill/NEWS.gz", "", "* Noteworthy changes in release 3.1 (2031-02-03) [stable]\n\n"+
		"** New features\n\n  quill --fold now folds long lines at word boundaries.")
	notes := fileHit("/usr/share/doc/quill/notes/5.7.0.txt", "", "Fixes since the last release\n\n * quill log no longer loses the --since date.")
	glued := fileHit("/usr/share/doc/quill/README", "", "Built and tested against quill2.6 and Wombat 7.1.")
	packaged := fileHit("/usr/share/doc/libgizmo5.3/copyright", "", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: Gizmo\nComment: packaged from the last upstream tarball.")
	// A binary package's changelog names its source package in each entry.
	source := fileHit("/usr/share/doc/libwombat-java/changelog.Debian.gz", "", "wombat-java (3.4-1) unstable; urgency=medium\n\n"+
		"  * New upstream release.")
	renamed := fileHit("/usr/share/doc/libgizmo-java/changelog.Debian.gz", "", "gizmo-libraries (8.1-2) unstable; urgency=medium\n\n  * Build with Quill 5.")
	// A version with no dot is one by its Debian revision.
	undotted := fileHit("/usr/share/doc/libzorp-parent-java/changelog.Debian.gz", "", "zorp-parent (35-1) unstable; urgency=medium\n\n"+
		"  * Install the new zorp-extensions pom.\n\n -- Quill Admin <q@example.org>  Sat, 01 Jan 2022 10:00:00 +0000")
	// A Debian epoch ("3:") stands between the entry's "(" and its version.
	epoch := fileHit("/usr/share/doc/libfrob7/changelog.Debian.gz", "", "frob (3:7.12-1) unstable; urgency=medium\n\n"+
		"  * debian/libfrob7.symbols: add frob_open_at.")
	for _, tc := range []struct {
		question string
		hits     []graphrag.Hit
		want     string
	}{
		{"what changed in quill 4.2", []graphrag.Hit{news}, RetrievalEmpty},        // Gizmo DB's 4.2
		{"what changed in quill 1.8-1", []graphrag.Hit{news}, RetrievalGood},       // its changelog header
		{"what is new in quill 3.1", []graphrag.Hit{gnu}, RetrievalGood},           // the file's own release
		{"what is new in quill 3.10", []graphrag.Hit{gnu}, RetrievalEmpty},         // 3.1 is not 3.10
		{"what was fixed in quill 5.7.0", []graphrag.Hit{notes}, RetrievalGood},    // the path holds it
		{"what was fixed in quill 5.7", []graphrag.Hit{notes}, RetrievalGood},      // 5.7.0 is a 5.7
		{"what was fixed in quill 2.6", []graphrag.Hit{glued}, RetrievalGood},      // "quill2.6"
		{"what was fixed in quill 7.1", []graphrag.Hit{glued}, RetrievalEmpty},     // Wombat's 7.1
		{"what was fixed in quill 4.2", []graphrag.Hit{news, gnu}, RetrievalEmpty}, // none of them
		{"what licence covers Gizmo 5.3", []graphrag.Hit{packaged}, RetrievalGood}, // its package, "libgizmo5.3"
		{"what licence covers Gizmo 5.30", []graphrag.Hit{packaged}, RetrievalEmpty},
		{"what licence covers Gizmo 3", []graphrag.Hit{packaged}, RetrievalGood},         // no version asked: no constraint
		{"what changed in libwombat-java 3.4-1", []graphrag.Hit{source}, RetrievalGood},  // its folder's entry
		{"what changed in gizmo 8.1-2", []graphrag.Hit{renamed}, RetrievalGood},          // its source, gizmo-libraries
		{"what changed in libquill-java 8.1-2", []graphrag.Hit{renamed}, RetrievalEmpty}, // another package's changelog
		{"what changed in the zorp-parent 35-1 upload", []graphrag.Hit{undotted}, RetrievalGood},
		{"what changed in the zorp-parent 40-1 upload", []graphrag.Hit{undotted}, RetrievalEmpty},
		{"who wrote zorp-parent 1996-1998", []graphrag.Hit{undotted}, RetrievalGood}, // years, not a version
		{"which symbol did Frob 7.12 add", []graphrag.Hit{epoch}, RetrievalGood},     // "frob (3:7.12-1)"
		{"which symbol did Frob 7.13 add", []graphrag.Hit{epoch}, RetrievalEmpty},
	} {
		if _, r, why := gradeByConstraints(tc.question, tc.hits, tc.hits, RetrievalGood, 5); r != tc.want {
			t.Errorf("%q: retrieval %s (%s), want %s", tc.question, r, why, tc.want)
		}
	}
}

// An upper-case phrase is a clause of a statement: a hit must hold it as
// written, or each of its words in upper case. Some of its words, or its
// words inside an identifier, are another clause.
func TestKeywordPhraseIsHeldAsAPhrase(t *testing.T) {
	synopsis := fileHit("/usr/share/postgresql/15/man/man7/PRUNE.7.gz", "", "PRUNE [ TABLE ] name [ KEEP HISTORY | DROP HISTORY ]\n\n"+
		"WHEN UNUSED [ AND condition ] THEN { prune_action | DO NOTHING }\n\nA row is unused when its owner has not read it since the last PRUNE.")
	notes := fileHit("/usr/share/doc/quill/RelNotes/2.4.txt", "", " * Calls to flush_ledger() no longer leak the ledger's memory.")
	for _, tc := range []struct {
		question string
		hits     []graphrag.Hit
		want     string
	}{
		{"what does PRUNE KEEP HISTORY do", []graphrag.Hit{synopsis}, RetrievalGood},                         // the words of one clause
		{"how do I skip rows with PRUNE ... WHEN UNUSED BY OWNER", []graphrag.Hit{synopsis}, RetrievalEmpty}, // "BY OWNER" is another clause
		{"what does FLUSH LEDGER clear", []graphrag.Hit{notes}, RetrievalEmpty},                              // an identifier's words
		{"WHAT DOES PRUNE KEEP", []graphrag.Hit{synopsis}, RetrievalGood},                                    // capitals throughout say nothing
	} {
		if _, r, why := gradeByConstraints(tc.question, tc.hits, tc.hits, RetrievalGood, 5); r != tc.want {
			t.Errorf("%q: retrieval %s (%s), want %s", tc.question, r, why, tc.want)
		}
	}
}

// A proper name the question limits its answer to ("on Zephyrix") must be
// in a hit: the Debian way is no answer for another system.
func TestScopeNameMustBeHeld(t *testing.T) {
	readme := fileHit("/usr/share/doc/quill-spool/README.Debian", "", "Put local spool rules as single files ending in .rule into /etc/quill/spool.d/ and reload quilld.")
	news := fileHit("/usr/share/doc/quill/NEWS.gz", "", "The Zephyrix port of quill now builds from the main tree.")
	for _, tc := range []struct {
		question string
		hits     []graphrag.Hit
		want     string
	}{
		{"where do I put local spool rules on Zephyrix", []graphrag.Hit{readme}, RetrievalEmpty},
		{"where do I put local spool rules on Debian", []graphrag.Hit{readme}, RetrievalGood}, // README.Debian
		{"where do I put local spool rules on Zephyrix", []graphrag.Hit{readme, news}, RetrievalGood},
		{"where do I put local spool rules for The Shed", []graphrag.Hit{readme}, RetrievalGood}, // "The" names nothing
	} {
		if _, r, why := gradeByConstraints(tc.question, tc.hits, tc.hits, RetrievalGood, 5); r != tc.want {
			t.Errorf("%q: retrieval %s (%s), want %s", tc.question, r, why, tc.want)
		}
	}
	// "in" names a place as often, which passages write as an adjective.
	if got := scopeNames("what are the tall ships in Norvania called"); len(got) > 0 {
		t.Errorf("scopeNames = %v, want none", got)
	}
}

// TestWeakEvidenceInOnePassage: when refinement is spent and the match is
// weak, a run abstains only if no one passage holds half of what the
// question asks: the question's words spread one by one over passages
// about other things are not an answer, a passage about the question
// asked in the asker's own everyday words may be.
func TestWeakEvidenceInOnePassage(t *testing.T) {
	prune := doc("n1", "Pruning", "zorpctl prune removes the snapshots of a volume that are older than its retention period, unless they are mounted.")
	keep := doc("n2", "Keeping", "zorpctl keep sets how long the snapshots of a volume are kept.")
	lens := doc("n3", "Cameras", "A lens hood keeps stray light off the sensor.")
	snow := doc("n4", "Weather", "Snow closes the pass in winter.")
	p, _ := newPipeline(Deps{Searcher: newMemSearcher([]graphrag.Hit{prune, keep, lens, snow})}, DefaultOptions())
	for _, tc := range []struct {
		question string
		hits     []graphrag.Hit
		want     string
	}{
		{"what does zorpctl prune actually end up doing with my old snapshots these days most of the time", []graphrag.Hit{prune, keep}, RetrievalPoor},
		{"which pass does the zorpctl lens hood close early in winter", []graphrag.Hit{lens, snow, keep}, RetrievalEmpty},
	} {
		s, err := p.evaluate(context.Background(), State{Query: tc.question, Plan: graphrag.Plan{Route: graphrag.RouteVector}, Hits: tc.hits})
		if err != nil || s.Retrieval != tc.want {
			t.Errorf("%q: retrieval %s (%s), err %v: want %s", tc.question, s.Retrieval, s.Measured, err, tc.want)
		}
	}
}

// TestAStatementsValuesAreTheAskers: the lower-case names and quoted
// values of a statement the question quotes are the asker's own, which no
// manual writes: one no passage holds is no missing name. A documented
// name in the same place, held by a passage, stays a constraint.
func TestAStatementsValuesAreTheAskers(t *testing.T) {
	for q, want := range map[string][]string{
		"Why does zapdb reject CREATE VAULT my_vault LOCATION '/srv/v'?":           {"my_vault", "/srv/v"},
		"I ran HAND OVER BY olduser TO newuser, but DROP KEEPER olduser fails":     {"olduser", "newuser"},
		"what does SET page_size do":                                               nil, // one keyword: no statement
		"what does ZAP SYSTEM SET page_size do, and is page_size kept on restart?": {"page_size"},
	} {
		got := statementArguments(q)
		if len(got) != len(want) {
			t.Errorf("statementArguments(%q) = %v, want %v", q, got, want)
		}
		for _, w := range want {
			if !got[w] {
				t.Errorf("statementArguments(%q) lacks %q", q, w)
			}
		}
	}
	page := fileHit("/usr/share/man/man7/CREATE_VAULT.7.gz", "gz", "CREATE VAULT name LOCATION 'directory'\n\nThe name of a vault cannot begin with zap_, as such names are reserved for system vaults.")
	if m := matchConstraints("Why does zapdb reject CREATE VAULT my_vault LOCATION '/srv/v'?", []graphrag.Hit{page}); len(m.Missing) > 0 {
		t.Errorf("missing %v: the asker's vault name is in no manual", m.Missing)
	}
	setting := fileHit("/usr/share/man/man7/ZAP_SYSTEM.7.gz", "gz", "ZAP SYSTEM SET configuration_parameter = value\n\nThe page_size parameter is read at start.")
	if m := matchConstraints("does ZAP SYSTEM SET page_size take effect at once?", []graphrag.Hit{setting}); !slices.Contains(m.Terms, "page_size") {
		t.Errorf("terms %v: a documented parameter stays a constraint", m.Terms)
	}
}

// TestAnAskedNameNoFileHolds: a question that matches its passages well
// but asks about a thing no file anywhere names, written as a name
// (drawing through Kitty, for a terminal whose README never says Kitty),
// is not answered from them. A plain word no file holds may be the asker's own
// wording, and a name in the asker's context, before the sentence that
// asks, is not what is asked: both are answered. A word written before
// the kind of thing it names ("the flintd package") is a name, and so is
// one after the kind of setting it is ("the GODEBUG setting flintmode"),
// before it ("the flintmode setting", "the flintmode GODEBUG setting") or
// before the value it is given ("flintmode = on").
func TestAnAskedNameNoFileHolds(t *testing.T) {
	readme := doc("n1", "zorpterm README", "The zorpterm terminal draws true colour graphics and ligatures on the GPU. The zorpterm terminal supports mouse reporting.")
	oldAPI := doc("n2", "zorp API", "zorp.Old is deprecated: use zorp.New instead, which takes a context.")
	c := newMemSearcher([]graphrag.Hit{readme, oldAPI})
	p, _ := newPipeline(Deps{Searcher: c}, DefaultOptions())
	checkRetrievals(t, p, []retrievalCase{
		{"Does the zorpterm terminal draw true colour graphics on the GPU through Kitty?", []graphrag.Hit{readme}, RetrievalEmpty},
		// The sentence that asks is the one with the question mark,
		// not the statement after it.
		{"Does the zorpterm terminal draw true colour graphics on the GPU through Kitty? I run it on my laptop.", []graphrag.Hit{readme}, RetrievalEmpty},
		{"Does the zorpterm terminal support mouse reporting?", []graphrag.Hit{readme}, RetrievalGood},
		{"Does the zorpterm terminal support tablet graphics?", []graphrag.Hit{readme}, RetrievalGood},
		{"Flintlint says zorp.Old is deprecated. What do I use instead?", []graphrag.Hit{oldAPI}, RetrievalGood},
		// Named by its kind: a word before "package" or "tool" is a
		// name, lower-case or not.
		{"Does the flintd package draw true colour graphics and ligatures on the GPU?", []graphrag.Hit{readme}, RetrievalEmpty},
		{"Does the zorpterm package draw true colour graphics and ligatures on the GPU?", []graphrag.Hit{readme}, RetrievalGood},
		// And before a kind of document a package has.
		{"Does the flintd README say it draws true colour graphics and ligatures on the GPU?", []graphrag.Hit{readme}, RetrievalEmpty},
		{"Does the zorpterm README say it draws true colour graphics and ligatures on the GPU?", []graphrag.Hit{readme}, RetrievalGood},
		// And after the kind of setting it is, or before the value it is
		// given: a setting's name.
		{"Does the zorpterm setting flintmode draw true colour graphics and ligatures on the GPU?", []graphrag.Hit{readme}, RetrievalEmpty},
		{"What default does the terminal setting flintmode have, for true colour graphics and ligatures in zorpterm on the GPU?", []graphrag.Hit{readme}, RetrievalEmpty},
		{"Does zorpterm draw true colour graphics and ligatures on the GPU with flintmode = on?", []graphrag.Hit{readme}, RetrievalEmpty},
		// Or before the kind of setting, itself named first or not.
		{"Does the zorpterm flintmode setting draw true colour graphics and ligatures on the GPU?", []graphrag.Hit{readme}, RetrievalEmpty},
		{"What does the flintmode GPU setting do to true colour graphics and ligatures of the zorpterm terminal?", []graphrag.Hit{readme}, RetrievalEmpty},
		{"Which zorpterm option draws true colour graphics and ligatures on the GPU?", []graphrag.Hit{readme}, RetrievalGood},
	})
}

// TestAnOptionIsItsCommandsOwn: an option asked about with the command
// that has it is answered by that command's page, not by another
// command's that has an option of that name.
func TestAnOptionIsItsCommandsOwn(t *testing.T) {
	vac := fileHit("/usr/share/man/man1/frobvac.1.gz", "gz", "--skip-locked\n    Skip relations that cannot be locked immediately.")
	rei := fileHit("/usr/share/man/man1/frobidx.1.gz", "gz", "--jobs=njobs\n    Rebuild the indexes in parallel by running njobs commands at once.")
	hits := []graphrag.Hit{vac, rei}
	if _, r, why := gradeByConstraints("what does frobidx --skip-locked do", hits, hits, RetrievalGood, 5); r != RetrievalEmpty {
		t.Errorf("retrieval %s (%s): frobidx's page has no --skip-locked, frobvac's does: want empty", r, why)
	}
	if _, r, why := gradeByConstraints("what does frobvac --skip-locked do", hits, hits, RetrievalGood, 5); r == RetrievalEmpty {
		t.Errorf("retrieval %s (%s): frobvac's page defines it", r, why)
	}
}

// A possessive "'s" is no part of a name: "ZorpDB's" asks about ZorpDB,
// which a page held under /usr/share/zorpdb meets, though no page writes
// "ZorpDB's".
func TestPossessiveIsNoPartOfAName(t *testing.T) {
	q := "Why does ZorpDB's FROB MAPPING take the ON keyword?"
	if got := constrainingTerms(q); !slices.Contains(got, "zorpdb") || slices.Contains(got, "zorpdb's") {
		t.Errorf("constrainingTerms = %q, want zorpdb without its possessive", got)
	}
	page := fileHit("/usr/share/zorpdb/man7/FROB_MAPPING.7.gz", "pg", "FROB MAPPING takes ON before the server name, as the Frobnik standard writes it.")
	if m := matchConstraints(q, []graphrag.Hit{page}); len(m.Missing) > 0 {
		t.Errorf("missing %q: the page's path names ZorpDB", m.Missing)
	}
}

// An exact name is held where it ends: "zorp_dump" is not in
// "zorp_dumpall", nor NewFrob in NewFrobSize; a version glued to what
// comes before it ("libzorp5.3") and a path ("notes/2.3.0.txt") hold theirs.
func TestAnExactNameIsHeldWhole(t *testing.T) {
	all := fileHit("/usr/share/man/man1/zorp_dumpall.1.gz", "gz", "zorp_dumpall writes every database of a cluster into one script file.")
	if m := matchConstraints("what does zorp_dump --frob do", []graphrag.Hit{all}); len(m.Hits) > 0 {
		t.Errorf("zorp_dumpall's page holds zorp_dump (terms %v)", m.Terms)
	}
	for _, tc := range []struct{ text, term string }{
		{"built against libzorp5.3 and frob.", "5.3"},
		{"see notes/2.3.0.txt", "2.3.0"},
		{"run zorp_dump, then zorp_restore", "zorp_dump"},
		{"frob --force-all", "--force"},
	} {
		if !containsEnded(tc.text, tc.term) {
			t.Errorf("containsEnded(%q, %q) = false", tc.text, tc.term)
		}
	}
	if containsEnded("func newfrobsize(n int) *frob", "newfrob") {
		t.Errorf("newfrobsize holds newfrob")
	}
}

// A kept passage takes along the next passage of its document when the
// search found it too: the chunker cut the entry in two, and its second
// half says what the first only quotes.
func TestAKeptPassageTakesItsContinuation(t *testing.T) {
	first := stanzaHit("/usr/share/doc/libzorp1/NEWS.Debian.gz", "", "", "libzorp (2.0-1) unstable\n\n  zorp 2.0 checks its locks. Programs may now abort with\n  \"zorp_lock.c:12: zorp_lock: Assertion failed.\"", 0)
	second := stanzaHit("/usr/share/doc/libzorp1/NEWS.Debian.gz", "", "", "  That is a bug in the calling program, which locked the display twice, not in libzorp.", 1)
	other := fileHit("/usr/share/doc/frob/changelog.Debian.gz", "", "frob (1.2-1) unstable\n\n  * Rebuild against libzorp 2.0.")
	hits := []graphrag.Hit{first, other, second}
	kept, _, _ := gradeByConstraints("My program aborts with \"zorp_lock.c:12: zorp_lock: Assertion failed.\" Is libzorp broken?", hits, []graphrag.Hit{first}, RetrievalGood, 5)
	if len(kept) < 2 || kept[1].Chunk.ID != second.Chunk.ID {
		t.Errorf("kept %d passages, want the entry's second half after its first", len(kept))
	}
}

// TestBackslashCommandsAreExactNames: a meta-command written after a
// backslash is a name as exact as an option; a one-letter escape is not.
func TestBackslashCommandsAreExactNames(t *testing.T) {
	page := fileHit("/usr/share/man/man1/zorpsh.1.gz", "1", "\\zset [ name [ value ] ]\nSets the zorpsh variable name to value.")
	if m := matchConstraints("What does the zorpsh \\zsetx meta-command do?", []graphrag.Hit{page}); !slices.Contains(m.Missing, `\zsetx`) {
		t.Errorf("missing %v: want \\zsetx, which no hit holds", m.Missing)
	}
	if m := matchConstraints("What does the zorpsh \\zset meta-command do?", []graphrag.Hit{page}); len(m.Missing) > 0 || !slices.Contains(m.Terms, `\zset`) {
		t.Errorf("terms %v, missing %v: want \\zset, held", m.Terms, m.Missing)
	}
	if terms := constrainingTerms(`how do I make zorpsh write \r\n line endings`); slices.ContainsFunc(terms, func(s string) bool { return strings.HasPrefix(s, `\`) }) {
		t.Errorf("terms %v: an escape is no command", terms)
	}
}

// TestModuleNamesAsDistributed: a module name of "::"-joined parts is
// held by a file that writes it as its distribution or package is named,
// with hyphens.
func TestModuleNamesAsDistributed(t *testing.T) {
	readme := fileHit("/usr/share/doc/libzorp-frob-perl/README", "", "Zorp-Frob\n=========\n\nFrobs zorps in place.")
	if m := matchConstraints("Is Zorp::Frob still maintained upstream?", []graphrag.Hit{readme}); len(m.Missing) > 0 || len(m.Hits) != 1 {
		t.Errorf("missing %v, hits %v: Zorp-Frob is Zorp::Frob as distributed", m.Missing, m.Hits)
	}
	if m := matchConstraints("Is Zorp::Frobber still maintained upstream?", []graphrag.Hit{readme}); len(m.Missing) == 0 {
		t.Error("Zorp::Frobber is not Zorp-Frob: want it missing")
	}
}

// TestShortFormsOfNames: a question may call a product by a short form
// of its name, which the passages of its subject write in full.
func TestShortFormsOfNames(t *testing.T) {
	pages := []graphrag.Hit{
		fileHit("/usr/share/man/man7/DROP_FROB.7.gz", "7", "DROP FROB takes the same options as DROP ZORP. Zorpgresql added DROP FROB in its third release."),
		fileHit("/usr/share/man/man7/DROP_ZORP.7.gz", "7", "DROP ZORP deletes zorps. Its options are listed below."),
	}
	if m := matchConstraints("Does DROP FROB accept the options of DROP ZORP in Zorpgres?", pages); len(m.Apart) > 0 || len(m.Missing) > 0 {
		t.Errorf("apart %v, missing %v: Zorpgres is Zorpgresql's short form", m.Apart, m.Missing)
	}
	if m := matchConstraints("Does DROP FROB accept the options of DROP ZORP in Frobnix?", pages); len(m.Apart) == 0 && len(m.Missing) == 0 {
		t.Error("Frobnix is in no hit: want the names apart or missing")
	}
	hay := newHaystack(fileHit("/doc/notes", "", "Runs on Zorpix and Frobnicator."))
	if !hay.holdsName("frobnic") || hay.holdsName("zorp") || hay.holdsName("nicator") {
		t.Error("a name of six letters or more is held as a word's start; a shorter one, or one inside a word, is not")
	}
}

// TestExactNamesOfTheSituation: a version or name only the asker's
// situation writes need not be in the files; one the asking sentence
// writes must.
func TestExactNamesOfTheSituation(t *testing.T) {
	doc := fileHit("/src/zorp/frob.go", "go", "// Frob returns the number of frobs done, and an error if the zorp is closed.\nfunc Frob(z *Zorp) (int, error)")
	if m := matchConstraints("Zorp 2.3 lets me call frob_all twice now. What does Frob return then?", []graphrag.Hit{doc}); len(m.Missing) > 0 {
		t.Errorf("missing %v: 2.3 and frob_all are the asker's situation", m.Missing)
	}
	if m := matchConstraints("What does Frob return in Zorp 2.3?", []graphrag.Hit{doc}); len(m.Missing) == 0 {
		t.Error("2.3 asked about is in no hit: want it missing")
	}
	if m := matchConstraints("Zorp 2.3 is out. What does frob_all return?", []graphrag.Hit{doc}); !slices.Contains(m.Missing, "frob_all") {
		t.Errorf("missing %v: frob_all, asked about, is in no hit", m.Missing)
	}
}

// TestNamesOfTheFileName: a part of a manual page named after its
// statement (ZORP_INDEX.7) is of that statement, though the part never
// writes it.
func TestNamesOfTheFileName(t *testing.T) {
	hits := []graphrag.Hit{
		fileHit("/usr/share/man/man7/ZORP_INDEX.7.gz", "7", "RENAME\nRENAME gives the index a new name.\n\nIt waits for a FROB lock first."),
		fileHit("/usr/share/man/man7/ZORP_TABLE.7.gz", "7", "RENAME\nRENAME gives a zorp table a new name, and its indexes keep theirs."),
	}
	hits[0].Source.Title, hits[1].Source.Title = "ZORP_INDEX - change an index", "ZORP_TABLE - change a table"
	if m := matchConstraints("Which lock must ZORP INDEX ... RENAME wait for?", hits); len(m.Apart) > 0 || len(m.Missing) > 0 {
		t.Errorf("apart %v, missing %v: ZORP_INDEX.7 is of ZORP INDEX", m.Apart, m.Missing)
	}
	if newHaystack(hits[0]).holdsName("zap") {
		t.Error("zap is no word of ZORP_INDEX.7.gz")
	}
}

// TestExamplesConstrainNothing: an example the asker gives of what the
// question means ("names like …") is the asker's own; the files say what
// holds of every such name and need not write it. A name outside the
// example still constrains.
func TestExamplesConstrainNothing(t *testing.T) {
	open := fileHit("/go/src/zorp/open.go", "go", "// Open opens the named frob. If the name is not local and\n// ZORPSAFE=1 is set, Open returns ErrUnsafeName.\nfunc Open(name string) (*Frob, error) {")
	open.Chunk.Symbol = "zorp.Open"
	hits := []graphrag.Hit{open}
	for _, tc := range []struct {
		question string
		want     string
	}{
		{"Can zorp.Open be told to reject a name such as ../../srv/quill?", RetrievalGood},
		{`will zorp.Open take a pipeline like "quill | frob"?`, RetrievalGood},
		{"Can zorp.Open be told to reject a name such as ../../srv/quill from zorp.Dial?", RetrievalEmpty},
	} {
		if _, r, why := gradeByConstraints(tc.question, hits, hits, RetrievalEmpty, 5); r != tc.want {
			t.Errorf("%q: retrieval %s (%s), want %s", tc.question, r, why, tc.want)
		}
	}
	if got, want := examplesGiven(`paths like ../a/b, things such as "x | y", names like 'q r', e.g. Zed.`), []string{"../a/b", "x | y", "q r", "zed"}; !slices.Equal(got, want) {
		t.Errorf("examplesGiven = %q, want %q", got, want)
	}
	// A marker at the very end gives no example (and no panic).
	if got := examplesGiven("is a frob anything like "); len(got) != 0 {
		t.Errorf("examplesGiven of a trailing marker = %q, want none", got)
	}
}

// A hyphenated name the question asks about ("the zorp-server package") is
// held only by passages that hold it whole: the store's keyword search
// finds it by its parts, and "server" is in every manual. Through the real
// SQLite store, whose full-text index splits the name as users' stores do.
func TestCompoundNameHeldOnlyWhole(t *testing.T) {
	ctx := context.Background()
	var hits []graphrag.Hit
	texts := map[string]string{}
	for i, text := range []string{
		"The frob server listens on port 7001 by default.",
		"The quill server listens on port 7002 by default; set Port to change it.",
		"By default the wicket server listens on port 7003.",
		"The server package of tansy listens on port 7004.",
		"Each server process listens on the port its package configures.",
		"The default server port of glimmer is 7006.",
		"The zorp-client package talks to a server on port 7007 by default.",
	} {
		h := doc(fmt.Sprintf("pkg%d", i), fmt.Sprintf("README %d", i), text)
		hits = append(hits, h)
		texts[h.Source.Path] = text
	}
	st := docStore(t, texts, nil)
	p, _ := newPipeline(Deps{Searcher: st}, DefaultOptions())
	for _, tc := range []struct {
		question string
		hits     []graphrag.Hit
		empty    bool
	}{
		// No passage holds zorp-server: what is asked about is not there.
		{"What port does the zorp-server package listen on by default?", hits[:5], true},
		// zorp-client is held, beside the question's other words.
		{"What port does the zorp-client package talk to by default?", append([]graphrag.Hit{hits[6]}, hits[:4]...), false},
	} {
		s, err := p.evaluate(ctx, State{Query: tc.question, Plan: graphrag.Plan{Route: graphrag.RouteVector}, Hits: tc.hits, Budget: Budget{Retrieve: 2}})
		if err != nil {
			t.Fatal(err)
		}
		if (s.Retrieval == RetrievalEmpty) != tc.empty {
			t.Errorf("%q: retrieval %s (%s), want empty %v", tc.question, s.Retrieval, s.Measured, tc.empty)
		}
	}
}

// A package written as such ("Debian's quokka package", "quokka's
// README.Debian") is held by its own files, however many other passages
// mention it: five changelogs that add quokka completion do not say under
// which licence Debian ships quokka. Before another kind of software the
// word may describe one ("the quokka library"), and passages that write it
// hold it.
func TestPackageHeldByItsOwnFiles(t *testing.T) {
	var docs []graphrag.Hit
	for i, pkg := range []string{"bash-completion", "zorp", "frob", "quill", "wombat", "numbat"} {
		docs = append(docs, fileHit("/usr/share/doc/"+pkg+"/changelog.Debian.gz", "gz",
			fmt.Sprintf("%s (1.%d-1) unstable; urgency=medium\n\n  * Add quokka completion and distribute it with the docs.", pkg, i)))
	}
	numbat := fileHit("/usr/share/doc/numbat/copyright", "", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\nFiles: *\nLicense: MIT")
	docs = append(docs, numbat)
	c := newMemSearcher(docs)
	p, _ := newPipeline(Deps{Searcher: c}, DefaultOptions())
	for _, tc := range []struct {
		question, word string
		absent         bool
	}{
		{"Under which licence is Debian's quokka package distributed, per its copyright file?", "quokka", true},
		{"What does quokka's README.Debian say about distributing it?", "quokka", true},
		{"Which distribution of the quokka library added completion?", "quokka", false},
		{"Under which licence is Debian's numbat package distributed, per its copyright file?", "numbat", false},
	} {
		s := State{Query: tc.question, Plan: graphrag.Plan{Route: graphrag.RouteVector}, Hits: []graphrag.Hit{docs[0], numbat}}
		if got := p.absentWords(context.Background(), &s, []string{tc.word}, s.Hits); (len(got) > 0) != tc.absent {
			t.Errorf("%q: absentWords(%q) = %v, want absent %v", tc.question, tc.word, got, tc.absent)
		}
	}
}

// An acronym in the plural ("FPUs") is the acronym's name: the passage of
// the question's subject may write it in the singular. And a sentence that
// asks only for a thing by its kind ("What's the URL?") names the answer's
// kind, not a name the passage must write.
func TestAnchorsAsWritten(t *testing.T) {
	frob := fileHit("/src/zorp/frob.go", "go", "// Frob turns on the FPU features that keep its timing constant.\nfunc Frob() {}")
	news := fileHit("/doc/NEWS", "", "Some FPUs are slow. Report a broken URL to the list.")
	if m := matchConstraints("Does zorp.Frob turn on the FPUs of the machine?", []graphrag.Hit{frob, news}); len(m.Apart) > 0 || len(m.Missing) > 0 {
		t.Errorf("apart %v, missing %v: zorp.Frob's doc names the FPU", m.Apart, m.Missing)
	}
	readme := fileHit("/usr/share/doc/zorp/README.Debian", "", "The upstream FAQ is at http://example.org/zorp-faq.html.")
	if m := matchConstraints("Does Debian's zorp package point to a FAQ? What's the URL?", []graphrag.Hit{readme, news}); len(m.Apart) > 0 || len(m.Missing) > 0 {
		t.Errorf("apart %v, missing %v: the URL is what is asked for", m.Apart, m.Missing)
	}
	if m := matchConstraints("Does zorp.Frob turn on the FPUs of Frobnix machines?", []graphrag.Hit{frob, news, fileHit("/doc/systems", "", "Frobnix is a system.")}); len(m.Apart) == 0 && len(m.Missing) == 0 {
		t.Error("zorp.Frob's doc does not name Frobnix: want the names apart or missing")
	}
}

// Go's type arguments are no part of the name a question asks about: the
// declaration of "type Zorp[T any] struct" answers about zorp.Zorp[T].
func TestTypeArgumentsAreNoName(t *testing.T) {
	decl := fileHit("/src/zorp/zorp.go", "go", "// A Zorp holds a frob of type *T. The zero value holds no frob.\ntype Zorp[T any] struct {\n\tv *T\n}")
	for _, q := range []string{"What is the zero value of zorp.Zorp[T]?", "What is the zero value of a Zorp[T]?"} {
		if m := matchConstraints(q, []graphrag.Hit{decl}); len(m.Missing) > 0 {
			t.Errorf("%q: missing %v: Zorp[T] is Zorp's", q, m.Missing)
		}
	}
}

// An exact name no passage found holds may stand in another passage of a
// document found: a README names Zorp-PAM in its first lines and says
// which frob-xsl it needs in its last. A version held elsewhere in the
// document is another release's, and still ends the search.
func TestANameHeldElsewhereInTheDocument(t *testing.T) {
	first := fileHit("/usr/share/doc/libzorp0/README", "", "Thanks for downloading Zorp-PAM.\n\nThe Zorp-PAM manual pages are built from XML: see the INSTALL file.")
	last := fileHit("/usr/share/doc/libzorp0/README", "", "To regenerate the manual pages from the XML source files you need the\nfrob-xsl stylesheets in version 1.69.1 or newer.")
	last.Chunk.ID, last.Chunk.Ordinal = graphrag.ChunkID(last.Source.Path, 3), 3
	notes := fileHit("/usr/share/doc/libzorp0/NEWS", "", "Release 1.27 added the quill module.\n\nRelease 1.26 added the frob module.")
	other := fileHit("/usr/share/doc/quill/NEWS", "", "Zorp 1.28 is expected next year.")
	c := newMemSearcher([]graphrag.Hit{first, last, notes, other})
	p, _ := newPipeline(Deps{Searcher: c}, DefaultOptions())
	for _, tc := range []struct {
		question string
		hits     []graphrag.Hit
		want     string
	}{
		{"Zorp-PAM: minimum frob-xsl version needed to regenerate the manual pages from XML", []graphrag.Hit{last}, RetrievalGood},
		{"Which modules did libzorp0 add in release 1.28?", []graphrag.Hit{notes}, RetrievalEmpty},
	} {
		s, err := p.evaluate(context.Background(), State{Query: tc.question, Plan: graphrag.Plan{Route: graphrag.RouteVector}, Hits: tc.hits, Budget: Budget{Retrieve: 0}})
		if err != nil || s.Retrieval != tc.want {
			t.Errorf("%q: retrieval %s (%s), err %v: want %s", tc.question, s.Retrieval, s.Measured, err, tc.want)
		}
	}
}

// A statement's upper-case phrase beside an exact name is one more thing
// that name's passages must hold: of the passages about zorp_lock, the
// one about FOR NO KEY UPDATE goes first. A phrase alone orders nothing.
func TestAPhraseBesideANameOrdersItsPassages(t *testing.T) {
	plain := fileHit("/usr/share/man/man7/ZORP.7.gz", "gz", "zorp_lock takes a share lock on the frob it reads, which is the lock most readers want.")
	clause := fileHit("/usr/share/man/man7/ZORP_LOCK.7.gz", "gz", "With FOR NO KEY UPDATE, zorp_lock takes a weaker lock that does not block key share readers.")
	hits := []graphrag.Hit{plain, clause}
	if m := matchConstraints("Which lock does zorp_lock take FOR NO KEY UPDATE?", hits); !slices.Equal(m.Hits, []int{1}) {
		t.Errorf("hits %v: want only the passage with the clause", m.Hits)
	}
	kept, _, _ := gradeByConstraints("Which lock does zorp_lock take FOR NO KEY UPDATE?", hits, hits, RetrievalGood, 5)
	if len(kept) == 0 || kept[0].Chunk.ID != clause.Chunk.ID {
		t.Errorf("kept first %v: want the passage with the clause", kept)
	}
	if m := matchConstraints("What does FOR NO KEY UPDATE do?", hits); len(m.Hits) > 0 || len(m.Missing) > 0 {
		t.Errorf("hits %v, missing %v: a phrase alone orders nothing and is held", m.Hits, m.Missing)
	}
}

// gradeOne is the grading of a question over one hit, well matched, and
// why it changed (gradeByConstraints).
func gradeOne(question string, h graphrag.Hit) (retrieval, why string) {
	hits := []graphrag.Hit{h}
	_, retrieval, why = gradeByConstraints(question, hits, hits, RetrievalGood, 5)
	return retrieval, why
}

// A method named with its type ("zorp.Spool.Len") is held only by a hit
// that shows it as the type's: its declaration on the type (or on the
// type of a value so named), the type's code naming it, or the two
// written together. The type's doc and a builtin "len" elsewhere do not.
func TestMemberNamedWithItsType(t *testing.T) {
	spool := codeHit("/src/zorp/spool.go", 0, "zorp.Spool", "type", "// Spool holds frobs for concurrent use.\ntype Spool struct {\n\tmu sync.Mutex\n\tfrobs []Frob\n}")
	other := codeHit("/src/zorp/frob.go", 0, "zorp.count", "func", "func count(f []Frob) int {\n\treturn len(f)\n}")
	method := codeHit("/src/zorp/spool.go", 1, "zorp.Spool.Len", "method", "// Len reports how many frobs s holds.\nfunc (s *Spool) Len() int {\n\treturn len(s.frobs)\n}")
	value := codeHit("/src/zorp/types.go", 0, "zorp", "var", "// Bool converts input values to bools.\nvar Bool boolType\n\nfunc (boolType) ConvertValue(v any) (Value, error) {\n\treturn nil, nil\n}")
	for _, tc := range []struct {
		question, member string
		hits             []graphrag.Hit
		missing          bool
	}{
		{"What does zorp.Spool.Len return while frobs are added?", "spool.len", []graphrag.Hit{spool, other}, true},
		{"What does zorp.Spool's Len method return while frobs are added?", "spool.len", []graphrag.Hit{spool, other}, true},
		{"What does zorp.Spool.Len return while frobs are added?", "spool.len", []graphrag.Hit{spool, method}, false},
		{"zorp.Bool.ConvertValue with an int like 2: what happens?", "bool.convertvalue", []graphrag.Hit{value}, false},
	} {
		m := matchConstraints(tc.question, tc.hits)
		if got := slices.Contains(m.Missing, tc.member); got != tc.missing {
			t.Errorf("%q over %d hits: missing %v, want the member missing: %v", tc.question, len(tc.hits), m.Missing, tc.missing)
		}
	}
}

// A folder named as a distribution packages a library or a Python module
// is that software's; a longer name that only starts with it is another's.
func TestPackagedAs(t *testing.T) {
	for _, tc := range []struct {
		folder, w string
		want      bool
	}{
		{"libzorp2", "zorp", true},
		{"libzorp-1.0-0", "zorp", true},
		{"libzorp-1.0-0", "libzorp", true},
		{"libfrob2-8-0", "frob2", true},
		{"python3-zorp", "zorp", true},
		{"zorp3.1-dev", "zorp", true},
		{"zorp", "zorp", false}, // pathNamed's
		{"libzorpx2", "zorp", false},
		{"zorp-tools", "zorp", false},
		{"python3-zorpkit", "zorp", false},
	} {
		if got := packagedAs(tc.folder, tc.w); got != tc.want {
			t.Errorf("packagedAs(%q, %q) = %v, want %v", tc.folder, tc.w, got, tc.want)
		}
	}
}

// An acronym the question writes in capitals is held by a passage that
// spells it out ("frob spool log" for FSL), a hyphenated word counting as
// its parts; a name written otherwise ("Fsl") is not, nor is an acronym
// whose letters the passage's words do not begin.
func TestAnAcronymSpelledOut(t *testing.T) {
	page := fileHit("/usr/share/man/man1/zorpctl.1.gz", "gz", "--sync\n    Write the frob spool log before each frob, and the write-ahead zorp list after it.")
	hits := []graphrag.Hit{page}
	for _, tc := range []struct {
		question string
		want     string
	}{
		{"Does zorpctl --sync write the FSL before each frob?", RetrievalGood},
		{"Does zorpctl --sync write the WAZL after each frob?", RetrievalGood},
		{"Does zorpctl --sync write the Fsl before each frob?", RetrievalEmpty},
		{"Does zorpctl --sync write the FSJ before each frob?", RetrievalEmpty},
	} {
		if _, r, why := gradeByConstraints(tc.question, hits, hits, RetrievalGood, 5); r != tc.want {
			t.Errorf("%q: retrieval %s (%s), want %s", tc.question, r, why, tc.want)
		}
	}
}

// TestALibrarysPackageNamesIt: a library's Debian package is named after
// it and its soname's version ("libzorpfrob6" for libZorpfrob), and its
// copyright file seldom writes the library's name: the folder holds it.
// Another library's package, or a name that only begins the folder's, does
// not.
func TestALibrarysPackageNamesIt(t *testing.T) {
	copyright := fileHit("/usr/share/doc/libzorpfrob6/copyright", "", "This package was downloaded from the Zorp releases.\n\nCopyright 1989 Quill Systems")
	if m := matchConstraints("Which company holds the 1989 copyright on libZorpfrob?", []graphrag.Hit{copyright}); len(m.Missing) > 0 || len(m.Apart) > 0 {
		t.Errorf("missing %v, apart %v: libzorpfrob6 is libZorpfrob's package", m.Missing, m.Apart)
	}
	for _, tc := range []struct{ path, lib string }{
		{"/usr/share/doc/libzorp-2.0-0/copyright", "libzorp"},
		{"/usr/share/doc/libzorp1.02.1/copyright", "libzorp"},
	} {
		if !newHaystack(fileHit(tc.path, "", "Copyright 1989 Quill Systems")).librarysPackage(tc.lib) {
			t.Errorf("%s is not taken for %s's package", tc.path, tc.lib)
		}
	}
	for _, tc := range []struct{ path, lib string }{
		{"/usr/share/doc/libzorpfrob6/copyright", "libzorp"},
		{"/usr/share/doc/libzorp-dev/copyright", "libzorp"},
		{"/usr/share/doc/zorp6/copyright", "zorp"},
	} {
		if newHaystack(fileHit(tc.path, "", "Copyright 1989 Quill Systems")).librarysPackage(tc.lib) {
			t.Errorf("%s is taken for %s's package", tc.path, tc.lib)
		}
	}
}
