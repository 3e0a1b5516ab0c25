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
