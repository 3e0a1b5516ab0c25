package nodes

import (
	"context"
	"testing"

	"github.com/graphrag/graphrag"
)

type okPlanner struct{}

func (okPlanner) Plan(_ context.Context, q string, _ []graphrag.Turn) (graphrag.Plan, error) {
	return graphrag.Plan{Route: graphrag.RouteHybrid, Query: q, Usage: graphrag.Usage{Calls: 1, PromptTokens: 50}}, nil
}

// okGrader keeps the second hit only and takes one fact from the first.
type okGrader struct{ hits []graphrag.Hit }

func (g *okGrader) Grade(_ context.Context, _ string, hits []graphrag.Hit) (graphrag.Grading, error) {
	g.hits = hits
	return graphrag.Grading{Relevant: []int{1}, Facts: []graphrag.Fact{{Text: "fact from the second hit", Hit: 1}, {Text: "fact from the first hit", Hit: 0}},
		By: "llm", Usage: graphrag.Usage{Calls: 1, PromptTokens: 30}}, nil
}

type okJudge struct{}

func (okJudge) Judge(context.Context, string, graphrag.Answer, []graphrag.Hit) (graphrag.Judgement, error) {
	return graphrag.Judgement{Verdict: graphrag.VerdictOK, Reason: "grounded", By: "llm", Usage: graphrag.Usage{Calls: 1}}, nil
}

func TestModelDecidersAreUsed(t *testing.T) {
	grader := &okGrader{}
	opts := DefaultOptions()
	opts.PlannerBelow, opts.JudgeBand = 1.01, 1
	w := &fakeWriter{text: "Ospreys nest near lakes and rivers across Scandinavia [1]."}
	r, err := Build(Deps{Searcher: smallCorpus(), Planner: okPlanner{}, Grader: grader, Writer: w, Judge: okJudge{}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), State{Query: "Where do ospreys nest in Scandinavia?"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Plan.Route != graphrag.RouteHybrid || s.Plan.By != "llm" || s.Plan.Reason == "" || len(s.Plan.Keywords) == 0 {
		t.Errorf("plan = %+v, want the planner's hybrid plan with keywords and a reason filled in", s.Plan)
	}
	if len(grader.hits) < 2 || len(s.Kept) != 2 || s.Kept[0].Chunk.ID != grader.hits[1].Chunk.ID || s.Kept[1].Chunk.ID != grader.hits[0].Chunk.ID {
		t.Fatalf("kept %d hits, want the relevant one first and the fact's hit after it", len(s.Kept))
	}
	if len(s.Evidence) != 2 || s.Evidence[0].Hit != 0 || s.Evidence[1].Hit != 1 {
		t.Errorf("evidence = %+v, want facts renumbered to the kept hits", s.Evidence)
	}
	for node, want := range map[string]int{NodeRoute: 1, NodeEvaluate: 1, NodeGenerate: 1, NodeValidate: 1} {
		if got := s.Usage[node].Calls; got != want {
			t.Errorf("usage[%s].Calls = %d, want %d", node, got, want)
		}
	}
	if s.Stop != "answered" || len(s.Notes) != 0 {
		t.Errorf("stop %q notes %v, want answered without fallbacks", s.Stop, s.Notes)
	}
}
