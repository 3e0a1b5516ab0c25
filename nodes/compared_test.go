package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

func TestComparedIn(t *testing.T) {
	tests := []struct {
		question string
		a, b     string
		ok       bool
	}{
		{"Is zorpd faster than frobd for serving tiles?", "zorpd", "frobd", true},
		{"is Zorpfs more secure than Frobfs on a laptop?", "zorpfs", "frobfs", true},
		{"Is Zorp or Frob the best pick to serve tiles?", "zorp", "frob", true},
		{"Should I use zorpgpg or frobcrypt to sign my releases?", "zorpgpg", "frobcrypt", true},
		// No two named things judged.
		{"which zorp files are larger than 2 GB", "", "", false},
		{"I'd pass the frobs on rather than remove them. What command passes them?", "", "", false},
		{"ought I run DROP ZORP for this, or something else?", "", "", false},
		{"ought I run DROP ZORP to clear out frobs, or something else?", "", "", false},
		{"any nicer binding than python-zorp for the frob loop?", "", "", false},
		{"does zorpd keep more than 3 frobs per tile?", "", "", false},
		// Two situations of the asker's, not a choice put to the files.
		{"zorpd README: if I'm cross-building or building offline, which file should I read?", "", "", false},
		{"When frobbing or zorping a tile, which flag should I pass?", "", "", false},
		{"If the tiles are stale, should I run zorpd or frobd?", "zorpd", "frobd", true},
		// What a way does, not two things to choose between.
		{"zorpd docs: best means to pin or unpin a frob?", "", "", false},
		{"Is the better method to pin zorps or frobs?", "zorps", "frobs", true},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			c, ok := comparedIn(tt.question)
			if ok != tt.ok || c.a != tt.a || c.b != tt.b {
				t.Errorf("comparedIn = %+v, %v; want %q and %q, %v", c, ok, tt.a, tt.b, tt.ok)
			}
		})
	}
}

// A judgement between two named things is answered only by a passage that
// makes it: one that names a single one, or both without comparing them,
// answers another question.
func TestComparisonNeedsAPassageThatCompares(t *testing.T) {
	readme := fileHit("/doc/zorpd/README", "text", "zorpd serves map tiles from a frob store. "+
		"It is faster to start than the old tile server, and reads the same frob files as frobd.")
	a := extractive("Is zorpd faster than frobd for serving tiles?", []graphrag.Hit{readme}, 3)
	if !a.Abstained {
		t.Errorf("answered %q; no passage compares zorpd's speed with frobd's", a.Text)
	}
	bench := fileHit("/doc/zorpd/NEWS", "text", "Version 2.0 of zorpd serves tiles twice as fast as frobd on the same store.")
	a = extractive("Is zorpd faster than frobd for serving tiles?", []graphrag.Hit{bench}, 3)
	if a.Abstained {
		t.Errorf("abstained (%s); the NEWS file compares the two", a.Text)
	}
}

// A choice between two named things is answered by a passage that weighs
// them, not by one that names both side by side.
func TestChoiceNeedsAPassageThatWeighs(t *testing.T) {
	const q = "Is Zorpix stable or Frobnix LTS the better choice for a home server?"
	both := fileHit("/doc/quill/README", "text", "Quill is built and tested on Zorpix stable and on Frobnix LTS releases.")
	if a := extractive(q, []graphrag.Hit{both}, 3); !a.Abstained {
		t.Errorf("answered %q; the README names both without saying which to choose", a.Text)
	}
	weighs := fileHit("/doc/quill/README.server", "text", "For a home server, run Quill on Zorpix stable rather than Frobnix LTS: its releases last longer.")
	if a := extractive(q, []graphrag.Hit{weighs}, 3); a.Abstained {
		t.Errorf("abstained (%s); the README says which to choose", a.Text)
	}
}

// A question for a version is answered by a passage that states one: in
// its words, or in the title or the name of the notes it is from.
func TestVersionQuestionNeedsAVersion(t *testing.T) {
	readme := fileHit("/doc/zorpd/README", "text", "zorpd can write frob tiles in the compact format. The compact format keeps a frob's layers together.")
	if a := extractive("which zorpd release first added the compact format?", []graphrag.Hit{readme}, 3); !a.Abstained {
		t.Errorf("answered %q; no passage says which release", a.Text)
	}
	notes := fileHit("/doc/zorpd/RelNotes/2.7.0.txt", "text", "zorpd can now write frob tiles in the compact format.")
	if a := extractive("which zorpd release first added the compact format?", []graphrag.Hit{notes}, 3); a.Abstained {
		t.Errorf("abstained (%s); the release notes' file names the release", a.Text)
	}
	// Asked with "when", a date answers as a release would.
	news := fileHit("/doc/zorpd/NEWS", "text", "The compact format of zorpd was released in March 2019, after a year of testing.")
	if a := extractive("when was the compact format of zorpd released?", []graphrag.Hit{news}, 3); a.Abstained {
		t.Errorf("abstained (%s); the NEWS file dates the release", a.Text)
	}
	// Asked which release is taken when the asker names none, the
	// sentence that says which one is taken then answers, though it
	// states no number; one that says neither does not.
	const taken = "Which schema release does zorpctl migrate to if I start it without giving a target?"
	manual := fileHit("/man/man1/zorpctl.1.gz", "man", "zorpctl migrate moves a zorp's schema forward. If no target is given, zorpctl migrates to the default release recorded in the zorp's manifest.")
	if a := extractive(taken, []graphrag.Hit{manual}, 3); a.Abstained || !strings.Contains(a.Text, "default release recorded") {
		t.Errorf("answer %q (abstained %v); the manual says which release is taken", a.Text, a.Abstained)
	}
	other := fileHit("/man/man1/zorpctl.1.gz", "man", "zorpctl migrate moves a zorp's schema forward, one release at a time, and keeps a copy of the old one.")
	if a := extractive(taken, []graphrag.Hit{other}, 3); !a.Abstained {
		t.Errorf("answered %q; no passage says which release is taken", a.Text)
	}
}

// The release that added a named identifier is stated by a passage that
// speaks of it, not by the notes of another change quoted beside it.
func TestVersionOfANamedIdentifier(t *testing.T) {
	decl := fileHit("/src/zorp/frob.go", "go", "// ErrFrobbed reports that a zorp was frobbed twice.\nvar ErrFrobbed = errors.New(\"frobbed\")")
	decl.Chunk.Symbol, decl.Chunk.Kind = "zorp.ErrFrobbed", "var"
	other := fileHit("/doc/zorpd/RelNotes/2.7.0.txt", "text", "Added a compact format to the writer.")
	other.Chunk.ID = "notes#0"
	named := fileHit("/doc/zorpd/RelNotes/2.8.0.txt", "text", "Added zorp.ErrFrobbed, returned when a zorp is frobbed twice.")
	named.Chunk.ID = "notes#1"
	const q = "which release added zorp.ErrFrobbed?"
	for _, tc := range []struct {
		kept []graphrag.Hit
		want bool
	}{
		{[]graphrag.Hit{decl, other}, false},
		{[]graphrag.Hit{decl, named}, true},
	} {
		// Every unit quoted: what answersAsked judges is which of them
		// states the release.
		sel, cands := newSelection(q, tc.kept)
		if ok, why := answersAsked(q, sel.kinds, cands, tc.kept); ok != tc.want {
			t.Errorf("%s: answers %v (%s), want %v", tc.kept[1].Source.Path, ok, why, tc.want)
		}
	}
}

// The default of a named setting is stated by a passage that names it, not
// by the default of another setting next to it.
func TestDefaultOfANamedSetting(t *testing.T) {
	other := fileHit("/man/man1/zorpctl.1.gz", "man", "--frob-size=size\nSets the size of each frob file, in megabytes. The default size is 16 megabytes.")
	mention := fileHit("/man/man1/zorpsync.1.gz", "man", "The server must be configured with zorp_max_senders set high enough for one sender per replica.")
	mention.Chunk.ID = "zorpsync#0"
	hits := []graphrag.Hit{mention, other}
	if a := extractive("Which default does zorp_max_senders have?", hits, 3); !a.Abstained {
		t.Errorf("answered %q; no passage naming zorp_max_senders states its default", a.Text)
	}
	own := fileHit("/man/man5/zorp.conf.5.gz", "man", "zorp_max_senders (integer)\nSpecifies how many senders may run at once. The default is 10.")
	own.Chunk.ID = "zorpconf#0"
	if a := extractive("Which default does zorp_max_senders have?", append(hits, own), 3); a.Abstained || !strings.Contains(a.Text, "The default is 10") {
		t.Errorf("answer %q (abstained %v); zorp.conf states the default", a.Text, a.Abstained)
	}
}

// "Who can …" asks for a role: the sentence that says who is allowed, not
// the synopsis that shows the command.
func TestWhoCanAsksForARole(t *testing.T) {
	page := fileHit("/man/man7/ALTER_ZORP.7.gz", "man", "SYNOPSIS\n\nALTER [ FROBBED ] ZORP name RENAME TO new_name\n\n"+
		"ALTER [ FROBBED ] ZORP name OWNER TO new_owner\n\nDESCRIPTION\n\nALTER ZORP changes the definition of a frobbed zorp. "+
		"The only functionality is to rename the zorp or assign a new owner. You must be superuser or owner of the zorp to use ALTER ZORP.")
	a := extractive("who may rename a frobbed zorp?", []graphrag.Hit{page}, 3)
	if !strings.Contains(a.Text, "You must be superuser or owner of the zorp") {
		t.Errorf("answer:\n%s\nwant the sentence that says who may", a.Text)
	}
}

// "What happens if …" is answered by the sentence that says what follows,
// in the verbs manuals use for it ("will emit a warning", "does no harm").
func TestWhatHappensIsAnsweredByItsConsequence(t *testing.T) {
	page := fileHit("/man/man7/FROB.7.gz", "man", "EXAMPLES\n\nTo close the open zorp and keep all its frobs:\nFROB;\n\n"+
		"Issuing FROB when not inside a zorp does no harm, but it will emit a warning message.")
	a := extractive("so what happens if FROB runs while no zorp is active?", []graphrag.Hit{page}, 1)
	if !strings.Contains(a.Text, "does no harm, but it will emit a warning message") {
		t.Errorf("answer:\n%s\nwant the sentence that says what follows", a.Text)
	}
}

func TestComparativeForms(t *testing.T) {
	for word, want := range map[string]string{"faster": "faster fast", "bigger": "bigger bigg big", "better": "better", "safer": "safer saf", "newer": "newer new"} {
		if got := strings.Join(comparativeForms(word), " "); got != want {
			t.Errorf("comparativeForms(%q) = %q, want %q", word, got, want)
		}
	}
}

// "Does X support Y?" is answered by a passage that names Y: one about X
// alone says nothing of it.
func TestSupportQuestionNeedsWhatIsSupported(t *testing.T) {
	if got := strings.Join(supportedIn("Does the zorpterm emulator support frob graphics over ssh?"), " "); got != "frob graphics" {
		t.Errorf("supportedIn = %q, want frob graphics", got)
	}
	if got := supportedIn("which zorp release added frob support?"); got != nil {
		t.Errorf("supportedIn = %q for a question that is not polar", got)
	}
	readme := fileHit("/doc/zorpterm/README", "text", "zorpterm is a terminal emulator that draws with the GPU. It supports true colour and ligatures.")
	if a := extractive("Does the zorpterm emulator support frob graphics?", []graphrag.Hit{readme}, 3); !a.Abstained {
		t.Errorf("answered %q; no passage names frob graphics", a.Text)
	}
	news := fileHit("/doc/zorpterm/NEWS", "text", "Version 3 adds frob graphics, drawn inline like images.")
	if a := extractive("Does the zorpterm emulator support frob graphics?", []graphrag.Hit{readme, news}, 3); a.Abstained {
		t.Errorf("abstained (%s); NEWS names frob graphics", a.Text)
	}
}
