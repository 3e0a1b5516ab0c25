package nodes

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestRuleAlternativesEarnTheirPlace: every alternative of a rule or a cue
// matches at least one row of the router's training data or exemplars. An
// alternative that matches none was written for something else, such as
// rows of an evaluation set.
func TestRuleAlternativesEarnTheirPlace(t *testing.T) {
	rows, err := loadTrainingRows()
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, i int, match func(string) bool) {
		for _, r := range rows {
			if match(r.Query) {
				return
			}
		}
		t.Errorf("%s alternative %d matches no training or exemplar row: delete it or add the exemplar it stands for", name, i)
	}
	for _, r := range rules {
		for i, a := range r.Alternatives {
			check("rule "+r.Reason, i, func(q string) bool {
				if r.Masked {
					q = maskIdentifiers(q)
				}
				return a.MatchString(q)
			})
		}
	}
	for name, cues := range map[string]any{"personal": personalCues, "reference": referenceCues, "owner": ownerCues, "fresh": freshCues, "info request": infoRequestCues, "change": changeCues, "question": questionCues} {
		for i, a := range cues.([]*regexp.Regexp) {
			check(name+" cue", i, a.MatchString)
		}
	}
}

// TestRulesFittedToEvalRowsAreGone: phrases that only rows of the dev
// routing set contained once had alternatives of their own. No rule may
// decide them now; the learned router does.
func TestRulesFittedToEvalRowsAreGone(t *testing.T) {
	for _, q := range []string{"is this a bot", "what is the answer to it all", "you have given me so much", "a dollar is how many yen"} {
		if r, ok := matchRule(q); ok {
			t.Errorf("matchRule(%q) = %s (%s): no rule should be fitted to it", q, r.Route, r.Reason)
		}
	}
}

// TestRoutingOverGoSource routes the questions over a small tree of
// Go-like files (testdata/gotree) with no language model and web search
// off: names the files hold are searched, never answered "needs general
// knowledge" nor sent to a disabled web search.
func TestRoutingOverGoSource(t *testing.T) {
	for name, st := range map[string]Searcher{"memory": fixtureStore(t), "sqlite": fixtureSQLite(t)} {
		t.Run(name, func(t *testing.T) { routeOverGoSource(t, st) })
	}
}

func routeOverGoSource(t *testing.T, st Searcher) {
	p, err := newPipeline(Deps{Searcher: st}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"what is io.EOF",
		"what does context.WithCancel return",
		"how do I use errors.Is",
		"os.ErrNotExist",
		"how does sync.WaitGroup work",
	} {
		t.Run(q, func(t *testing.T) {
			plan, _, _, err := p.plan(context.Background(), q, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			if plan.Route != graphrag.RouteHybrid {
				t.Errorf("route %s by %s (%s), want hybrid: an identifier the files hold gets a keyword search", plan.Route, plan.By, plan.Reason)
			}
			if plan.SourceHint != "" {
				t.Errorf("source hint %q: a dotted name is a search term", plan.SourceHint)
			}
		})
	}
}

// TestNeverRoutesToDisabledWeb: a time-sensitive question goes to the web
// when it is configured, and otherwise searches the files and says the
// answer may be out of date.
func TestNeverRoutesToDisabledWeb(t *testing.T) {
	st := fixtureStore(t)
	off, err := newPipeline(Deps{Searcher: st}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	on, err := newPipeline(Deps{Searcher: st, Web: &fakeWeb{}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"who won the latest Nobel Prize in Literature",
		"when is the next federal holiday",
		"who is the current CEO of Acme",
		"what are the most popular phones this year",
		"what is the most recent version of Postgres",
		"what are the upcoming releases of Go",
		"what's the weather in Oslo tomorrow",
	} {
		t.Run(q, func(t *testing.T) {
			plan, _, _, _ := on.plan(context.Background(), q, nil, false)
			if plan.Route != graphrag.RouteWeb {
				t.Errorf("web on: route %s (%s), want web", plan.Route, plan.Reason)
			}
			plan, _, _, _ = off.plan(context.Background(), q, nil, false)
			if !isLocal(plan.Route) || !strings.Contains(plan.Reason, "out of date") {
				t.Errorf("web off: route %s (%s), want a local search that says the answer may be out of date", plan.Route, plan.Reason)
			}
		})
	}
}

// TestPersonalReferencesStayLocal: the user's documents are searched
// whatever the probe finds, and with nothing local the plan says what would
// help.
func TestPersonalReferencesStayLocal(t *testing.T) {
	st := fixtureStore(t)
	for _, web := range []bool{false, true} {
		deps := Deps{Searcher: st}
		if web {
			deps.Web = &fakeWeb{}
		}
		p, err := newPipeline(deps, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			"what does clause 14.3 say about termination",
			"what is the total on invoice 2024-03-117",
			"what does the contract say about renewal",
			"summarise the report",
			"what did my accountant say about the latest tax changes",
			"when does our lease end",
		} {
			plan, _, _, _ := p.plan(context.Background(), q, nil, false)
			if !isLocal(plan.Route) {
				t.Errorf("web %v: %q routed %s by %s (%s), want a local search", web, q, plan.Route, plan.By, plan.Reason)
			}
			if !web && !strings.Contains(plan.Reason, "would help") {
				t.Errorf("web off: %q: the plan should say what would help (%s)", q, plan.Reason)
			}
		}
	}
}

// TestFileFilters: a file or folder the user names is a filter; a dotted
// name is a search term unless an ingested path holds it.
func TestFileFilters(t *testing.T) {
	p, err := newPipeline(Deps{Searcher: fixtureStore(t)}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ query, hint string }{
		{"when does the backup run in backup.md", "backup.md"},
		{"what is in my notes folder about the server", "notes"},
		{"how do I create an HTTP server in Node.js", ""},
		{"what changed in 2.23.0", ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			plan, _, _, _ := p.plan(context.Background(), tt.query, nil, false)
			if plan.SourceHint != tt.hint {
				t.Errorf("source hint %q, want %q (%s)", plan.SourceHint, tt.hint, plan.Reason)
			}
		})
	}
}

// TestPlannerAskedExactlyWhenUnsure: the Planner is consulted exactly when
// the calibrated confidence is below PlannerBelow.
func TestPlannerAskedExactlyWhenUnsure(t *testing.T) {
	st := fixtureStore(t)
	for _, q := range []string{"what is io.EOF", "hello there", "is the weather nice", "how many pdfs do I have", "the thing about the stuff"} {
		pl := &countingPlanner{}
		p, err := newPipeline(Deps{Searcher: st, Planner: pl, Web: &fakeWeb{}}, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		noPl, _ := newPipeline(Deps{Searcher: st, Web: &fakeWeb{}}, DefaultOptions())
		det, _, _, _ := noPl.plan(context.Background(), q, nil, false)
		p.plan(context.Background(), q, nil, false)
		want := 0
		if det.Confidence < p.opts.PlannerBelow {
			want = 1
		}
		if pl.calls != want {
			t.Errorf("%q: confidence %.2f, planner asked %d times, want %d", q, det.Confidence, pl.calls, want)
		}
	}
}

type countingPlanner struct{ calls int }

func (c *countingPlanner) Plan(_ context.Context, q string, _ []graphrag.Turn) (graphrag.Plan, error) {
	c.calls++
	return graphrag.Plan{Route: graphrag.RouteVector, Query: q}, nil
}

// TestActionRequestsSayGraphragOnlyReads: with no language model, a request
// to act is answered with what graphrag cannot do, not with "needs general
// knowledge", when the files say nothing of doing it (they are searched
// first: see unanswered); a general-knowledge question with nothing local
// keeps that explanation (a model would help).
func TestActionRequestsSayGraphragOnlyReads(t *testing.T) {
	r, err := Build(Deps{Searcher: fixtureStore(t)}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"transfer $100 to my savings",
		"book a table for two",
		"delete all my logs",
		"can you delete the old log files",
		"could you please book a flight to Lisbon",
		"will you transfer 50 euros to my checking account",
	} {
		s, err := r.Invoke(context.Background(), State{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if s.Plan.Kind != classAction && s.Alone.Text != msgCannotAct || s.Answer.Text != msgCannotAct {
			t.Errorf("%q: kind %q, route %s (%s), answer %q: want graphrag's only-reads answer", q, s.Plan.Kind, s.Plan.Route, s.Plan.Reason, s.Answer.Text)
		}
	}
	for _, q := range []string{
		"how do I restore a file from the backup?", "how to delete old log files",
		// Asked of something other than graphrag, with a modal or an
		// auxiliary, or after a lead-in: questions about doing it.
		"can the gzip tool decompress a file in place",
		"will vacuumdb also analyze the tables",
		"has the archive format changed between releases",
		"I ran the migration twice, what happens to the rows",
		"besides the owner, who can drop a table",
		"I set the option but the server ignored it, how do I reload the configuration",
	} {
		s, err := r.Invoke(context.Background(), State{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if s.Plan.Kind == classAction || s.Answer.Text == msgCannotAct {
			t.Errorf("%q asks how, not to act: kind %q, route %s (%s)", q, s.Plan.Kind, s.Plan.Route, s.Plan.Reason)
		}
	}
	s, err := r.Invoke(context.Background(), State{Query: "who painted the mona lisa"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Plan.Kind == classAction || !strings.Contains(s.Answer.Text+" "+strings.Join(s.Notes, " "), "language model") {
		t.Errorf("general knowledge: kind %q, answer %q, notes %q: want the explanation that a language model would help", s.Plan.Kind, s.Answer.Text, s.Notes)
	}
}

// TestRequestsNamingThingsStayRequests: a request to act stays a request
// when it names files with a size or date, an account of the user's, or
// a date: none of that makes it a question about files, documents or an
// identifier. Asked as a question, or as a request for information, the
// same words are searched.
func TestRequestsNamingThingsStayRequests(t *testing.T) {
	p, err := newPipeline(Deps{Searcher: fixtureStore(t), Web: &fakeWeb{}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"transfer $500 from my checking account to my savings account",
		"find all mp3 files bigger than 10MB and delete them",
		"compress the photos folder from last week",
		"set an alarm for 7am on the 21st",
	} {
		plan, _, _, _ := p.plan(context.Background(), q, nil, false)
		if plan.Kind != classAction {
			t.Errorf("%q: routed %s, kind %q (%s): want a request to act", q, plan.Route, plan.Kind, plan.Reason)
		}
	}
	for _, q := range []string{
		"how many mp3 files are bigger than 10MB",
		"list the pdf files in my downloads folder from last week",
	} {
		plan, _, _, _ := p.plan(context.Background(), q, nil, false)
		if plan.Route != graphrag.RouteFilesystem {
			t.Errorf("%q: routed %s (%s): want the file tools", q, plan.Route, plan.Reason)
		}
	}
	plan, _, _, _ := p.plan(context.Background(), "summarise what the contract says about renewal", nil, false)
	if !isLocal(plan.Route) {
		t.Errorf("a request for information about a document: routed %s (%s), want a local search", plan.Route, plan.Reason)
	}
}

// TestQuantitiesAreNoIdentifiers: an ordinal, a time or a number with its
// unit is not an exact identifier; a code is.
func TestQuantitiesAreNoIdentifiers(t *testing.T) {
	for q, want := range map[string]bool{
		"request pto from march 8th until march 11th": false,
		"set an alarm for 4am and 7am":                false,
		"can I roll over my 401k":                     false,
		"what does error E1045 mean":                  true,
		"is flight dl123 on time":                     true,
	} {
		r, ok := matchRule(q)
		if got := ok && r.Route == graphrag.RouteHybrid; got != want {
			t.Errorf("matchRule(%q): identifier %v, want %v", q, got, want)
		}
	}
}

// TestPersonalCuesNameDocuments: "according to my ..." and "in my notes"
// point at a document; "in my car" and "from my savings account" do not.
func TestPersonalCuesNameDocuments(t *testing.T) {
	for q, want := range map[string]bool{
		"what is the deadline according to my notes": true,
		"what do we say about retries in our docs":   true,
		"how do I change the oil in my car":          false,
		"move $20 from my savings account":           false,
	} {
		if got := anyMatch(personalCues, q); got != want {
			t.Errorf("personal cue in %q: %v, want %v", q, got, want)
		}
	}
}
