package nodes

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// The smallest passage that answers: a const block's entry, an option's
// paragraph, the notes of the release asked about, the file the question
// names. Fixtures written for these tests in the style of the real files.
func TestSmallestPassageAnswers(t *testing.T) {
	t.Run("the entry of a const block", func(t *testing.T) {
		status := fileHit("/go/src/net/http/status.go", "go", "\tStatusExpectationFailed            = 417 // RFC 9110, 15.5.18\n"+
			"\tStatusTeapot                       = 418 // RFC 9110, 15.5.19 (Unused)\n"+
			"\tStatusMisdirectedRequest           = 421 // RFC 9110, 15.5.20\n")
		status.Chunk.Symbol, status.Chunk.Kind = "http.StatusExpectationFailed", "const"
		text := fileHit("/go/src/net/http/status.go", "go", "\tcase StatusTeapot:\n\t\treturn \"I'm a teapot\"\n")
		text.Chunk.ID, text.Chunk.Symbol, text.Chunk.Kind = "status#5", "http.StatusText", "func"
		a := extractive("what is the value of http.StatusTeapot", []graphrag.Hit{status, text}, 3)
		want := "```\nStatusTeapot                       = 418 // RFC 9110, 15.5.19 (Unused)\n```\n[1]"
		if a.Text != want {
			t.Errorf("answer:\n%s\nwant only the entry:\n%s", a.Text, want)
		}
		if got := a.Citations[0].Hit.Chunk.Symbol; got != "http.StatusTeapot" {
			t.Errorf("cited symbol %q, want http.StatusTeapot", got)
		}
	})
	t.Run("the entry of a const block whose doc is too long to quote", func(t *testing.T) {
		var doc strings.Builder
		doc.WriteString("// Names for the frob modes.\n//\n")
		for i := range maxCodeLines {
			fmt.Fprintf(&doc, "// Frob modes, note %d: a mode picks how hard the zorp is frobbed.\n", i)
		}
		modes := fileHit("/src/frob/mode.go", "go", doc.String()+"const (\n\tModeGentle Mode = -3\n\tModeFirm   Mode = 0\n\tModeHard   Mode = 5\n)")
		modes.Chunk.Symbol, modes.Chunk.Kind = "frob.ModeGentle", "const"
		a := extractive("which number is frob.ModeHard", []graphrag.Hit{modes}, 3)
		if !strings.Contains(a.Text, "ModeHard   Mode = 5") || !strings.HasPrefix(a.Text, "```\n// Names for the frob modes.") || strings.Contains(a.Text, "note 3") {
			t.Errorf("answer:\n%s\nwant the block's first paragraph and ModeHard's line", a.Text)
		}
	})
	t.Run("the declaration in the package the question names", func(t *testing.T) {
		other := fileHit("/go/src/strings/strings.go", "go", "const maxInt = int(^uint(0) >> 1)")
		other.Chunk.Symbol, other.Chunk.Kind = "strings.maxInt", "const"
		math := fileHit("/go/src/math/const.go", "go", "const (\n\tintSize = 32 << (^uint(0) >> 63) // 32 or 64\n\n\tMaxInt    = 1<<(intSize-1) - 1  // MaxInt32 or MaxInt64 depending on intSize.\n\tMinInt    = -1 << (intSize - 1)\n)")
		math.Chunk.Symbol, math.Chunk.Kind = "math.intSize", "const"
		hits := []graphrag.Hit{other, math}
		kept, _, _ := gradeByConstraints("what is math.MaxInt", hits, hits, RetrievalGood, 5)
		a := extractive("what is math.MaxInt", kept, 3)
		if !strings.HasPrefix(a.Text, "```\nMaxInt    = 1<<(intSize-1) - 1") || strings.Contains(a.Text, "maxInt = int") {
			t.Errorf("answer:\n%s\nwant math's MaxInt line alone", a.Text)
		}
	})
	t.Run("an option's own paragraph", func(t *testing.T) {
		page := fileHit("/man/man1/pg_basebackup.1.gz", "man", "OPTIONS\n\n-R\n--write-recovery-conf\nCreates a standby.signal file.\n\n"+
			"-r rate\n--max-rate=rate\nSets the maximum transfer rate at which data is collected from the source server. Values are in kilobytes per second. "+
			"Valid values are between 32 kilobytes per second and 1024 megabytes per second.\n\n"+
			"-S slotname\n--slot=slotname\nThis option can only be used together with -X stream.\n")
		a := extractive("what values can I give pg_basebackup --max-rate", []graphrag.Hit{page}, 3)
		if !strings.Contains(a.Text, "--max-rate=rate Sets the maximum transfer rate") || !strings.Contains(a.Text, "Valid values are between 32 kilobytes") || strings.Contains(a.Text, "--slot") {
			t.Errorf("answer:\n%s\nwant the --max-rate paragraph whole, and only it", a.Text)
		}
	})
	t.Run("an option whose name says what the question asks", func(t *testing.T) {
		strict := fileHit("/man/man1/pg_dump.1.gz", "man", "--strict-names\nRequire that each extension (-e/--extension), schema (-n/--schema) and table (-t/--table) "+
			"qualifier match at least one extension/schema/table in the database to be dumped.")
		only := fileHit("/man/man1/pg_dump.1.gz", "man", "-s\n--schema-only\nDump only the object definitions (schema), not data.")
		only.Chunk.ID = "pg_dump#2"
		a := extractive("how do I dump only the schema with pg_dump", []graphrag.Hit{strict, only}, 1)
		if !strings.Contains(a.Text, "--schema-only Dump only the object definitions") {
			t.Errorf("answer:\n%s\nwant the --schema-only paragraph", a.Text)
		}
	})
	t.Run("a term above its description", func(t *testing.T) {
		page := fileHit("/man/man7/TRUNCATE.7.gz", "man", "PARAMETERS\n\nname\nThe name of a table to truncate.\n\n"+
			"RESTART IDENTITY\nAutomatically restart sequences owned by columns of the truncated table(s).\n\n"+
			"CONTINUE IDENTITY\nDo not change the values of sequences. This is the default.\n")
		a := extractive("what does TRUNCATE RESTART IDENTITY do", []graphrag.Hit{page}, 1)
		if !strings.Contains(a.Text, "RESTART IDENTITY Automatically restart sequences") {
			t.Errorf("answer:\n%s\nwant the RESTART IDENTITY paragraph", a.Text)
		}
	})
	t.Run("the notes of the release the question names", func(t *testing.T) {
		log := fileHit("/doc/jq/changelog.Debian.gz", "debian", "jq (1.6-2.1+deb12u1) bookworm; urgency=medium\n\n"+
			"  * Cherry-pick upstream commit c6e041699d8c to\n    fix CVE-2025-48060.\n\n -- ChangZhuo Chen <czchen@debian.org>  Wed, 09 Jul 2025 22:23:15 +0800\n\n"+
			"jq (1.6-2.1) unstable; urgency=medium\n\n  * Fix the build failing on dh_missing (Closes: #972040)\n  * Non-maintainer upload\n")
		copied := log
		copied.Chunk.ID, copied.Source.Path = "libjq1#0", "/doc/libjq1/changelog.Debian.gz"
		a := extractive("which CVE does jq 1.6-2.1+deb12u1 fix", []graphrag.Hit{log, copied}, 3)
		if !strings.Contains(a.Text, "CVE-2025-48060") || strings.Contains(a.Text, "dh_missing") || strings.Contains(a.Text, "urgency=medium") ||
			strings.Contains(a.Text, "ChangZhuo") || strings.Count(a.Text, "CVE-2025-48060") > 1 {
			t.Errorf("answer:\n%s\nwant the 1.6-2.1+deb12u1 entry's item once: not the release line, its signature, another release's or a copy's", a.Text)
		}
	})
	t.Run("a description, not the usage line", func(t *testing.T) {
		page := fileHit("/man/man1/pg_resetwal.1.gz", "man", "SYNOPSIS\n\npg_resetwal [-f | --force] [-n | --dry-run] [option...] [-D | --pgdata]datadir\n\n"+
			"DESCRIPTION\n\npg_resetwal clears the write-ahead log (WAL) and optionally resets some other control information stored in the pg_control file.\n")
		a := extractive("what does pg_resetwal do", []graphrag.Hit{page}, 1)
		if !strings.Contains(a.Text, "clears the write-ahead log") {
			t.Errorf("answer:\n%s\nwant the description", a.Text)
		}
	})
	t.Run("the file the question names", func(t *testing.T) {
		other := fileHit("/doc/libfreetype6/copyright", "", "Files: src/gzip/zutil.c\nCopyright: 1995-2017 Jean-loup Gailly\nLicense: Zlib")
		gzip := fileHit("/doc/gzip/copyright", "", "Files: *\nCopyright: 1999-2022 Free Software Foundation, Inc.\nLicense: GPL-3+")
		hits := []graphrag.Hit{other, gzip}
		kept, _, _ := gradeByConstraints("who holds the copyright on gzip", hits, hits, RetrievalGood, 5)
		a := extractive("who holds the copyright on gzip", kept, 1)
		if !strings.Contains(a.Text, "Free Software Foundation") {
			t.Errorf("answer:\n%s\nwant gzip's own copyright file", a.Text)
		}
	})
}

func TestStepsQuoteTheExampleThatRunsTheCommand(t *testing.T) {
	page := fileHit("/man/man1/pg_restore.1.gz", "man", "EXAMPLES\n\n"+
		"Assume we have dumped a database called mydb into a custom-format dump file:\n\n$ pg_dump -Fc mydb > db.dump\n\n"+
		"To drop the database and recreate it from the dump:\n\n$ dropdb mydb\n$ pg_restore -C -d postgres db.dump\n\n"+
		"The database named in the -d switch can be any database existing in the cluster.\n")
	a := extractive("how do I restore a custom-format dump with pg_restore", []graphrag.Hit{page}, 1)
	want := "To drop the database and recreate it from the dump:\n```\n$ dropdb mydb\n$ pg_restore -C -d postgres db.dump\n```"
	if !strings.Contains(a.Text, want) {
		t.Errorf("answer:\n%s\nwant the example that runs pg_restore, its commands on lines of their own:\n%s", a.Text, want)
	}
}

// Of the chunks of one manual page, all holding the page's name, those
// that hold more of the question's other words are kept first, as the
// answer matches words ("modes" is "mode"): the store ranked pg_ctl's -m
// option sixth for "which shutdown modes does pg_ctl support".
func TestPageChunksKeptByTheQuestionsWords(t *testing.T) {
	const path = "/man/man1/pg_ctl.1.gz"
	chunk := func(ordinal int, heading, text string) graphrag.Hit {
		h := fileHit(path, "man", text)
		h.Chunk.ID, h.Chunk.Ordinal, h.Chunk.Heading = graphrag.ChunkID(path, ordinal), ordinal, heading
		return h
	}
	hits := []graphrag.Hit{
		chunk(16, "OPTIONS > -w, --wait", "-w\n--wait\nWait for the operation to complete. This is supported for the modes start, stop, restart, promote, and register."),
		chunk(25, "ENVIRONMENT > PGDATA", "PGDATA\nDefault data directory location.\n\nMost pg_ctl modes require knowing the data directory location."),
		chunk(2, "DESCRIPTION", "DESCRIPTION\n\npg_ctl is a utility for initializing a PostgreSQL database cluster, starting, stopping, or restarting the server."),
		chunk(24, "ENVIRONMENT > PGCTLTIMEOUT", "PGCTLTIMEOUT\nDefault limit on the number of seconds to wait when waiting for startup or shutdown to complete."),
		chunk(15, "OPTIONS > -V, --version", "-V\n--version\nPrint the pg_ctl version and exit."),
		chunk(9, "OPTIONS > -m mode, --mode=mode", "-m mode\n--mode=mode\nSpecifies the shutdown mode. mode can be smart, fast, or immediate, or the first letter of one of these three. If this option is omitted, fast is the default."),
	}
	q := "which shutdown modes does pg_ctl support"
	kept, _, _ := gradeByConstraints(q, hits, hits, RetrievalGood, 5)
	if !slices.ContainsFunc(kept, func(h graphrag.Hit) bool { return h.Chunk.Ordinal == 9 }) {
		t.Fatalf("kept %v, want the -m option among them", headings(kept))
	}
	if a := extractive(q, kept, 3); !strings.Contains(a.Text, "smart, fast, or immediate") {
		t.Errorf("answer:\n%s\nwant the -m option's paragraph", a.Text)
	}
}

func headings(hits []graphrag.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Chunk.Heading)
	}
	return out
}
