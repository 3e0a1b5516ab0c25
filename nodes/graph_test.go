package nodes

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

var update = flag.Bool("update", false, "rewrite golden files")

// decisions runs the graph and returns the "node→to" decisions it took.
func decisions(t *testing.T, r *graph.Runnable[State], s State) (State, []string) {
	t.Helper()
	var got []string
	final, err := r.Invoke(context.Background(), s, graph.WithObserver(func(e graph.Event) {
		if e.Kind == graph.EventDecision {
			if e.Reason == "" {
				t.Errorf("decision %s → %s has no reason", e.Node, e.To)
			}
			got = append(got, e.Node+"→"+e.To)
		}
	}))
	if err != nil {
		t.Fatalf("Invoke: %v", err)
	}
	return final, got
}

// scatteredCorpus is smallCorpus with one-fact notes that hold the words of
// the Svalbard question one or two apiece: every word is in the files, none
// of them answers, so evaluate refines (a word in no file ends the search
// at once: see TestEvaluateNode).
func scatteredCorpus() *memSearcher {
	hits := append([]graphrag.Hit(nil), smallCorpus().docs...)
	hits = append(hits,
		doc("seabirds", "Seabirds", "The puffin is a seabird with a colourful beak."),
		doc("arctic", "Arctic", "Svalbard is an archipelago in the Arctic Ocean."),
		doc("towns", "Small towns", "Longyearbyen is a small town with a university."),
	)
	return newMemSearcher(hits)
}

func TestGraphLoopsAndBudgets(t *testing.T) {
	tests := []struct {
		name      string
		query     string
		budget    Budget
		want      []string
		stop      string
		abstained bool
		loops     Budget
	}{
		{
			name:   "good retrieval answers in one pass",
			query:  "Where do ospreys nest in Scandinavia, according to my notes?",
			budget: Budget{2, 2, 2},
			want:   []string{"evaluate→generate", "validate→__end__"},
			stop:   "answered",
		},
		{
			name:      "poor retrieval refines until the budget is spent, then abstains",
			query:     "Do puffins nest on Svalbard cliffs near Longyearbyen?",
			budget:    Budget{2, 2, 2},
			want:      []string{"evaluate→route", "evaluate→route", "evaluate→generate", "validate→__end__"},
			stop:      "retrieve budget spent",
			abstained: true,
			loops:     Budget{Retrieve: 2},
		},
		{
			name:      "a word no file holds ends the search: abstain without refining",
			query:     "Which Zeppelin airship crossed the Atlantic Ocean?",
			budget:    Budget{2, 2, 2},
			want:      []string{"evaluate→generate", "validate→__end__"},
			stop:      "abstained",
			abstained: true,
		},
		{
			name:      "a budget of one refinement is honoured",
			query:     "Do puffins nest on Svalbard cliffs near Longyearbyen?",
			budget:    Budget{1, 2, 2},
			want:      []string{"evaluate→route", "evaluate→generate", "validate→__end__"},
			stop:      "retrieve budget spent",
			abstained: true,
			loops:     Budget{Retrieve: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.Budget = tt.budget
			// The loops are under test, not the router: a planner that
			// always searches the files decides every route.
			opts.PlannerBelow = 1.01
			r, err := Build(Deps{Searcher: scatteredCorpus(), Planner: localPlanner{}}, opts)
			if err != nil {
				t.Fatal(err)
			}
			s, got := decisions(t, r, State{Query: tt.query})
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("decisions = %v, want %v", got, tt.want)
			}
			if s.Stop != tt.stop || s.Answer.Abstained != tt.abstained || s.Loops != tt.loops {
				t.Errorf("stop %q abstained %v loops %+v; want %q %v %+v (notes %v)", s.Stop, s.Answer.Abstained, s.Loops, tt.stop, tt.abstained, tt.loops, s.Notes)
			}
			if tt.abstained && s.Answer.Text != NoAnswer {
				t.Errorf("abstention text = %q, want %q", s.Answer.Text, NoAnswer)
			}
			if !tt.abstained && (len(s.Answer.Citations) == 0 || !strings.Contains(s.Answer.Text, "[1]")) {
				t.Errorf("answer without citations: %q", s.Answer.Text)
			}
		})
	}
}

// localPlanner searches the files for every question.
type localPlanner struct{}

func (localPlanner) Plan(_ context.Context, q string, _ []graphrag.Turn) (graphrag.Plan, error) {
	return graphrag.Plan{Query: q, Route: graphrag.RouteVector, Reason: "search the files"}, nil
}

// fakeWriter writes an answer that its hits do not support, streaming it.
type fakeWriter struct {
	text  string
	err   error
	calls int
}

func (w *fakeWriter) Write(ctx context.Context, req graphrag.WriteRequest, emit func(string)) (graphrag.Answer, error) {
	w.calls++
	if w.err != nil {
		return graphrag.Answer{Usage: graphrag.Usage{Calls: 1}}, w.err
	}
	for _, tok := range strings.Fields(w.text) {
		emit(tok + " ")
	}
	return graphrag.Answer{Text: w.text, Citations: citations(req.Hits), Usage: graphrag.Usage{Calls: 1, PromptTokens: 100, CompletionTokens: 10}}, nil
}

func TestGraphGenerateBudget(t *testing.T) {
	w := &fakeWriter{text: "Penguins migrate through Antarctica every winter [1]."}
	opts := DefaultOptions()
	opts.Budget = Budget{Retrieve: 2, Generate: 1, Route: 2}
	r, err := Build(Deps{Searcher: smallCorpus(), Writer: w}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var tokens int
	s, err := r.Invoke(context.Background(), State{Query: "Where do ospreys nest in Scandinavia?"}, graph.WithObserver(func(e graph.Event) {
		if e.Kind == graph.EventCustom && e.Name == "token" {
			tokens++
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	if w.calls != 2 || s.Loops.Generate != 1 || s.Stop != "generate budget spent: answered from the passages" {
		t.Errorf("writer calls %d, loops %+v, stop %q; want 2 calls, 1 regeneration, generate budget spent", w.calls, s.Loops, s.Stop)
	}
	if s.Answer.By != "extractive" || strings.Contains(s.Answer.Text, "Penguins") || !strings.Contains(strings.Join(s.Notes, "\n"), "answered extractively") {
		t.Errorf("answer %q by %s, notes %v; want the extractive answer from the passages, noted", s.Answer.Text, s.Answer.By, s.Notes)
	}
	if tokens == 0 {
		t.Error("no token events streamed")
	}
	if u := s.Usage[NodeGenerate]; u.Calls != 2 || u.PromptTokens != 200 {
		t.Errorf("generate usage = %+v, want 2 calls, 200 prompt tokens", u)
	}
}

type failingPlanner struct{ calls int }

func (f *failingPlanner) Plan(context.Context, string, []graphrag.Turn) (graphrag.Plan, error) {
	f.calls++
	return graphrag.Plan{}, errBoom
}

type failingGrader struct{}

func (failingGrader) Grade(context.Context, string, []graphrag.Hit) (graphrag.Grading, error) {
	return graphrag.Grading{}, errBoom
}

type failingRewriter struct{}

func (failingRewriter) Rewrite(context.Context, string, []graphrag.Hit) (string, error) {
	return "", errBoom
}

type failingJudge struct{ calls int }

func (f *failingJudge) Judge(context.Context, string, graphrag.Answer, []graphrag.Hit) (graphrag.Judgement, error) {
	f.calls++
	return graphrag.Judgement{}, errBoom
}

func TestFallbacksAreNoted(t *testing.T) {
	planner, judge := &failingPlanner{}, &failingJudge{}
	opts := DefaultOptions()
	opts.PlannerBelow = 1.01 // always ask the planner
	opts.JudgeBand = 1       // always ask the judge
	opts.ProbeK = 0          // keep every query local
	deps := Deps{Searcher: scatteredCorpus(), Planner: planner, Grader: failingGrader{}, Rewriter: failingRewriter{}, Writer: &fakeWriter{err: errBoom}, Judge: judge}
	r, err := Build(deps, opts)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query string
		notes       []string
	}{
		{"planner, grader, writer, judge", "Where do ospreys nest in Scandinavia?", []string{"route: planner failed", "evaluate: grader failed", "generate: writer failed", "validate: judge failed"}},
		{"rewriter", "Do puffins nest on Svalbard cliffs near Longyearbyen?", []string{"evaluate: rewriter failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := r.Invoke(context.Background(), State{Query: tt.query})
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(s.Notes, "\n")
			for _, want := range tt.notes {
				if !strings.Contains(all, want) {
					t.Errorf("notes lack %q:\n%s", want, all)
				}
			}
			if s.Answer.Text == "" {
				t.Error("no answer after fallbacks")
			}
		})
	}
	if planner.calls == 0 || judge.calls == 0 {
		t.Errorf("planner called %d times, judge %d: both should have been asked", planner.calls, judge.calls)
	}
}

func TestMermaidGolden(t *testing.T) {
	r, err := Build(Deps{Searcher: smallCorpus()}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	got := r.Mermaid()
	path := filepath.Join("testdata", "golden", "graph.mmd")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./nodes -run TestMermaidGolden -update)", err)
	}
	if got != string(want) {
		t.Errorf("Mermaid differs from %s:\n%s", path, got)
	}
}

func TestGraphRouteBudget(t *testing.T) {
	w := &fakeWriter{text: "Ospreys nest near lakes [1]."} // grounded, but not a number
	judge := &offJudge{}
	opts := DefaultOptions()
	opts.Budget = Budget{Retrieve: 2, Generate: 2, Route: 1}
	r, err := Build(Deps{Searcher: smallCorpus(), Writer: w, Judge: judge}, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, got := decisions(t, r, State{Query: "How many ospreys nest in Scandinavia?"})
	want := []string{"evaluate→generate", "validate→route", "evaluate→generate", "validate→__end__"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("decisions = %v, want %v", got, want)
	}
	if s.Stop != "route budget spent" || s.Loops.Route != 1 || !s.Answer.LowConfidence || s.Verdict != graphrag.VerdictOffQuestion {
		t.Errorf("stop %q loops %+v low confidence %v verdict %s; want route budget spent after 1 loop, flagged off question", s.Stop, s.Loops, s.Answer.LowConfidence, s.Verdict)
	}
	if s.Plan.By != "refine" {
		t.Errorf("second plan by %q, want refine", s.Plan.By)
	}
}

func TestCancelledRunStops(t *testing.T) {
	r, err := Build(Deps{Searcher: smallCorpus()}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Invoke(ctx, State{Query: "Where do ospreys nest?"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Invoke on a cancelled context: %v, want context.Canceled", err)
	}
}

func TestSearcherErrorFailsTheRun(t *testing.T) {
	s := smallCorpus()
	s.fail = errors.New("database is locked")
	r, err := Build(Deps{Searcher: s}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	// Named as the user's notes, the question goes local even though the
	// probe failed.
	st, err := r.Invoke(context.Background(), State{Query: "what do my notes say about where ospreys nest in Scandinavia"})
	var ne *graph.NodeError
	if !errors.As(err, &ne) || ne.Node != NodeRetrieve || !errors.Is(err, s.fail) {
		t.Fatalf("err = %v, want a NodeError from retrieve wrapping the store's error", err)
	}
	if !strings.Contains(strings.Join(st.Notes, "\n"), "probe search failed") {
		t.Errorf("notes %v lack the probe failure", st.Notes)
	}
}
