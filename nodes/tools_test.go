package nodes

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

type fakeTools struct {
	plan graphrag.Plan
	err  error
}

func (f *fakeTools) Answer(_ context.Context, plan graphrag.Plan) (string, []graphrag.Hit, error) {
	f.plan = plan
	if f.err != nil {
		return "", nil, f.err
	}
	return "You have 2 PDF files.", []graphrag.Hit{doc("a", "a.pdf", ""), doc("b", "b.pdf", "")}, nil
}

type fakeWeb struct{ query string }

func (f *fakeWeb) SearchWeb(_ context.Context, query string, k int) ([]graphrag.Hit, error) {
	f.query = query
	h := doc("w", "Oslo weather", "Oslo will be cloudy tomorrow with light rain and a high of 4 degrees.")
	h.Source.URL = "https://weather.example/oslo"
	return []graphrag.Hit{h}, nil
}

func TestToolRoutes(t *testing.T) {
	tests := []struct {
		name      string
		deps      Deps
		query     string
		route     graphrag.Route
		want      string
		abstained bool
		wantErr   bool
	}{
		{"filesystem tools answer", Deps{Searcher: smallCorpus(), Tools: &fakeTools{}}, "how many pdfs do i have", graphrag.RouteFilesystem, "You have 2 PDF files.", false, false},
		{"filesystem tools off", Deps{Searcher: smallCorpus()}, "how many pdfs do i have", graphrag.RouteFilesystem, "filesystem tools are not configured", true, false},
		{"filesystem tools on: a question their contents answer", Deps{Searcher: smallCorpus(), Tools: &fakeTools{}}, "which folder holds the osprey's nest", graphrag.RouteFilesystem, "You have 2 PDF files.", false, false},
		// Without them, a question that asks no count, size or date of
		// the files is searched for in what they say.
		{"filesystem tools off searches the contents", Deps{Searcher: smallCorpus()}, "which folder holds the osprey's nest", graphrag.RouteVector, "Ospreys nest near lakes", false, false},
		// A word for a date ("saved") asks what only the file tools know
		// when there are some; without them, what the files say answers.
		{"filesystem tools off: a date word the contents answer", Deps{Searcher: reportCorpus()}, "which summary file gets saved by zorp whenever a frob sync fails?", graphrag.RouteVector, "zorp-local.json", false, false},
		{"filesystem tools on: a date word", Deps{Searcher: reportCorpus(), Tools: &fakeTools{}}, "which summary file gets saved by zorp whenever a frob sync fails?", graphrag.RouteFilesystem, "You have 2 PDF files.", false, false},
		{"filesystem tools not configured error", Deps{Searcher: smallCorpus(), Tools: &fakeTools{err: graphrag.ErrNotConfigured}}, "how many pdfs do i have", graphrag.RouteFilesystem, "filesystem tools are not configured", true, false},
		{"filesystem tools fail", Deps{Searcher: smallCorpus(), Tools: &fakeTools{err: errors.New("permission denied")}}, "how many pdfs do i have", graphrag.RouteFilesystem, "", false, true},
		{"web search answers with citations", Deps{Searcher: smallCorpus(), Web: &fakeWeb{}}, "what's the weather in Oslo tomorrow", graphrag.RouteWeb, "light rain", false, false},
		{"web search off searches the files", Deps{Searcher: smallCorpus()}, "what's the weather in Oslo tomorrow", graphrag.RouteVector, "", true, false},
		{"direct arithmetic", Deps{Searcher: smallCorpus()}, "what is 12 times 7", graphrag.RouteDirect, "84", false, false},
		// Without a model, general knowledge is looked for in the files;
		// when they do not answer either, the run says a model is needed.
		{"direct without a model searches the files, then abstains", Deps{Searcher: smallCorpus()}, "what does ubiquitous mean", graphrag.RouteVector, "no language model is configured", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Build(tt.deps, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			s, err := r.Invoke(context.Background(), State{Query: tt.query})
			if tt.wantErr {
				if err == nil {
					t.Fatalf("no error; answer %q", s.Answer.Text)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Plan.Route != tt.route || !strings.Contains(s.Answer.Text, tt.want) || s.Answer.Abstained != tt.abstained {
				t.Errorf("route %s, answer %q, abstained %v; want %s, containing %q, abstained %v", s.Plan.Route, s.Answer.Text, s.Answer.Abstained, tt.route, tt.want, tt.abstained)
			}
		})
	}
	t.Run("filesystem plan carries filters", func(t *testing.T) {
		tools := &fakeTools{}
		r, _ := Build(Deps{Searcher: smallCorpus(), Tools: tools}, DefaultOptions())
		if _, err := r.Invoke(context.Background(), State{Query: "list the pdfs I changed this week"}); err != nil {
			t.Fatal(err)
		}
		if tools.plan.Time != graphrag.TimeThisWeek || len(tools.plan.FileTypes) == 0 || tools.plan.FileTypes[0] != "pdf" {
			t.Errorf("tools got plan %+v", tools.plan)
		}
	})
}

func TestFilesystemAnswerPhrasedByWriter(t *testing.T) {
	t.Run("writer phrases the tool's result", func(t *testing.T) {
		w := &fakeWriter{text: "You have two PDFs: a.pdf and b.pdf."}
		r, err := Build(Deps{Searcher: smallCorpus(), Tools: &fakeTools{}, Writer: w}, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.Invoke(context.Background(), State{Query: "how many pdfs do i have"})
		if err != nil {
			t.Fatal(err)
		}
		if s.Answer.Text != w.text || s.Answer.By != "llm" || w.calls != 1 || len(s.Answer.Citations) != 2 {
			t.Errorf("answer %q by %q with %d citations after %d writer calls", s.Answer.Text, s.Answer.By, len(s.Answer.Citations), w.calls)
		}
	})
	t.Run("a failing writer leaves the tool's answer", func(t *testing.T) {
		w := &fakeWriter{err: errors.New("model crashed")}
		r, err := Build(Deps{Searcher: smallCorpus(), Tools: &fakeTools{}, Writer: w}, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.Invoke(context.Background(), State{Query: "how many pdfs do i have"})
		if err != nil {
			t.Fatal(err)
		}
		if s.Answer.Text != "You have 2 PDF files." || len(s.Notes) == 0 {
			t.Errorf("answer %q, notes %q", s.Answer.Text, s.Notes)
		}
	})
}

// storeTools are file tools that recognise questions about the store.
type storeTools struct{ fakeTools }

func (storeTools) AboutStore(query string) bool { return strings.Contains(query, "ingest") }

// A question the file tools say is about the store goes to them, even with
// web search on (issue 14: "when did I last ingest" went to the web).
func TestStoreQuestionsGoToTheFileTools(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tools FileTools
		route graphrag.Route
	}{
		{"tools that know the store", &storeTools{}, graphrag.RouteFilesystem},
		{"tools that do not", &fakeTools{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := newPipeline(Deps{Searcher: smallCorpus(), Tools: tc.tools, Web: &fakeWeb{}}, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			plan, _, _, err := p.plan(context.Background(), "when did I last ingest", nil, false)
			if err != nil {
				t.Fatal(err)
			}
			if tc.route != "" && (plan.Route != tc.route || plan.Reason != reasonAboutStore) {
				t.Errorf("route %s (%s), want %s", plan.Route, plan.Reason, tc.route)
			}
			if tc.route == "" && plan.Reason == reasonAboutStore {
				t.Errorf("routed as a store question without tools that say so")
			}
		})
	}
}

// filesPlanner sends every question to the filesystem tools.
type filesPlanner struct{}

func (filesPlanner) Plan(_ context.Context, q string, _ []graphrag.Turn) (graphrag.Plan, error) {
	return graphrag.Plan{Query: q, Route: graphrag.RouteFilesystem, Reason: "about the files"}, nil
}

// A planner that picks the filesystem tools when they are off does not
// undo the search of what the files say; for a count of the files, which
// only the tools could give, its choice stands and says they are off.
func TestPlannerPicksOffFileTools(t *testing.T) {
	opts := DefaultOptions()
	opts.PlannerBelow = 1.01 // the planner is asked of every route
	p, err := newPipeline(Deps{Searcher: smallCorpus(), Planner: filesPlanner{}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		query string
		want  graphrag.Route
		note  bool
	}{
		{"which folder holds the osprey's nest", graphrag.RouteVector, true},
		{"how many pdfs do i have", graphrag.RouteFilesystem, false},
	} {
		plan, _, notes, err := p.plan(context.Background(), tt.query, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		noted := slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "filesystem tools, which are off") })
		if plan.Route != tt.want || noted != tt.note {
			t.Errorf("%q: route %s, notes %q; want %s, noted %v", tt.query, plan.Route, notes, tt.want, tt.note)
		}
	}
}

// reportCorpus holds a passage about the file a program writes.
func reportCorpus() *memSearcher {
	return newMemSearcher([]graphrag.Hit{
		doc("zorp", "Zorp sync", "Whenever a frob sync fails, zorp writes its nightly summary to zorp-local.json beside the quill."),
		doc("osprey", "Osprey", "The osprey is a fish-eating bird of prey. Ospreys nest near lakes and rivers across Scandinavia."),
	})
}
