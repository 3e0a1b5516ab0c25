package nodes

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// downModel fails every call as an unreachable server does.
type downModel struct{ calls int }

func (d *downModel) err() error {
	d.calls++
	return fmt.Errorf("llm plan (ollama:x): %w", graphrag.ErrUnavailable)
}

func (d *downModel) Plan(context.Context, string, []graphrag.Turn) (graphrag.Plan, error) {
	return graphrag.Plan{}, d.err()
}
func (d *downModel) Grade(context.Context, string, []graphrag.Hit) (graphrag.Grading, error) {
	return graphrag.Grading{}, d.err()
}
func (d *downModel) Rewrite(context.Context, string, []graphrag.Hit) (string, error) {
	return "", d.err()
}
func (d *downModel) Write(context.Context, graphrag.WriteRequest, func(string)) (graphrag.Answer, error) {
	return graphrag.Answer{}, d.err()
}
func (d *downModel) Judge(context.Context, string, graphrag.Answer, []graphrag.Hit) (graphrag.Judgement, error) {
	return graphrag.Judgement{}, d.err()
}

func TestUnreachableModelFinishesExtractively(t *testing.T) {
	opts := DefaultOptions()
	opts.PlannerBelow = 1.01
	opts.JudgeBand = 1
	opts.ProbeK = 0
	tests := []struct{ name, query string }{
		{"local", "Where do ospreys nest in Scandinavia?"},
		{"direct", "what is the capital of Peru"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &downModel{}
			r, err := Build(Deps{Searcher: smallCorpus(), Planner: m, Grader: m, Rewriter: m, Writer: m, Judge: m}, opts)
			if err != nil {
				t.Fatal(err)
			}
			var events []string
			s, err := r.Invoke(context.Background(), State{Query: tt.query}, graph.WithObserver(func(e graph.Event) {
				if e.Kind == graph.EventCustom && e.Name == EventFallback {
					events = append(events, fmt.Sprint(e.Payload))
				}
			}))
			if err != nil {
				t.Fatal(err)
			}
			if m.calls != 1 {
				t.Errorf("%d model calls, want 1: after an unreachable server the run asks no more", m.calls)
			}
			all := strings.Join(s.Notes, "\n")
			if strings.Count(all, msgModelDown) != 1 {
				t.Errorf("notes should say %q once:\n%s", msgModelDown, all)
			}
			if len(events) != 1 || !strings.Contains(events[0], msgModelDown) {
				t.Errorf("fallback events = %q", events)
			}
			if s.Answer.Text == "" {
				t.Error("no answer")
			}
		})
	}
}

func TestEveryFallbackIsEmitted(t *testing.T) {
	planner, judge := &failingPlanner{}, &failingJudge{}
	opts := DefaultOptions()
	opts.PlannerBelow = 1.01
	opts.JudgeBand = 1
	opts.ProbeK = 0
	r, err := Build(Deps{Searcher: smallCorpus(), Planner: planner, Grader: failingGrader{}, Rewriter: failingRewriter{}, Writer: &fakeWriter{err: errBoom}, Judge: judge}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	s, err := r.Invoke(context.Background(), State{Query: "Where do ospreys nest in Scandinavia?"}, graph.WithObserver(func(e graph.Event) {
		if e.Kind == graph.EventCustom && e.Name == EventFallback {
			events = append(events, fmt.Sprint(e.Payload))
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"route: planner failed", "evaluate: grader failed", "generate: writer failed", "validate: judge failed"} {
		found := false
		for _, e := range events {
			found = found || strings.HasPrefix(e, want)
		}
		if !found {
			t.Errorf("no fallback event %q; events %q; notes %q", want, events, s.Notes)
		}
	}
}

// directPlanner sends every question to the model alone.
type directPlanner struct{}

func (directPlanner) Plan(_ context.Context, q string, _ []graphrag.Turn) (graphrag.Plan, error) {
	return graphrag.Plan{Query: q, Route: graphrag.RouteDirect, Reason: "general knowledge"}, nil
}

// badWriter answers nothing usable, as a model that talks past the task.
type badWriter struct{ calls int }

func (b *badWriter) Write(context.Context, graphrag.WriteRequest, func(string)) (graphrag.Answer, error) {
	b.calls++
	return graphrag.Answer{}, fmt.Errorf("llm write (ollama:x): output unusable")
}

// A model that fails a question it was to answer alone leaves the run no
// worse than no model: the files are searched, and what they say answers.
func TestFailedDirectAnswerSearchesTheFiles(t *testing.T) {
	opts := DefaultOptions()
	opts.PlannerBelow = 1.01 // the planner decides every route
	w := &badWriter{}
	r, err := Build(Deps{Searcher: smallCorpus(), Planner: directPlanner{}, Writer: w}, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), State{Query: "how often should a sourdough starter be fed"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Loops.Route != 1 || s.Plan.Route == graphrag.RouteDirect {
		t.Errorf("route loops %d, last route %s: want one loop back to search the files", s.Loops.Route, s.Plan.Route)
	}
	if s.Answer.Abstained || !strings.Contains(s.Answer.Text, "twelve hours") || s.Answer.By != "extractive" {
		t.Errorf("answer %+v: want the extractive answer from the sourdough note", s.Answer)
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "searched your files instead") {
		t.Errorf("notes do not say why the files were searched:\n%s", strings.Join(s.Notes, "\n"))
	}

	// With no route budget left, the run says the model gave no answer.
	opts.Budget.Route = 0
	r, err = Build(Deps{Searcher: smallCorpus(), Planner: directPlanner{}, Writer: w}, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err = r.Invoke(context.Background(), State{Query: "how often should a sourdough starter be fed"})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Answer.Abstained || s.Answer.Text != msgModelFailed {
		t.Errorf("answer %+v: want the abstention that says the model gave no usable answer", s.Answer)
	}
}

// An abstention says what would help when the files were searched only
// because nothing else could be asked, and nothing more otherwise.
func TestNothingFoundSaysWhatWouldHelp(t *testing.T) {
	for _, tt := range []struct {
		reason, want string
	}{
		{"classifier: web 0.91; " + reasonWebOff, "--web searxng=URL"},
		{"classifier: general 0.7; " + reasonLittleLocal, "A language model"},
		{"classifier: local 0.9; names one of your documents: searched locally", ""},
	} {
		got := nothingFound(graphrag.Plan{Reason: tt.reason})
		if !strings.HasPrefix(got, NoAnswer) || tt.want == "" && got != NoAnswer || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("nothingFound(%q) = %q, want %q in it", tt.reason, got, tt.want)
		}
	}
}

// unknowingWriter is a model that does not know the user's files: asked
// alone it says so; given passages, it answers from the first.
type unknowingWriter struct{ alone, withPassages int }

func (u *unknowingWriter) Write(_ context.Context, req graphrag.WriteRequest, _ func(string)) (graphrag.Answer, error) {
	if len(req.Hits) == 0 {
		u.alone++
		return graphrag.Answer{Text: "I'm sorry, I don't know that.", By: "llm"}, nil
	}
	u.withPassages++
	first := req.Hits[0]
	return graphrag.Answer{Text: first.Chunk.Text + " [1]", By: "llm", Citations: []graphrag.Citation{{N: 1, Hit: first, Quote: first.Chunk.Text}}}, nil
}

// A model that does not know what it was asked alone leaves the run no
// worse than no model: the files are searched, and the model answers from
// them.
func TestUnknownDirectAnswerSearchesTheFiles(t *testing.T) {
	opts := DefaultOptions()
	opts.PlannerBelow = 1.01 // the planner decides every route
	w := &unknowingWriter{}
	r, err := Build(Deps{Searcher: smallCorpus(), Planner: directPlanner{}, Writer: w}, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), State{Query: "how often should a sourdough starter be fed"})
	if err != nil {
		t.Fatal(err)
	}
	if w.alone != 1 || w.withPassages == 0 || s.Loops.Route != 1 || s.Plan.Route == graphrag.RouteDirect {
		t.Errorf("asked alone %d, with passages %d, route loops %d, last route %s: want one loop back to search the files", w.alone, w.withPassages, s.Loops.Route, s.Plan.Route)
	}
	if s.Answer.Abstained || !strings.Contains(s.Answer.Text, "twelve hours") {
		t.Errorf("answer %+v: want the answer from the sourdough note", s.Answer)
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "did not know") {
		t.Errorf("notes do not say why the files were searched:\n%s", strings.Join(s.Notes, "\n"))
	}
}

func TestSaysUnknown(t *testing.T) {
	for text, want := range map[string]bool{
		"I don't know.":                              true,
		"I’m not sure.":                              true,
		"I'm sorry, I don't know that.":              true,
		"Sorry, but I cannot answer that.":           true,
		"Unfortunately, there is no information.":    true,
		"The starter is fed every twelve hours [1].": false,
		"Sorry to hear that! The answer is 42.":      false,
		"I know the answer: twelve hours.":           false,
	} {
		if got := saysUnknown(text); got != want {
			t.Errorf("saysUnknown(%q) = %v, want %v", text, got, want)
		}
	}
}
