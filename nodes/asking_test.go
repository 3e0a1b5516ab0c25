package nodes

import (
	"context"
	"testing"
)

// TestAskedAfterALeadClause: a query that opens with a condition or a time
// ("if ...,", "once ...,") asks or requests by the clause after the comma.
func TestAskedAfterALeadClause(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"if I drop the index while a query runs, does the query fail", true},
		{"once the queue is full, will the sender block", true},
		{"when I rename a branch, is the old name kept as an alias", true},
		{"if two workers create the same lock file, can both of them hold it", true},
		{"after the backup finishes, delete the temporary snapshots", false},
		{"if you don't mind, please archive the old invoices", false},
		{"when you are done, can you move the reports to the shared folder", false},
	} {
		if got := asksSomething(tc.q); got != tc.want {
			t.Errorf("asksSomething(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// TestAskedAfterWhatWasDone: a query that tells what was done and closes
// with a question asks it; one that closes with a request requests.
func TestAskedAfterWhatWasDone(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"I switched a column to lz4 with ALTER TABLE SET COMPRESSION, are the existing rows recompressed", true},
		{"I moved the archive to the NAS last night. Does the nightly job still find it", true},
		{"I exported the ledger to CSV, what encoding does it use", true},
		{"I finished the report, now email it to the whole team", false},
		{"archive the old invoices, then delete the drafts", false},
		{"upgrade git to 2.43.0", false},
	} {
		if got := asksSomething(tc.q); got != tc.want {
			t.Errorf("asksSomething(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// TestFragmentAskingWhich: a fragment that closes on "which ..." or "what
// ..." with a noun phrase asks for it; a relative "which" with its verb
// does not make a request a question.
func TestFragmentAskingWhich(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"zlib.Inflate window size, same as which gzip level", true},
		{"the frobnicator config file lives in what directory", true},
		{"quux.Encode padding character, compatible with which base64 variant", true},
		{"the spooler retries a failed job after which one", true},
		{"delete the snapshots which are older than a week", false},
		{"move the drafts to the folder which I made yesterday", false},
		{"archive the logs which have not been read since March", false},
		{"rename the file to what you think fits", false},
	} {
		if got := asksSomething(tc.q); got != tc.want {
			t.Errorf("asksSomething(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// TestFilesAProgramUses: "which files does <program> read" asks what a
// program does, which its code or manual says; "which files did I change"
// asks about the files themselves.
func TestFilesAProgramUses(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"which files does flurb.LoadConfig open at start-up", true},
		{"what files do the installer scripts write under etc", true},
		{"which directories does the updater scan for plugins", true},
		{"which files did I change yesterday", false},
		{"what files do we keep in the archive folder", false},
		{"which files are larger than 10MB", false},
		{"what files do you have about the lease", false},
	} {
		if got := programsFiles(tc.q); got != tc.want {
			t.Errorf("programsFiles(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// TestQuestionsOverGoSourceAreNotRequests routes questions over the
// Go-like fixture tree with no language model: a conditional question, a
// fragment asking "which" and a question about the files a function reads
// are searched, never answered with "graphrag only reads" or sent to the
// file tools; a request to act keeps the refusal.
func TestQuestionsOverGoSourceAreNotRequests(t *testing.T) {
	r, err := Build(Deps{Searcher: fixtureStore(t)}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"if I cancel the parent context twice, does the derived context panic",
		"os.ErrNotExist error text, equal to which errno name",
		"which files does io.ReadAll read on a linux machine",
	} {
		s, err := r.Invoke(context.Background(), State{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if !isLocal(s.Plan.Route) || s.Answer.Text == msgCannotAct {
			t.Errorf("%q: route %s, kind %q (%s): want a local search", q, s.Plan.Route, s.Plan.Kind, s.Plan.Reason)
		}
	}
	for _, q := range []string{
		"if the build fails, delete the cache folder",
		"create a new file named notes.txt in the docs folder",
	} {
		s, err := r.Invoke(context.Background(), State{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if s.Plan.Kind != classAction && s.Alone.Text != msgCannotAct || s.Answer.Text != msgCannotAct {
			t.Errorf("%q: route %s, kind %q (%s), answer %q: want graphrag's only-reads answer", q, s.Plan.Route, s.Plan.Kind, s.Plan.Reason, s.Answer.Text)
		}
	}
}

// TestAskingCuesEarnTheirPlace: like the rules' alternatives, a lead
// clause followed by a question and a closing "which ..." fragment each
// stand for rows of the router's training data.
func TestAskingCuesEarnTheirPlace(t *testing.T) {
	rows, err := loadTrainingRows()
	if err != nil {
		t.Fatal(err)
	}
	for name, match := range map[string]func(string) bool{
		"a question after a lead clause": func(q string) bool {
			main, ok := mainClause(q)
			return ok && questionCue(main)
		},
		"a fragment closing on which or what": closingAsk,
	} {
		found := false
		for _, r := range rows {
			if match(r.Query) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s matches no training or exemplar row", name)
		}
	}
}
