package nodes

import (
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
)

func TestIdentifiersAreNotArithmetic(t *testing.T) {
	tests := []struct {
		query string
		arith bool
	}{
		{"How much was invoice INV-2024-0117?", false},
		{"what does error E-RESTIC-17 mean", false},
		{"what changed in v2.3.0", false},
		{"what happened on 2024-03-12", false},
		{"call 555-123-4567", false},
		{"who has phone +49 30 1234567", false},
		{"whose account is DE89 3704 0044 0532 0130 00", false},
		{"what is 2024-0117", false},
		{"what is 192.168.1.1", false},
		{"what is 12 - 7", true},
		{"what is 12-7", true},
		{"3x4", true},
		{"15% of 68", true},
		{"100 multiplied by 55", true},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if got := isArithmetic(tt.query); got != tt.arith {
				t.Errorf("isArithmetic = %v, want %v (masked %q)", got, tt.arith, maskIdentifiers(tt.query))
			}
			_, direct := directAnswer(tt.query, time.Now)
			if !tt.arith && direct {
				t.Errorf("directAnswer computed an identifier")
			}
			if r, ok := matchRule(tt.query); ok && r.Route == graphrag.RouteDirect && !tt.arith {
				t.Errorf("routed direct by %q", r.Reason)
			}
		})
	}
}

func TestIdentifierQuestionsGoHybrid(t *testing.T) {
	for _, q := range []string{"How much was invoice INV-2024-0117?", "what does E-RESTIC-17 mean", "release notes for v2.3.0"} {
		t.Run(q, func(t *testing.T) {
			r, ok := matchRule(q)
			if !ok || r.Route != graphrag.RouteHybrid {
				t.Errorf("rule = %+v (%v), want hybrid", r.Reason, ok)
			}
		})
	}
}

func TestExtractiveCoversTheQuestion(t *testing.T) {
	runbook := "# Backup runbook\n\nThe nightly backup job runs at 02:30 every day from the `restic-nightly` systemd timer on the\nhome server. It backs up `/srv/photos` to the Backblaze B2 bucket `atlas-restic`, and a second copy goes to the USB disk every Sunday.\n\n## Restoring a file\n\n1. Run `restic snapshots` to list snapshots.\n2. Mount the snapshot with `restic mount /mnt/restore`.\n"
	meeting := "# Architecture meeting\n\nPresent: Mira, Jonas.\n\n## Database migration\n\nWe decided to move the order service from MySQL 5.7 to PostgreSQL 16 in the second quarter.\nPriya owns the migration plan.\n\n```\nselect 1;\n```\n"
	invoice := "INVOICE INV-2024-0117\n\nDate: 17 January 2024\n\nDescription                 Amount\nManaged hosting             EUR 240.00\n\nSubtotal                    EUR 545.00\nVAT 19%                     EUR 103.55\nTotal due                   EUR 648.55\n\nPayment by bank transfer, reference INV-2024-0117.\n"
	hit := func(title, text string) []graphrag.Hit {
		return []graphrag.Hit{{Chunk: graphrag.Chunk{DocID: title, Text: text}, Source: graphrag.Source{Title: title}}}
	}
	tests := []struct {
		query, title, text string
		want               []string
		not                []string
	}{
		{"When does the nightly backup run and where does it go?", "backup-runbook.md", runbook, []string{"02:30", "atlas-restic"}, []string{"#"}},
		{"Where does the nightly backup go?", "backup-runbook.md", runbook, []string{"atlas-restic"}, nil},
		{"What did we decide about the database migration?", "2024-03-12-architecture-meeting.md", meeting, []string{"PostgreSQL 16"}, []string{"##", "```", "select 1"}},
		{"How much was invoice INV-2024-0117?", "INV-2024-0117.txt", invoice, []string{"648.55"}, nil},
		{"How do I restore a file from the backup?", "backup-runbook.md", runbook, []string{"restic"}, []string{"1. Run"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			a := extractive(tt.query, hit(tt.title, tt.text), 3)
			for _, w := range tt.want {
				if !strings.Contains(a.Text, w) {
					t.Errorf("answer lacks %q: %s", w, a.Text)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(a.Text, w) {
					t.Errorf("answer has %q: %s", w, a.Text)
				}
			}
			if g := checkAnswer(tt.query, a, hit(tt.title, tt.text)).Support; g != 1 {
				t.Errorf("grounding = %.2f", g)
			}
		})
	}
}

func TestAnswerUnits(t *testing.T) {
	units := answerUnits("# Title\n\nFirst sentence here. Second one.\n\n## Steps\n\n- item one is here\n- item two\n\n```\ncode\n```\n")
	want := []string{"First sentence here.", "Second one.", "item one is here", "item two", "code"}
	got := unitTexts(units)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("units = %q, want %q", got, want)
	}
	if units[2].heading != "Steps" || units[0].heading != "Title" || !units[2].item || units[0].item || units[3].secPos != 1 {
		t.Errorf("units = %+v", units)
	}
}

func TestFileObjectCue(t *testing.T) {
	tests := []struct {
		query     string
		cue, proc bool
	}{
		{"How do I restore a file from the backup?", false, true},
		{"how to back up a file to the NAS", false, true},
		{"how many markdown files do I have", true, false},
		{"list the files in my downloads folder", true, false},
		{"where is the file budget.xlsx", true, false},
		{"which files did I modify this week", true, false},
		{"what is the largest pdf", true, false},
		{"are my movie files eating up a lot of storage", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if got := fileObjectCue(tt.query); got != tt.cue {
				t.Errorf("fileObjectCue = %v, want %v", got, tt.cue)
			}
			if got := procedural.MatchString(tt.query); got != tt.proc {
				t.Errorf("procedural = %v, want %v", got, tt.proc)
			}
		})
	}
}

// Files as objects are the file tools' questions; files that named code,
// a program or a quoted message handles are what the code or the program's
// manual says.
func TestFilesAsObjects(t *testing.T) {
	tests := []struct {
		query string
		want  bool
	}{
		{"how many markdown files do I have", true},
		{"which files did I modify this week", true},
		{"list the files in my downloads folder", true},
		{"show the permissions of the file notes.md", true},
		{`where is "budget.xlsx"`, true},
		{"which files mention zorp.Walk", true},
		// Named code: the folders are what zorp.Walk reads.
		{"Does zorp.Walk skip folders it cannot read because of permissions?", false},
		// The count is asked in a clause that names no file.
		{"frobfmt showed only some warnings for my script; so how many warnings will it report unless told?", false},
		// "file" names a program.
		{"since which release does the file command link against libzorp", false},
		// A quoted message names the file.
		{`I get "frob: cannot find the font file" when printing a document. What is missing?`, false},
		{"How can I bring a file back out of the backup?", false},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if got := filesAsObjects(tt.query); got != tt.want {
				t.Errorf("filesAsObjects = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCoverageCountsQuotedHeadings(t *testing.T) {
	text := "# Meeting\n\n## Database migration\n\nWe decided to move the order service to PostgreSQL 16.\n"
	h := graphrag.Hit{Chunk: graphrag.Chunk{DocID: "m", Text: text}, Source: graphrag.Source{Title: "meeting.md"}}
	q := "What did we decide about the database migration?"
	a := extractive(q, []graphrag.Hit{h}, 3)
	plain := coverage(q, a.Text)
	with := coverage(q, a.Text+"\n"+quotedHeadings(a))
	if with <= plain || with < DefaultOptions().MinCoverage {
		t.Errorf("coverage with headings %.2f, without %.2f: the heading should count", with, plain)
	}
}

// TestShapePrefiltersMissNothing: the cheap checks that spare the shape
// patterns (mayHoldIdentifier, the digit check of isArithmetic) never
// skip a query the pattern would match, on every tenth training row
// (all of them take 20 s under the race detector) and on codes of each
// kind.
func TestShapePrefiltersMissNothing(t *testing.T) {
	all, err := loadTrainingRows()
	if err != nil {
		t.Fatal(err)
	}
	var rows []trainingRow
	for i := 0; i < len(all); i += 10 {
		rows = append(rows, all[i])
	}
	extra := []string{"what is ERR_CERT_DATE_INVALID", "NullPointerException in the parser", "what does JSONDecoder do", "is v2.3.0 out", "12 x 7", "square root of 81", "snake_case_name"}
	for _, q := range extra {
		rows = append(rows, trainingRow{Query: q})
	}
	for _, r := range rows {
		if identifierPattern.MatchString(r.Query) && !mayHoldIdentifier(r.Query) {
			t.Errorf("mayHoldIdentifier(%q) = false, but identifierPattern matches", r.Query)
		}
		if arithmeticPattern.MatchString(maskIdentifiers(r.Query)) && !isArithmetic(r.Query) {
			t.Errorf("isArithmetic(%q) = false, but arithmeticPattern matches", r.Query)
		}
	}
}

// One letter after a dot is an abbreviation or a file's extension, not an
// identifier asked about: "e.g." and "frob.n" name no code.
func TestAskedNamesAfterADot(t *testing.T) {
	got := askedNames("How do I print a zorp page, e.g. frob.n, as PDF, and what is io.EOF?")
	for _, w := range []string{"g", "n"} {
		if got[w] {
			t.Errorf("askedNames has %q: %v", w, got)
		}
	}
	if !got["eof"] {
		t.Errorf("askedNames %v: want eof of io.EOF", got)
	}
}

// A file in a path ("/etc/zorp.conf", "src/zorp/frob.go") is no qualified
// name: its extension names no code. A name of a package path
// ("net/zorp.Client") is one.
func TestAskedNamesInAPath(t *testing.T) {
	got := askedNames("Zorp's loader parses /etc/zorp.conf and src/zorp/frob.go. What does net/zorp.Client do when a block is unclosed?")
	for _, w := range []string{"conf", "go"} {
		if got[w] {
			t.Errorf("askedNames has %q of a file's name: %v", w, got)
		}
	}
	if !got["client"] {
		t.Errorf("askedNames %v: want client of net/zorp.Client", got)
	}
}

// Names joined by "+" ("Open+Read") are two names: a file writes them
// apart, never as the pair.
func TestAskedNamesJoinedByPlus(t *testing.T) {
	got := askedNames("Can my zorp.FS implement FrobFile so that zorp.FrobFile skips Open+Read?")
	if got["open+read"] {
		t.Errorf("askedNames has the pair open+read: %v", got)
	}
	if !got["frobfile"] {
		t.Errorf("askedNames %v: want frobfile", got)
	}
}
