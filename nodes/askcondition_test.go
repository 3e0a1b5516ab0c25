package nodes

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// The hits below are made-up manual pages of a made-up database, zapdb.

// "what does X need before …" asks for a requirement: the answer goes on
// past the option's description to the sentence that states the
// condition, which shares fewer of the question's words.
func TestRequirementQuestionQuotesTheCondition(t *testing.T) {
	option := graphrag.Hit{
		Source: graphrag.Source{Path: "/usr/share/man/man7/SYNC_MIRROR.7.gz", Type: "7", Title: "SYNC_MIRROR"},
		Chunk: graphrag.Chunk{Heading: "PARAMETERS", Text: "LIVE\n" +
			"Sync the mirror without blocking readers of the mirror. A sync of the mirror that rewrites many pages is faster without this option.\n\n" +
			"This option is only allowed if the source volume carries a checksum on every page.\n\n" +
			"Syncing a mirror that is already current does nothing."},
	}
	synopsis := graphrag.Hit{
		Source: graphrag.Source{Path: "/usr/share/man/man7/SYNC_MIRROR.7.gz", Type: "7", Title: "SYNC_MIRROR"},
		Chunk:  graphrag.Chunk{Heading: "DESCRIPTION", Text: "SYNC MIRROR replaces the pages of a mirror with those of its source volume."},
	}
	q := "what does a mirror need before I can sync it live"
	a := extractive(q, []graphrag.Hit{option, synopsis}, 2)
	if a.Abstained || !strings.Contains(a.Text, "checksum on every page") {
		t.Errorf("answer:\n%s\nwant the sentence saying what the option requires", a.Text)
	}
	// "… you'll need a saw and glue" states a requirement too, a list of
	// things after "need".
	for _, k := range askKinds {
		if k.name == "requirement" && !k.in("To build it you'll need flint, tallow and a saw.") {
			t.Error("a list after need not read as a requirement")
		}
	}
	// A question that asks no requirement is not given one: the kind is
	// asked by "what … need", not by any question.
	for q, want := range map[string]bool{
		"what does a mirror need before I can sync it live": true,
		"which privilege is required to sync a mirror":      true,
		"what is a mirror":                          false,
		"how much space do I need to sync a mirror": false,
	} {
		got := false
		for _, k := range askedKinds(q) {
			got = got || k.name == "requirement"
		}
		if got != want {
			t.Errorf("%q asks for a requirement: %v, want %v", q, got, want)
		}
	}
}

// "what happens when …" asks for a consequence, and its "when" opens a
// condition: it asks for no time.
func TestWhatHappensAsksForTheConsequence(t *testing.T) {
	notes := graphrag.Hit{
		Source: graphrag.Source{Path: "/usr/share/man/man7/SPLICE.7.gz", Type: "7", Title: "SPLICE"},
		Chunk: graphrag.Chunk{Heading: "NOTES", Text: "Each ledger entry should match at most one journal line during a splice.\n\n" +
			"In short, a journal line should not match more than one ledger entry every day.\n\n" +
			"If it does, the splice stops and the second match raises an error.\n\n" +
			"Splices run in the order of their ledgers."},
	}
	q := "what happens in a splice when one journal line matches more than one ledger entry"
	kinds := askedKinds(q)
	if len(kinds) != 1 || kinds[0].name != "consequence" {
		t.Fatalf("kinds of %q: %v, want only a consequence", q, kindList(kinds))
	}
	a := extractive(q, []graphrag.Hit{notes}, 2)
	if a.Abstained || !strings.Contains(a.Text, "raises an error") {
		t.Errorf("answer:\n%s\nwant the sentence saying what follows", a.Text)
	}
	if k := askedKinds("when does the splice run"); len(k) != 1 || k[0].name != "time" {
		t.Errorf("kinds of a question for a time: %v", kindList(k))
	}
}

// "how can I <verb> a <thing> while …": the page of the command that does
// it (VERB_THING) is the one the question names, and a sentence naming the
// option to use is an instruction; a sentence opening with the command's
// name in capitals is no imperative of the question's verb.
func TestHowDoIPrefersTheActionsPageAndTheOptionToUse(t *testing.T) {
	page := graphrag.Hit{
		Source: graphrag.Source{Path: "/usr/share/man/man7/SHRED_VAULT.7.gz", Type: "7", Title: "SHRED_VAULT"},
		Chunk: graphrag.Chunk{Heading: "DESCRIPTION", Text: "SHRED VAULT shreds a vault. It removes the vault's keys and wipes its blocks. " +
			"It cannot be run while you are attached to the vault. " +
			"Also, if any other client is attached to the vault, this command will fail unless you use the EVICT option described below."},
	}
	other := graphrag.Hit{
		Source: graphrag.Source{Path: "/usr/share/man/man7/PING_VAULT.7.gz", Type: "7", Title: "PING_VAULT"},
		Chunk:  graphrag.Chunk{Heading: "DESCRIPTION", Text: "Whenever a ping is sent, by this client or another one attached to the same vault, every client attached to the vault answers it."},
	}
	q := "how can I shred a vault while other clients are still attached to it"
	a := extractive(q, []graphrag.Hit{page, other}, 2)
	if a.Abstained || !strings.Contains(a.Text, "EVICT option") {
		t.Errorf("answer:\n%s\nwant the sentence naming the option to use", a.Text)
	}
	if instructsTo("SHRED VAULT shreds a vault.", "shred") {
		t.Error("a command's name in capitals read as an imperative")
	}
	if !instructsTo("Shred it with the EVICT option.", "shred") {
		t.Error("an imperative not read as one")
	}
}

func kindList(ks []askKind) []string {
	var out []string
	for _, k := range ks {
		out = append(out, k.name)
	}
	return out
}

// "what if I never close it" asks what is done by default: the sentence
// that says what follows when the reader does not ("If you do not close
// a session, …") answers it, not the one that only says what closing
// does.
func TestLeavingSomethingUndoneAsksForTheDefault(t *testing.T) {
	page := graphrag.Hit{
		Source: graphrag.Source{Path: "/usr/share/man/man7/CLOSE_LEDGER.7.gz", Type: "7", Title: "CLOSE_LEDGER"},
		Chunk: graphrag.Chunk{Heading: "DESCRIPTION", Text: "CLOSE LEDGER writes the totals of an open ledger and closes it for writing.\n\n" +
			"Ledgers are listed in the zap_ledgers view.\n\n" +
			"If you do not explicitly close a ledger, it is closed when the day rolls over."},
	}
	q := "does a ledger stay open forever if I never CLOSE LEDGER it?"
	kinds := askedKinds(q)
	if !slices.ContainsFunc(kinds, func(k askKind) bool { return k.name == "default" }) {
		t.Fatalf("kinds of %q: %v, want a default", q, kindList(kinds))
	}
	a := extractive(q, []graphrag.Hit{page}, 2)
	if a.Abstained || !strings.Contains(a.Text, "when the day rolls over") {
		t.Errorf("answer:\n%s\nwant the sentence saying what happens when it is not closed", a.Text)
	}
}

// TestKindsOfTheAskingSentence: a kind asked at a sentence's start ("how
// do I …", "what … requires") is found after a sentence that tells the
// asker's situation.
func TestKindsOfTheAskingSentence(t *testing.T) {
	for q, want := range map[string]string{
		"The frob panel went blank after the upgrade. How do I wake it?":     "steps",
		"zorpd refuses my login. What does a login to it require?":           "requirement",
		"Zorpd ... RELOAD hangs on my box. How can I make it finish sooner?": "steps",
	} {
		if !slices.ContainsFunc(askedKinds(q), func(k askKind) bool { return k.name == want }) {
			t.Errorf("askedKinds(%q) lacks %s", q, want)
		}
	}
}

// TestWhetherIsAnsweredByALimit: a question that asks whether something
// is so takes the sentence that limits or denies it, not only the one
// that describes the thing in the question's words.
func TestWhetherIsAnsweredByALimit(t *testing.T) {
	hits := []graphrag.Hit{fileHit("/go/src/net/zorp/doc.go", "go", "Package zorp lets a program act as a Frobnet peer for mirror and relay nodes through a socket.\n\nThe handler reads each frame from the hub. Only the zorp leaf mode works today.")}
	a := extractive("Can the zorp package act as a Frobnet relay?", hits, 3)
	if !strings.Contains(a.Text, "leaf mode") {
		t.Errorf("the sentence that limits what zorp does is missing:\n%s", a.Text)
	}
}

// TestALimitIsStatedOrNotAnswered: a question for the most of something is
// answered by a sentence that states a limit; passages about the thing
// that state none do not answer it.
func TestALimitIsStatedOrNotAnswered(t *testing.T) {
	page := func(text string) []graphrag.Hit {
		return []graphrag.Hit{fileHit("/usr/share/man/man7/CREATE_FROB.7.gz", "7", text)}
	}
	q := "What is the maximum number of zorps one frob can hold?"
	if a := extractive(q, page("A frob holds zorps in insertion order. Each zorp of a frob has a name and a weight."), 3); !a.Abstained {
		t.Errorf("no limit stated, want an abstention:\n%s", a.Text)
	}
	if a := extractive(q, page("A frob holds zorps in insertion order. A frob can hold at most 32 zorps."), 3); a.Abstained || !strings.Contains(a.Text, "at most 32") {
		t.Errorf("want the sentence stating the limit:\n%s", a.Text)
	}
	// A range gives the bounds, and what is cut to a length stops there.
	if a := extractive(q, page("A frob holds zorps in insertion order. The number of zorps a frob holds must be in the range of [1, 32]."), 3); a.Abstained || !strings.Contains(a.Text, "[1, 32]") {
		t.Errorf("want the sentence stating the range:\n%s", a.Text)
	}
	if a := extractive("What is the longest label a zorp may carry?", page("A zorp carries a label and a weight. Frobd truncates zorp labels to 16 characters when it stores them."), 3); a.Abstained || !strings.Contains(a.Text, "16 characters") {
		t.Errorf("want the sentence stating the truncation:\n%s", a.Text)
	}
	if slices.ContainsFunc(askedKinds("is a zorp queue a min-heap or a max-heap?"), func(k askKind) bool { return k.name == "limit" }) {
		t.Error("max in a compound asks for no limit")
	}
}

// TestWhereToLookIsAPlaceThatShows: a question that asks where to look
// something up takes the sentence that says where it is listed, not the
// ones that describe the thing in the question's words.
func TestWhereToLookIsAPlaceThatShows(t *testing.T) {
	page := fileHit("/usr/share/man/man7/OPEN_ZORP.7.gz", "gz", "DESCRIPTION\n\nOPEN ZORP opens a zorp in the current session. An open zorp stays open in the session until the session ends or CLOSE ZORP closes it. Zorps opened in a session are private to it.\n\nNOTES\n\nEvery available zorp is shown in the zorp_catalog view.")
	q := "list all open zorps in my session"
	if !slices.ContainsFunc(askedKinds(q), func(k askKind) bool { return k.name == "lookup" }) {
		t.Fatalf("kinds of %q: %v, want a lookup", q, kindList(askedKinds(q)))
	}
	if a := extractive(q, []graphrag.Hit{page}, 2); !strings.Contains(a.Text, "zorp_catalog") {
		t.Errorf("the sentence naming where zorps are listed is missing:\n%s", a.Text)
	}
	if slices.ContainsFunc(askedKinds("how can one list the frobs inside a zorp archive"), func(k askKind) bool { return k.name == "lookup" }) {
		t.Errorf("\"how do I list\" asks for a command as often as for a place")
	}
}

// TestWhenAsksForATimeWhereItOpens: "when" asks for a time where it opens
// the question or a clause of it; inside a clause it states the condition
// the asker is in, and the answer is no time.
func TestWhenAsksForATimeWhereItOpens(t *testing.T) {
	for q, want := range map[string]bool{
		"when does the zorp sweep run":                           true,
		"The frob cache is stale. When is it rebuilt?":           true,
		"what does zorpd log, and when does it rotate the file?": true,
		"how often does frobd sync":                              true,
		"zorpd hangs when the spool is on NFS; what now?":        false,
		"Why does FROB fail when the table is locked?":           false,
		// A statement of the asker's situation asks nothing.
		"When the spool fills up, zorpd stops. How do I restart it?": false,
	} {
		if got := slices.ContainsFunc(askedKinds(q), func(k askKind) bool { return k.name == "time" }); got != want {
			t.Errorf("askedKinds(%q) asks for a time: %v, want %v", q, got, want)
		}
	}
}

// A manual's SEE ALSO section names the commands a question names, and
// answers nothing: the answer is the sentence that says what happens,
// with no list of pages beside it, unless the question asks for them.
func TestSeeAlsoIsNoAnswer(t *testing.T) {
	seeAlso := graphrag.Hit{
		Source: graphrag.Source{Path: "/usr/share/man/man7/CREATE_MIRROR.7.gz", Type: "7", Title: "CREATE_MIRROR"},
		Chunk:  graphrag.Chunk{Heading: "SEE ALSO", Text: "ALTER MIRROR (ALTER_MIRROR(7)), DROP MIRROR (DROP_MIRROR(7)), SYNC MIRROR (SYNC_MIRROR(7)), CREATE VOLUME (CREATE_VOLUME(7))"},
	}
	param := graphrag.Hit{
		Source: graphrag.Source{Path: "/usr/share/man/man7/CREATE_MIRROR.7.gz", Type: "7", Title: "CREATE_MIRROR"},
		Chunk: graphrag.Chunk{Heading: "PARAMETERS > volume_name", Text: "volume_name\n" +
			"The volume the new mirror copies. When it is absent, the mirror copies the default volume, vol0."},
	}
	kept := []graphrag.Hit{seeAlso, param}
	a := extractive("CREATE MIRROR with no volume name: which volume gets copied?", kept, 3)
	if !strings.Contains(a.Text, "vol0") || strings.Contains(a.Text, "ALTER_MIRROR(7)") {
		t.Errorf("answer:\n%s\nwant the parameter's default and no list of pages", a.Text)
	}
	if a := extractive("which pages are related to CREATE MIRROR", kept, 3); !strings.Contains(a.Text, "ALTER_MIRROR(7)") {
		t.Errorf("asked for related pages, answer:\n%s", a.Text)
	}
}

// "version control" is a compound noun: a question about version control
// tools asks for no version, and is answered by a passage that states
// none.
func TestVersionControlAsksForNoVersion(t *testing.T) {
	doc := graphrag.Hit{
		Source: graphrag.Source{Path: "/src/cmd/frob/internal/fetch/fetch.go", Type: "go", Title: "fetch.go"},
		Chunk: graphrag.Chunk{Text: "// If FROBVCS is unset, frob fetch allows only the tools of the default rule,\n" +
			"// public:quill|zorp,private:all: every tool for private modules.\n" +
			"var defaultFrobVCS = \"public:quill|zorp,private:all\""},
	}
	q := "If FROBVCS is unset, which version control tools may frob fetch use for public modules?"
	if k := askedKinds(q); slices.ContainsFunc(k, func(k askKind) bool { return k.name == "version" }) {
		t.Errorf("kinds of %q: %v, want no version", q, kindList(k))
	}
	if a := extractive(q, []graphrag.Hit{doc}, 2); a.Abstained || !strings.Contains(a.Text, "public:quill|zorp") {
		t.Errorf("answer:\n%s\nwant the default rule", a.Text)
	}
	if k := askedKinds("which version of frob added FROBVCS"); !slices.ContainsFunc(k, func(k askKind) bool { return k.name == "version" }) {
		t.Errorf("which version of frob: kinds %v, want a version", kindList(k))
	}
}

// "default" inside a name asks for no default: the package
// "zorp-defaults", a "non-default" mode, "default-frobber".
func TestADefaultInANameAsksNone(t *testing.T) {
	for q, want := range map[string]bool{
		"which mode does zorpd pick by default":                            true,
		"what are the defaults of frobctl":                                 true,
		"Who first wrote the frob helper shipped in zorp-defaults?":        false,
		"Which Zorp version does the quux-defaults package make the norm?": false,
		"Can FROB use a non-default spool mode?":                           false,
		"Which JDK does default-frobber pull in?":                          false,
	} {
		if got := slices.ContainsFunc(askedKinds(q), func(k askKind) bool { return k.name == "default" }); got != want {
			t.Errorf("askedKinds(%q) asks for a default: %v, want %v", q, got, want)
		}
	}
}

// A question that says what the asker leaves out ("with no spool given",
// "when no path is set", "with no FROB clause") asks what is used then:
// the default. A state that is none ("when no spool is open", "WITH NO
// QUILLS", "with no network access") is not left out.
func TestNoneGivenAsksForADefault(t *testing.T) {
	for q, want := range map[string]bool{
		"Which mode does ZORP LOCK take with no FROB clause?":           true,
		"frobctl --install with no spool given: where do the frobs go?": true,
		"which zorp directory is used when no path is set?":             true,
		"what does frob.Open return when no mode is supplied?":          true,
		"Does zorpctl frob fail when no spool is open?":                 false,
		"If I make a zorp WITH NO QUILLS, can I frob it?":               false,
		"can frobd sync its spool with no network access?":              false,
	} {
		if got := slices.ContainsFunc(askedKinds(q), func(k askKind) bool { return k.name == "default" }); got != want {
			t.Errorf("askedKinds(%q) asks for a default: %v, want %v", q, got, want)
		}
	}
}

// A sentence that says who may do something names a role, a privilege or
// ownership ("you must be superuser", "you must own the zorp"); one where
// "must be" says what a value must be ("must be identical to the frob's")
// names none.
func TestPermissionSentences(t *testing.T) {
	k := permissionKind()
	for s, want := range map[string]bool{
		"To frob a sealed quill, you must be superuser.":                    true,
		"You must own the zorp to drop it.":                                 true,
		"You must be the owner of the zorp or a member of the owning role.": true,
		"The caller must have CREATE privilege on the new schema.":          true,
		"The quill's width must be identical to the frob's.":                false,
		"The zorp name must be unique in its schema.":                       false,
	} {
		if got := k.in(s); got != want {
			t.Errorf("permission in %q: %v, want %v", s, got, want)
		}
	}
}
