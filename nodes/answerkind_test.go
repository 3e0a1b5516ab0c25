package nodes

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

func TestAnswerKindWords(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"which TCP port does quarkd listen on", []string{"port", "tcp"}},
		{"what socket file does the quarkd daemon create", []string{"file", "socket"}},
		{"in which folder are quarkd's logs kept", []string{"folder"}},
		{"what kind of checksum does zorp store", []string{"checksum"}},
		{"is there an option to make zorp skip hidden files", []string{"option"}},
		{"are there flags for verbose output", []string{"flags"}},
		// No kind: "what" is the subject or the object, or the phrase is
		// a name.
		{"what is the default port of quarkd", nil},
		{"what quarkd does on startup", nil},
		{"what zorp does with empty input", nil},
		{"which of the two is faster", nil},
		{"which quark_conf setting does quarkd read", nil},
		{"how do I stop quarkd", nil},
		{"which Zorp version added the prune command", nil}, // no auxiliary after the phrase
	} {
		got := slices.Sorted(maps.Keys(answerKindWords(c.q)))
		if !slices.Equal(got, c.want) {
			t.Errorf("answerKindWords(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

// The words that say what kind of answer is wanted are not what the
// answering passage writes: it writes the answer.
func TestAnAnswersKindIsNotAMissingWord(t *testing.T) {
	q := "which HTTP route path does quarkstat expose its stats on"
	hits := []graphrag.Hit{
		fileHit("/src/quarkstat/quarkstat.go", "go", "// Package quarkstat exposes stats over the web at /debug/stats in JSON."),
		fileHit("/src/quarkstat/counter.go", "go", "// Counter is an integer stat that quarkstat exposes."),
		fileHit("/src/net/web/server.go", "go", "// A Server answers HTTP requests on a route."),
	}
	ev := measureEvidence(evidenceTerms(q), hits[:2], evidenceHits)
	if s := ev.Strength(); s < DefaultOptions().EmptyEvidence {
		t.Errorf("evidence %.2f (missing %v): the passage holds all but the kind words, want at least %.2f", s, ev.Missing, DefaultOptions().EmptyEvidence)
	}
	// The kind is no proper name the named package's passage must hold
	// too: a weak score does not make the named file wrong.
	kept, r, note := gradeByConstraints(q, hits, hits[:1], RetrievalPoor, 5)
	if r != RetrievalGood || kept[0].Source.Path != "/src/quarkstat/quarkstat.go" {
		t.Errorf("retrieval %s (%s), kept %v: want good with quarkstat.go first", r, note, paths(kept))
	}
	// A proper name outside the kind phrase still pins the question to
	// the named package's passage.
	if _, r, _ := gradeByConstraints("does quarkstat expose its stats over HTTP", hits, hits[:1], RetrievalPoor, 5); r == RetrievalGood {
		t.Error("quarkstat's passages never say HTTP, a web server's does: want no promotion to good")
	}
}

// TestWhichReleaseIsAVersion: asked which release or version something
// is, the answer is the sentence with the version number, not the one that
// shares most words with the question.
func TestWhichReleaseIsAVersion(t *testing.T) {
	readme := fileHit("/doc/nettools/README", "", "NET-TOOLS A collection of programs that form the base set of the NET-3 networking distribution for the Linux operating system.\n\n"+
		"This package includes the important tools for controlling the network subsystem of the Linux kernel: arp, hostname, ifconfig, netstat, rarp and route.\n\n"+
		"This is net-tools 2.10.\n\nINSTALLING Installation instructions are in the INSTALLING file.")
	if a := extractive("which release of net-tools do I have installed (ifconfig, netstat, route)?", []graphrag.Hit{readme}, 2); !strings.Contains(a.Text, "2.10") {
		t.Errorf("answer lacks the release:\n%s", a.Text)
	}
}

// Asked in which release an option came, with the option's entry of its
// manual quoted, the version is taken from the manual's notes, another
// passage of the same document, by the note that names the option asked
// about: not the one about the other options.
func TestTheReleaseOfAnOptionFromTheManualsNotes(t *testing.T) {
	const page = "/usr/share/man/man1/zorp_config.1.gz"
	entry := fileHit(page, "gz", "--frobdir\nPrint the location of the frob files.")
	notes := fileHit(page, "gz", "NOTES\n\nThe options --zapdir, --quuxdir and --libs were added in Zorp 8.1. The option --frobdir was added in Zorp 8.4.")
	notes.Chunk.ID, notes.Chunk.Ordinal = graphrag.ChunkID(page, 1), 1
	other := fileHit("/usr/share/man/man1/zorp_dump.1.gz", "gz", "NOTES\n\nThe option --frobdir was added in Zorp 9.1.")
	kept := []graphrag.Hit{entry, notes, other}
	sel, cands := newSelection("In which Zorp release was zorp_config's --frobdir option added?", kept)
	at := slices.IndexFunc(cands, func(c candidate) bool { return c.hit == 0 && strings.Contains(c.text, "Print the location") })
	if at < 0 {
		t.Fatal("no unit of the option's entry")
	}
	sel.take(cands[at])
	sel.cover(cands, kept)
	var got []string
	for _, c := range sel.chosen[1:] {
		got = append(got, c.text)
	}
	if len(got) != 1 || !strings.Contains(got[0], "Zorp 8.4") {
		t.Errorf("cover took %q: want the note of the same manual on --frobdir (8.4)", got)
	}
}
