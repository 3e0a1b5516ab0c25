package nodes

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// fileHit is a hit of a file at path with the given type.
func fileHit(path, typ, text string) graphrag.Hit {
	title := path[strings.LastIndex(path, "/")+1:]
	return graphrag.Hit{
		Chunk:  graphrag.Chunk{ID: graphrag.ChunkID(path, 0), DocID: path, Text: text},
		Source: graphrag.Source{DocID: path, Path: path, Title: title, Type: typ},
	}
}

// unitTexts are the texts of units, in their order.
func unitTexts(units []quoteUnit) []string {
	var texts []string
	for _, u := range units {
		texts = append(texts, u.text)
	}
	return texts
}

// The examples of issue 11, on small fixtures.
func TestAnswersUsersCanUse(t *testing.T) {
	t.Run("a heading is answered with what is under it", func(t *testing.T) {
		spec := fileHit("/go/doc/go_spec.html", "html", "Blank identifier\n\nThe blank identifier is represented by the underscore character _.\n\n"+
			"Predeclared identifiers\n\nThe following identifiers are implicitly declared in the universe block:\n\n"+
			"```\nTypes:\n\tany bool byte comparable\n\tcomplex64 complex128 error float32 float64\n\nConstants:\n\ttrue false iota\n```\n")
		a := extractive("what are the predeclared identifiers in Go", []graphrag.Hit{spec}, 3)
		if !strings.Contains(a.Text, "comparable") || !strings.Contains(a.Text, "implicitly declared") {
			t.Errorf("answer lacks what is under the heading:\n%s", a.Text)
		}
		if strings.HasPrefix(a.Text, "Predeclared identifiers") {
			t.Errorf("answer is the bare heading:\n%s", a.Text)
		}
	})
	t.Run("a lead-in keeps the command after its colon", func(t *testing.T) {
		man := fileHit("/man/man1/pg_restore.1", "1", "EXAMPLES\n\nAssume we have dumped a database called mydb into a custom-format dump file:\n\n"+
			"    $ pg_dump -Fc mydb > db.dump\n\nTo drop the database and recreate it from the dump:\n\n"+
			"    $ dropdb mydb\n    $ pg_restore -C -d postgres db.dump\n")
		a := extractive("how do I restore a custom-format dump with pg_restore", []graphrag.Hit{man}, 3)
		if !strings.Contains(a.Text, "pg_restore -C -d postgres db.dump") && !strings.Contains(a.Text, "pg_dump -Fc mydb > db.dump") {
			t.Errorf("the command after the colon is missing:\n%s", a.Text)
		}
		for _, line := range strings.Split(a.Text, "\n") {
			if strings.HasSuffix(strings.TrimSpace(citationMark.ReplaceAllString(line, "")), ":") && !strings.Contains(a.Text, "$ ") {
				t.Errorf("answer stops at a colon:\n%s", a.Text)
			}
		}
	})
	t.Run("a list item is never cut", func(t *testing.T) {
		todo := fileHit("/doc/gzip/TODO", "", "Some of the planned features include:\n\n- Remove some of the old porting cruft.\n\n"+
			"- Structure the sources so that the compression and decompression code\n  form a library usable by any program, and write both gzip and zip on\n  top of this library.\n")
		a := extractive("which library is planned for the compression code of gzip", []graphrag.Hit{todo}, 3)
		if strings.Contains(a.Text, "code form a library") && !strings.Contains(a.Text, "Structure the sources") {
			t.Errorf("list item cut:\n%s", a.Text)
		}
		if !strings.Contains(a.Text, "Structure the sources so that the compression and decompression code form a library usable by any program, and write both gzip and zip on top of this library.") {
			t.Errorf("list item not quoted whole:\n%s", a.Text)
		}
	})
	t.Run("code keeps its newlines and is shown as code", func(t *testing.T) {
		src := fileHit("/go/src/strings/reader.go", "go", "// Copyright 2009 The Go Authors. All rights reserved.\n// Use of this source code is governed by a BSD-style\n// license that can be found in the LICENSE file.\n\n"+
			"package strings\n\n// NewReader returns a new [Reader] reading from s.\n// It is similar to [bytes.NewBufferString] but more efficient and non-writable.\n"+
			"func NewReader(s string) *Reader {\n\treturn &Reader{s, 0, -1}\n}\n")
		a := extractive("what does strings.NewReader return", []graphrag.Hit{src}, 3)
		if !strings.Contains(a.Text, "```\n// NewReader returns") || !strings.Contains(a.Text, "func NewReader(s string) *Reader {\n\treturn") {
			t.Errorf("code not kept as code:\n%s", a.Text)
		}
		if strings.Contains(a.Text, "Copyright") {
			t.Errorf("answered with the licence header:\n%s", a.Text)
		}
	})
	t.Run("an empty answer is an abstention", func(t *testing.T) {
		h := fileHit("/etc/postgresql/pg_hba.conf", "conf", "md5\n\npg_hba\n")
		a := extractive("pg_hba md5", []graphrag.Hit{h}, 3)
		if !a.Abstained || strings.TrimSpace(a.Text) == "" {
			t.Errorf("answer %q abstained %v: want an abstention with its message", a.Text, a.Abstained)
		}
	})
}

func TestGradingKeepsTheFileTheQuestionNames(t *testing.T) {
	relnotes := []graphrag.Hit{
		fileHit("/doc/git/RelNotes/2.22.0.txt", "txt", "Git 2.22 Release Notes\n\nUpdates since v2.21: the command git rebase learned a new option."),
		fileHit("/doc/git/RelNotes/2.23.0.txt", "txt", "Git 2.23 Release Notes\n\nTwo new commands \"git switch\" and \"git restore\" are introduced."),
	}
	kept, r, _ := gradeByConstraints("what changed in git 2.23.0", relnotes, relnotes[:1], RetrievalPoor, 5)
	if r != RetrievalGood || len(kept) == 0 || kept[0].Source.Path != "/doc/git/RelNotes/2.23.0.txt" {
		t.Errorf("retrieval %s, kept %v: want good with RelNotes/2.23.0.txt first", r, paths(kept))
	}
	licences := []graphrag.Hit{
		fileHit("/doc/curl/copyright", "", "Files: *\nCopyright: Daniel Stenberg\nLicense: curl"),
		fileHit("/doc/jq/copyright", "", "Files: *\nCopyright: 2012 Stephen Dolan\nLicense: MIT"),
	}
	kept, _, _ = gradeByConstraints("what license is jq distributed under", licences, licences[:1], RetrievalPoor, 5)
	if len(kept) == 0 || kept[0].Source.Path != "/doc/jq/copyright" {
		t.Errorf("kept %v: want jq/copyright first", paths(kept))
	}
}

func TestAbstainsWhenTheQuestionsNamesAreMissing(t *testing.T) {
	codes := []graphrag.Hit{fileHit("/doc/errcodes.txt", "txt", "Class 42 — Syntax Error or Access Rule Violation\n\n42803 grouping_error\n42P20 windowing_error")}
	_, r, why := gradeByConstraints("which error code is unique_violation", codes, codes, RetrievalGood, 5)
	if r != RetrievalEmpty || !strings.Contains(why, "unique_violation") {
		t.Errorf("retrieval %s (%s): want empty, unique_violation missing", r, why)
	}
	jq := []graphrag.Hit{
		fileHit("/doc/jq/README", "", "jq is a lightweight and flexible command-line JSON processor."),
		fileHit("/doc/python/copyright", "", "2.5 2.4 2006 PSF yes"),
	}
	if _, r, _ := gradeByConstraints("when was jq 2.5 released", jq, jq, RetrievalGood, 5); r != RetrievalEmpty {
		t.Errorf("retrieval %s: jq and 2.5 are in no one hit, want empty", r)
	}
	// The whole graph: a confident wrong answer becomes an abstention.
	g, err := Build(Deps{Searcher: newMemSearcher(codes)}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.Invoke(context.Background(), State{Query: "which error code is unique_violation"})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Answer.Abstained {
		t.Errorf("answered %q: want an abstention", s.Answer.Text)
	}
}

func TestPreferHitsPutsDeclarationsBeforeTests(t *testing.T) {
	hits := []graphrag.Hit{
		fileHit("/go/src/context/context_test.go", "go", "func TestWithCancel(t *testing.T) {\n\tctx, cancel := WithCancel(Background())\n}"),
		fileHit("/go/src/context/context.go", "go", "// WithCancel returns a derived context.\nfunc WithCancel(parent Context) (ctx Context, cancel CancelFunc) {\n\tc := withCancel(parent)\n}"),
	}
	kept := preferHits("where is WithCancel defined", hits, hits[:1], nil, 5)
	if kept[0].Source.Path != "/go/src/context/context.go" {
		t.Errorf("kept %v: want context.go first", paths(kept))
	}
	a := extractive("where is WithCancel defined", kept, 3)
	if !strings.Contains(a.Text, "func WithCancel(parent Context)") || a.Citations[0].Hit.Source.Path != "/go/src/context/context.go" {
		t.Errorf("answer:\n%s", a.Text)
	}
}

func paths(hits []graphrag.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Source.Path)
	}
	return out
}

func TestNamedFileIsGoodDespiteAWeakScore(t *testing.T) {
	hits := []graphrag.Hit{
		fileHit("/doc/jq/README", "", "jq is a lightweight and flexible command-line JSON processor."),
		fileHit("/doc/jq/copyright", "", "Files: *\nCopyright: 2012 Stephen Dolan\nLicense: MIT"),
	}
	kept, r, _ := gradeByConstraints("what license is jq distributed under", hits, hits[:1], RetrievalPoor, 5)
	if r != RetrievalGood || kept[0].Source.Path != "/doc/jq/copyright" {
		t.Errorf("retrieval %s, kept %v: want good with jq/copyright first", r, paths(kept))
	}
	// A named file without the question's other words found elsewhere
	// proves nothing.
	bench := []graphrag.Hit{
		fileHit("/man/man1/pgbench.1", "1", "pgbench runs benchmark tests. --max-tries enables retries."),
		fileHit("/doc/linux/changelog", "", "drm: fix GPU reset on resume."),
	}
	if _, r, _ := gradeByConstraints("how do I enable GPU acceleration in pgbench", bench, bench, RetrievalPoor, 5); r == RetrievalGood {
		t.Error("pgbench's page lacks GPU, found in another hit: want no promotion to good")
	}
}

// TestAnchorsNeedOneNamedWord: a question that names its subject's
// folder by several words ("Go's DES package") is answered by a passage
// under one of them that holds its proper names; a proper name no passage
// about the subject holds still empties the grading.
func TestAnchorsNeedOneNamedWord(t *testing.T) {
	des := []graphrag.Hit{
		fileHit("/go/src/crypto/des/const.go", "go", "// Package des implements the Data Encryption Standard (DES) and the\n// Triple Data Encryption Algorithm (TDEA) as defined\n// in U.S. Federal Information Processing Standards Publication 46-3.\npackage des"),
		fileHit("/go/src/crypto/internal/fips/cast.go", "go", "// CAST runs the named Cryptographic Algorithm Self-Test for FIPS 140-3."),
		fileHit("/go/doc/go1.22.html", "", "The crypto/des package is unchanged in Go 1.22."),
	}
	if _, r, note := gradeByConstraints("Which FIPS publication does Go's DES / Triple DES package implement?", des, des, RetrievalPoor, 5); r == RetrievalEmpty {
		t.Errorf("grading empty (%s): des/const.go holds Triple and lies under des", note)
	}
	rust := []graphrag.Hit{
		fileHit("/go/src/net/http/server.go", "go", "// A Server defines parameters for running an HTTP server."),
		fileHit("/go/doc/go_faq.html", "", "Go was designed for writing servers."),
		fileHit("/doc/rustc/changelog", "", "rustc (1.63.0+dfsg1-2) unstable; urgency=medium\n  * Rust: new upstream release."),
	}
	if _, r, _ := gradeByConstraints("Is Go faster than Rust for writing HTTP servers?", rust, rust, RetrievalPoor, 5); r != RetrievalEmpty {
		t.Error("Rust only in rustc's changelog, which is under neither go nor http: want empty")
	}
}

// BenchmarkAnswerFromCode measures what grading and the extractive answer
// add to a query over ten chunk-sized Go hits (the store's search aside).
func BenchmarkAnswerFromCode(b *testing.B) {
	var hits []graphrag.Hit
	for i := range 10 {
		var sb strings.Builder
		for j := range 12 {
			fmt.Fprintf(&sb, "// Func%d_%d returns a new [Reader] reading from s.\n// It is similar to [bytes.NewBufferString].\nfunc Func%d_%d(s string) *Reader {\n\treturn &Reader{s, 0, -1}\n}\n\n", i, j, i, j)
		}
		if i == 3 {
			sb.WriteString("// NewReader returns a new [Reader] reading from s.\nfunc NewReader(s string) *Reader { return &Reader{s, 0, -1} }\n")
		}
		pkg := fmt.Sprintf("pkg%d", i)
		if i == 3 {
			pkg = "strings"
		}
		hits = append(hits, fileHit(fmt.Sprintf("/go/src/%s/reader.go", pkg), "go", sb.String()))
	}
	q := "what does strings.NewReader return"
	b.ReportAllocs()
	for b.Loop() {
		kept, _, _ := gradeByConstraints(q, hits, hits[:5], RetrievalGood, 5)
		if a := extractive(q, kept, 3); a.Abstained {
			b.Fatal("abstained")
		}
	}
}

func TestLeadInKeepsAnIndentedBlock(t *testing.T) {
	spec := fileHit("/go/doc/go_spec.html", "html", "Predeclared identifiers\n\nThe following identifiers are implicitly declared in the universe block:\n\n"+
		"Types:\n\tany bool byte comparable\n\tcomplex64 complex128 error float32 float64\n\nConstants:\n\ttrue false iota\n")
	a := extractive("what are the predeclared identifiers in Go", []graphrag.Hit{spec}, 3)
	if !strings.Contains(a.Text, "Types:\n```\nany bool byte comparable\ncomplex64") {
		t.Errorf("the block under the lead-in lost its lines:\n%s", a.Text)
	}
}

// TestStatementClauseOnItsCommandsPage: a clause asked with its command
// ("ALTER TABLE SET COMPRESSION") is met by the part of the command's page
// that describes the clause, though that part never writes the command;
// a page of another command with the same clause words is not.
func TestStatementClauseOnItsCommandsPage(t *testing.T) {
	page := fileHit("/usr/share/postgresql/15/man/man7/ALTER_TABLE.7.gz", "gz", "SET COMPRESSION compression_method\n    This form sets the compression method for a column. Setting the compression method does not cause the table to be rewritten.")
	other := fileHit("/usr/share/postgresql/15/man/man7/CREATE_TABLE.7.gz", "gz", "COMPRESSION compression_method\n    The COMPRESSION clause sets the compression method for the column.")
	q := "I switched a column to lz4 with ALTER TABLE SET COMPRESSION, are the existing rows recompressed"
	if m := matchConstraints(q, []graphrag.Hit{page}); len(m.Missing) > 0 {
		t.Errorf("ALTER_TABLE's part on SET COMPRESSION misses %v", m.Missing)
	}
	if m := matchConstraints(q, []graphrag.Hit{other}); len(m.Missing) == 0 {
		t.Error("CREATE_TABLE's page meets ALTER TABLE SET COMPRESSION: want it missing")
	}
}

// TestAProductsFolderNamesIt: "postgres" is held by a page installed under
// /usr/share/postgresql/15/: the anchors of "in what order does postgres
// test several CHECK constraints" meet in CREATE_DOMAIN's page, which
// never writes "postgres".
func TestAProductsFolderNamesIt(t *testing.T) {
	hits := []graphrag.Hit{
		fileHit("/usr/share/postgresql/15/man/man7/CREATE_DOMAIN.7.gz", "gz", "When a domain has multiple CHECK constraints, they will be tested in alphabetical order by name."),
		fileHit("/usr/share/postgresql/15/man/man1/postgres.1.gz", "gz", "postgres is the PostgreSQL database server."),
	}
	if m := matchConstraints("in what order does postgres test several CHECK constraints on a domain", hits); len(m.Apart) > 0 || len(m.Missing) > 0 {
		t.Errorf("anchors apart %v, missing %v: want them met in CREATE_DOMAIN's page", m.Apart, m.Missing)
	}
	if folderOf("/usr/share/doc/gopls/README", "go") || folderOf("/srv/checksums/x", "check") {
		t.Error("a short word or a longer suffix names no folder")
	}
}

// TestAnOptionAskedAboutIsQuotedWhole: a manual's option cut into a
// passage of its own is quoted whole when the question names it: its last
// paragraph ("Note that this option is incompatible with --index") is as
// much its definition as the first. An option the question does not name
// is quoted by its parts.
func TestAnOptionAskedAboutIsQuotedWhole(t *testing.T) {
	jobs := fileHit("/usr/share/postgresql/15/man/man1/reindexdb.1.gz", "gz", "-j njobs\n--jobs=njobs\nExecute the reindex commands in parallel by running njobs commands simultaneously. This option may reduce the processing time but it also increases the load on the database server.\n\n"+
		"reindexdb will open njobs connections to the database, so make sure your max_connections setting is high enough to accommodate all connections.\n\n"+
		"Note that this option is incompatible with the --index and --system options.")
	jobs.Chunk.Heading = "-j, --jobs"
	index := fileHit("/usr/share/postgresql/15/man/man1/reindexdb.1.gz#2", "gz", "-i index\n--index=index\nRecreate index only. Multiple indexes can be recreated by writing multiple -i switches.")
	index.Chunk.Heading = "-i, --index"
	a := extractive("can I use reindexdb --jobs together with --index", []graphrag.Hit{jobs, index}, 3)
	if !strings.Contains(a.Text, "incompatible with the --index") {
		t.Errorf("answer lacks the end of --jobs' definition:\n%s", a.Text)
	}
	units := wholeDefinition(splitUnits(jobs.Chunk.Text, true), "-s, --system")
	if len(units) < 2 {
		t.Errorf("a passage headed by another term is quoted by its parts: %d unit(s)", len(units))
	}
}

// TestAShortLeadInGoesOnWithItsSentence: a quoted sentence takes along
// the short lead-in after it with its code ("Now set the missing
// capability:"), where the fix is (libcap2-bin's README.Debian).
func TestAShortLeadInGoesOnWithItsSentence(t *testing.T) {
	readme := fileHit("/usr/share/doc/libcap2-bin/README.Debian", "", "Please check http://www.friedhoff.org/posixfilecaps.html to get more\ninformation on POSIX File Capabilities.\n\nExample: how to remove the SUID root bit from /bin/ping?\n--------------------------------------------------------\n\n"+
		"Make sure you have kernel 2.6.24 or newer you have\nCONFIG_SECURITY_CAPABILITIES and CONFIG_SECURITY_FILE_CAPABILITIES\nenabled. The Debian kernels are fine.\n\n"+
		"  $ ls -l /bin/ping\n  -rwsr-xr-x 1 root root 30736 2007-01-31 00:10 /bin/ping\n     ^\nThat is not good.\n\n  $ sudo chmod 755 /bin/ping\n\nOr use dpkg-statoverride.\n\n"+
		"  $ ls -l /bin/ping\n  -rwxr-xr-x 1 root root 30736 2007-01-31 00:10 /bin/ping\n\nThat is better but ping fails.\n\n"+
		"  $ ping -c1 localhost\n  ping: icmp open socket: Operation not permitted\n\nNow set the missing capability:\n\n  $ sudo setcap cap_net_raw+ep /bin/ping\n\n... and ping will work again.\n")
	news := fileHit("/usr/share/doc/systemd/NEWS.gz", "gz", "CHANGES WITH 243:\n\n        * This release enables unprivileged programs (i.e. requiring neither\n          setuid nor file capabilities) to send ICMP Echo (i.e. ping) requests\n          by turning on the \"net.ipv4.ping_group_range\" sysctl of the Linux\n          kernel for the whole UNIX group range, i.e. all processes.")
	a := extractive(`I removed the setuid bit from ping and now it says "icmp open socket: Operation not permitted". How do I make it work without setuid?`, []graphrag.Hit{readme, news}, 3)
	if !strings.Contains(a.Text, "cap_net_raw+ep") {
		t.Errorf("answer lacks the command after the short lead-in:\n%s", a.Text)
	}
}

// TestACallsLiteralIsTheAskersExample: the literal a question's code
// passes to a call is the asker's example value, not a name the answer
// must hold; the call's name still is.
func TestACallsLiteralIsTheAskersExample(t *testing.T) {
	for q, want := range map[string]string{
		`why does len(net.ParseIP("10.0.0.1")) give 16 instead of 4?`:    `why does len(net.ParseIP("        ")) give 16 instead of 4?`,
		"what does strings.Fields(`a  b`, x) do":                         "what does strings.Fields(`    `, x) do",
		`what does the "unsupported JPEG feature: precision" error mean`: `what does the "unsupported JPEG feature: precision" error mean`,
	} {
		if got := withoutArguments(q); got != want {
			t.Errorf("withoutArguments(%q) = %q, want %q", q, got, want)
		}
	}
	ip := fileHit("/go/src/net/ip.go", "go", "// ParseIP parses s as an IP address, returning the result.\n// If s is not a valid textual representation of an IP address,\n// ParseIP returns nil. The returned address is always 16 bytes,\n// IPv4 addresses are returned in IPv4-mapped IPv6 form.\nfunc ParseIP(s string) IP {")
	if m := matchConstraints(`why does len(net.ParseIP("10.0.0.1")) give 16 instead of 4?`, []graphrag.Hit{ip}); len(m.Missing) > 0 {
		t.Errorf("missing %v: want ParseIP's doc to meet the question", m.Missing)
	}
}

// TestAProductsNameIsNotItsServersPage: "postgres" in "postgres list all
// open cursors in my session" names the product every page under
// /usr/share/postgresql/15/ is of, not the server's own page: that page
// is not preferred for it.
func TestAProductsNameIsNotItsServersPage(t *testing.T) {
	var hits []graphrag.Hit
	for i := range 5 {
		h := fileHit("/usr/share/postgresql/15/man/man1/postgres.1.gz", "gz", "postgres is the PostgreSQL database server. Option "+string(rune('a'+i))+" sets a session parameter.")
		h.Chunk.ID = graphrag.ChunkID(h.Source.Path, i)
		hits = append(hits, h)
	}
	declare := fileHit("/usr/share/postgresql/15/man/man7/DECLARE.7.gz", "gz", "You can see all available cursors by querying the pg_cursors system view.")
	hits = append([]graphrag.Hit{declare}, hits...)
	kept := preferHits("postgres list all open cursors in my session", hits, hits[:5], nil, 5)
	if !slices.ContainsFunc(kept, func(h graphrag.Hit) bool { return h.Source.Path == declare.Source.Path }) {
		t.Errorf("kept %v: the server's page crowded out DECLARE's", paths(kept))
	}
}

// TestASentenceThatLeansBackGoesOn: the answer's first sentence takes
// along the next one of its section when that one leans on it (an aside
// in parentheses, a sentence opening with "However" or "this"): what the
// question's words matched goes on there, in words of its own.
func TestASentenceThatLeansBackGoesOn(t *testing.T) {
	for s, want := range map[string]bool{
		"(A snapshot that is still mounted is skipped, whatever its age.)": true,
		"However, a mounted snapshot is kept.":                             true,
		"Otherwise the call hangs until the peer answers.":                 true,
		"In that case the volume is left alone.":                           true,
		"The retention period is set with --keep.":                         false,
		"Snapshots are listed by zorpctl ls, and this is fast.":            false,
	} {
		if got := leansBack(s); got != want {
			t.Errorf("leansBack(%q) = %v, want %v", s, got, want)
		}
	}
	page := fileHit("/usr/share/man/man1/zorpctl.1.gz", "gz", "zorpctl prune deletes the snapshots of a volume that are older than its retention period. "+
		"(A snapshot that is still mounted is skipped, whatever its age.) The retention period of a volume is set with zorpctl keep.")
	conf := fileHit("/usr/share/man/man5/zorpctl.conf.5.gz", "gz", "prune_hour sets the hour at which zorpctl prune deletes old snapshots each night.")
	a := extractive("does zorpctl prune delete every old snapshot of a volume?", []graphrag.Hit{page, conf}, 3)
	if !strings.Contains(a.Text, "still mounted is skipped") {
		t.Errorf("answer lacks the aside after its first sentence:\n%s", a.Text)
	}
}

// TestEveryQuotedSentenceTakesItsFollowOn: not only the answer's first
// sentence goes on into the next one that leans back on it; every quoted
// sentence does.
func TestEveryQuotedSentenceTakesItsFollowOn(t *testing.T) {
	guide := fileHit("/usr/share/doc/zorpctl/README", "", "zorpctl prune deletes the snapshots of a volume once they are older than its retention period.")
	page := fileHit("/usr/share/man/man1/zorpctl.1.gz", "gz", "The snapshots of a pinned volume are never pruned. "+
		"However, zorpctl prune --unpin drops the pin first and prunes them as usual.")
	a := extractive("does zorpctl prune delete old snapshots of a pinned volume?", []graphrag.Hit{guide, page}, 2)
	if !strings.Contains(a.Text, "never pruned") || !strings.Contains(a.Text, "--unpin drops the pin") {
		t.Errorf("answer lacks the second quoted sentence or the one that goes on from it:\n%s", a.Text)
	}
}

// TestASentenceOpeningWithAlsoGoesOn: a sentence whose first word adds
// to the one before ("Also, …") goes on from it and is quoted with it; the
// same word later in a sentence speaks of that sentence's own subject.
func TestASentenceOpeningWithAlsoGoesOn(t *testing.T) {
	for s, want := range map[string]bool{
		"Also, the quota is never applied to the spool owner.":    true,
		"Moreover, a frozen spool keeps its quota.":               true,
		"The spool owner also sets the quota with zorpctl quota.": false,
	} {
		if got := leansBack(s); got != want {
			t.Errorf("leansBack(%q) = %v, want %v", s, got, want)
		}
	}
	page := fileHit("/usr/share/man/man7/CREATE_SPOOL.7.gz", "gz", "The QUOTA option of a spool is only applied approximately; two writers that start together may both exceed it. "+
		"Also, the quota is never applied to owners. The spool is created in the current zorp.")
	a := extractive("Does a spool's QUOTA apply to owners?", []graphrag.Hit{page}, 1)
	if !strings.Contains(a.Text, "never applied to owners") {
		t.Errorf("answer lacks the sentence that goes on from the quoted one:\n%s", a.Text)
	}
}

// TestASentenceThatOpensBackTakesItsAntecedent: a quoted sentence that
// opens by pointing back (an aside in parentheses, "This …") takes along
// the sentence before it, which says what it points at.
func TestASentenceThatOpensBackTakesItsAntecedent(t *testing.T) {
	for s, want := range map[string]bool{
		"(You can frob it from another session.)":   true,
		"This takes a lock on every quill.":         true,
		"Frobbing this zorp takes a lock.":          false,
		"A zorp that is open elsewhere is skipped.": false,
	} {
		if got := opensBack(s); got != want {
			t.Errorf("opensBack(%q) = %v, want %v", s, got, want)
		}
	}
	page := fileHit("/usr/share/man/man7/FROB_ZORP.7.gz", "gz", "FROB ZORP rewrites every quill of a zorp. "+
		"The zorp you are connected to stays locked against frobbing. (You can frob it from another session.) Frobbing takes a lock on the zorp.")
	a := extractive("can I frob it from another session", []graphrag.Hit{page}, 1)
	if !strings.Contains(a.Text, "stays locked against frobbing") || !strings.Contains(a.Text, "frob it from another session") {
		t.Errorf("answer lacks the aside or the sentence it points back at:\n%s", a.Text)
	}
}

// TestSubjectsPassagesHoldItsNamesTogether: a question names its subject
// by several names its document writes in different passages (the
// package doc says Quill, the constant's line says ARM64): the subject's
// passages hold them together. A name none of them holds (Rust, only in
// rustc's changelog) still empties the grading.
func TestSubjectsPassagesHoldItsNamesTogether(t *testing.T) {
	zorp := []graphrag.Hit{
		fileHit("/go/src/debug/zorp/zorp.go", "go", "const (\n\tMachineAMD64 = 0x8664\n\tMachineARM64 = 0xaa64 // Machine type of ARM64 objects\n)"),
		fileHit("/go/src/debug/zorp/file.go", "go", "// Package zorp reads the object files of the Quill operating system.\npackage zorp"),
		fileHit("/doc/boards/changelog", "", "boards (2.1) stable; urgency=low\n  * Quill boards build ARM64 objects again."),
	}
	q := "What Machine value does a zorp header have for Quill ARM64 objects, per debug/zorp?"
	if m := matchConstraints(q, zorp); len(m.Apart) > 0 || len(m.Missing) > 0 {
		t.Errorf("apart %v, missing %v: debug/zorp's passages hold ARM64 and Quill together", m.Apart, m.Missing)
	}
	if m := matchConstraints("What Machine value does a zorp header have for Wibble ARM64 objects, per debug/zorp?", append(zorp, fileHit("/doc/boards/NEWS", "", "Wibble boards run ARM64 objects now."))); len(m.Apart) == 0 {
		t.Error("Wibble only in a NEWS file under no folder of debug/zorp: want the names apart")
	}
}

// TestAnchorsOfTheAskingSentence: the names of the situation a question
// tells before it asks (the asker's proxy) are the asker's, not the
// document's; the names of what it asks still anchor it.
func TestAnchorsOfTheAskingSentence(t *testing.T) {
	hits := []graphrag.Hit{
		fileHit("/go/src/net/zorp/child.go", "go", "// HeaderEnv returns the zorp variables the front end passed with the request.\nfunc HeaderEnv(r *http.Request) map[string]string"),
		fileHit("/doc/httpd/changelog", "", "httpd (2.1-1) unstable; urgency=medium\n  * Add a Frobserve compatible module."),
	}
	if m := matchConstraints("We run net/zorp under Frobserve. How do I get the zorp variables of a request?", hits); len(m.Apart) > 0 || len(m.Missing) > 0 {
		t.Errorf("anchors apart %v, missing %v: Frobserve is the asker's proxy, told before the question", m.Apart, m.Missing)
	}
	if m := matchConstraints("How do I get the zorp variables of a net/zorp request behind Frobserve?", hits); len(m.Apart) == 0 {
		t.Error("Frobserve asked about is held only by another package's changelog: want the anchors apart")
	}
	if got := askingPart("Does zorp run on Frobix? Which version?"); got != "Does zorp run on Frobix? Which version?" {
		t.Errorf("askingPart %q: a question of questions asks in full", got)
	}
	if q := "How does ALTER ZORP ... RENAME differ from frob()?"; askingPart(q) != q {
		t.Errorf("askingPart %q: an ellipsis ends no sentence", askingPart(q))
	}
}

// TestEvidenceOfTheAskingSentence: the plain words of the situation a
// question tells before it asks weigh as everyday words; those of what it
// asks, and the names of either, keep their weight.
func TestEvidenceOfTheAskingSentence(t *testing.T) {
	weights := map[string]float64{}
	for _, tm := range evidenceTerms("My panel went blank with widgets after an upgrade to Frobix. How do I enable zorp mode?") {
		weights[tm.Word] = tm.Weight
	}
	for w, want := range map[string]float64{"panel": everydayWeight, "blank": everydayWeight, "upgrade": everydayWeight, "zorp": 1, "frobix": everydayWeight + 0.75} {
		if weights[w] != want {
			t.Errorf("weight of %q = %v, want %v", w, weights[w], want)
		}
	}
	if w := evidenceTerms("how do I enable zorp mode after an upgrade?"); slices.ContainsFunc(w, func(tm term) bool { return tm.Word == "upgrade" && tm.Weight != 1 }) {
		t.Error("a one-sentence question's words keep their weight")
	}
}

// TestSystemFoldersNameNothing: "local" in a question does not make the
// files installed under /usr/local its subject.
func TestSystemFoldersNameNothing(t *testing.T) {
	hits := []graphrag.Hit{
		fileHit("/usr/local/zorp/src/net/dial.go", "go", "// Dial connects to the address on the named network."),
		fileHit("/usr/share/doc/frobd/NEWS.Debian", "", "frobd now passes the ZAP bit from a local validating resolver only when zorp.conf sets trust-zap."),
	}
	if m := matchConstraints("What do I add to zorp.conf so a local frobd passes the ZAP bit?", hits); len(m.Apart) > 0 || len(m.Missing) > 0 {
		t.Errorf("anchors apart %v, missing %v: /usr/local names no subject", m.Apart, m.Missing)
	}
	if !pathNamed("/usr/share/doc/frobd/NEWS.Debian", map[string]bool{"frobd": true}) || pathNamed("/usr/share/doc/frobd/NEWS.Debian", map[string]bool{"share": true}) {
		t.Error("frobd names its doc folder; share names nothing")
	}
}

// TestSentenceEndsAfterAOneLineExample: a lead-in ending in ":" with a
// one-line example after it (a man page's example that is not indented
// as code) joins the lower-case rest of its sentence after the example,
// which holds what the example shows.
func TestSentenceEndsAfterAOneLineExample(t *testing.T) {
	units := splitUnits("NOTES\n\nName a frob's parts yourself. Take this:\n\nZAP FROB quill AS PICK 7;\n\n"+
		"leaves the part unnamed, and reports then call it ?zorp?.\n\nSee also QUILL.\n", true)
	want := "Take this:\nZAP FROB quill AS PICK 7;\nleaves the part unnamed, and reports then call it ?zorp?."
	for _, u := range units {
		if strings.Contains(u.text, "?zorp?") {
			if u.text != want {
				t.Errorf("unit %q\nwant %q", u.text, want)
			}
			return
		}
	}
	t.Errorf("no unit holds the end of the sentence: %+v", units)
}

// A line written as a Markdown heading that is a sentence is a comment,
// quoted as prose: a Debian changelog cut short ends by saying where the
// rest is. A heading ("# Older entries") stays a heading.
func TestCommentSentenceIsProse(t *testing.T) {
	log := fileHit("/usr/share/doc/libzorp7/changelog.Debian.gz", "gz",
		"zorp (2.4-1) unstable; urgency=medium\n\n  * New upstream release.\n\n -- Ann Quill <ann@example.org>  Sun, 07 Jul 2019 23:18:44 +0200\n\n"+
			"# Older entries have been removed from this changelog.\n# To read the complete changelog use `apt changelog libzorp7`.\n")
	a := extractive("The changelog of libzorp7 is cut short. How do I read the complete changelog?", []graphrag.Hit{log}, 3)
	if !strings.Contains(a.Text, "apt changelog libzorp7") {
		t.Errorf("answer lacks the command the comment gives:\n%s", a.Text)
	}
	units := answerUnits("# Older entries\n\nThey are gone.\n")
	if len(units) != 1 || units[0].heading != "Older entries" {
		t.Errorf("units = %+v, want one under the heading", units)
	}
}

// A term's definition left unfinished before a block ("This should be a
// block") goes on in the block: the definition is quoted with it, and the
// paragraph after the block stands on a line of its own, not on the
// block's closing fence.
func TestADefinitionGoesOnInItsBlock(t *testing.T) {
	body := fileHit("/usr/share/man/man7/CREATE_FROB.7.gz", "gz", "zorp_body\nThe body of a ZORP frob. This should be a block\n\n    OPEN QUILL\n      step;\n      step;\n    CLOSE\n\n"+
		"This is similar to writing the body as a string constant, but it is parsed when the frob is created.")
	body.Chunk.Heading = "PARAMETERS > zorp_body"
	a := extractive("When writing a ZORP frob body in the standard form instead of a string constant, which keywords wrap the steps?", []graphrag.Hit{body}, 3)
	if !strings.Contains(a.Text, "This should be a block\n```\nOPEN QUILL") {
		t.Errorf("answer does not go on from the definition into its block:\n%s", a.Text)
	}
	if strings.Contains(a.Text, "``` This") {
		t.Errorf("a paragraph goes on on the block's closing fence:\n%s", a.Text)
	}
}

// When the declarations of the name asked about fill the passages read,
// the passage that holds every exact name the question writes is read
// besides: the header of the file that keeps an old copy of the type.
func TestPreferHitsKeepsAnExactHitBesideDeclarations(t *testing.T) {
	var hits []graphrag.Hit
	for i, part := range []string{"A Spool holds frobs.", "Patterns of a Spool match frobs.", "In 1.4, a Spool sorted its frobs.", "A Spool may be copied.", "A Spool's zero value is empty."} {
		hits = append(hits, codeHit("/src/quill/spool.go", i, "quill.Spool", "type", "// "+part+"\ntype Spool struct{}"))
	}
	header := codeHit("/src/quill/spool14.go", 0, "quill", "package", "// This file keeps Spool as in Quill 1.4.\n// Most of this code is derived from commit 1a2b3c4d5e.\npackage quill")
	hits = append(hits, header)
	kept := preferHits("quill ships an old quill.Spool from release 1.4; its file header names a commit. Which one?", hits, hits[:5], []int{2, 5}, 5)
	if !slices.ContainsFunc(kept, func(h graphrag.Hit) bool { return h.Source.Path == header.Source.Path }) {
		t.Errorf("kept %v: want spool14.go's header beside Spool's declarations", paths(kept))
	}
}

// A vendored package the tree holds no other copy of is the package's
// source: its doc is read like any other file's. Beside the file it
// copies, it is set aside.
func TestVendoredFileSetAsideOnlyBesideItsSource(t *testing.T) {
	vendored := codeHit("/go/src/cmd/vendor/example.org/x/quilltools/passes/spoolcheck/doc.go", 0, "spoolcheck", "package",
		"// Package spoolcheck defines an Analyzer that reports a Spool wound\n// past its limit.\n//\n// The spoolcheck analyzer reports the call quill.Wind(n) when n is over 64.\npackage spoolcheck")
	hits := []graphrag.Hit{vendored}
	for i := range 5 {
		hits = append(hits, codeHit("/go/src/quill/wind.go", i, "quill.Wind", "func", "// Wind winds the spool by n turns.\nfunc Wind(n int) {}"))
	}
	const q = "What does the spoolcheck analyzer report about quill.Wind calls?"
	kept := preferHits(q, hits, hits[1:6], nil, 5)
	if !slices.ContainsFunc(kept, func(h graphrag.Hit) bool { return h.Chunk.ID == vendored.Chunk.ID }) {
		t.Fatalf("kept %v: want the vendored analyzer's doc, the only copy", paths(kept))
	}
	if a := extractive(q, kept, 3); !strings.Contains(a.Text, "when n is over 64") {
		t.Errorf("answer:\n%s", a.Text)
	}

	source := codeHit("/go/src/example.org/x/quilltools/passes/spoolcheck/doc.go", 0, "spoolcheck", "package", vendored.Chunk.Text)
	hits = append([]graphrag.Hit{vendored, source}, hits[1:5]...)
	kept = preferHits(q, hits, hits[:5], nil, 5)
	copyAt := slices.IndexFunc(kept, func(h graphrag.Hit) bool { return h.Chunk.ID == vendored.Chunk.ID })
	sourceAt := slices.IndexFunc(kept, func(h graphrag.Hit) bool { return h.Chunk.ID == source.Chunk.ID })
	if sourceAt < 0 || copyAt >= 0 && copyAt < sourceAt {
		t.Errorf("kept %v: want the copy after its source", paths(kept))
	}
}
