package llmtest_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
)

var oracleGold = []llmtest.Gold{
	{Question: "Who sang Cornflake Girl?", Route: "vector", Answers: []string{"Tori Amos"}, Passages: []string{"Cornflake Girl"}},
	{Question: "Is Lake Tahoe deeper than Lake Geneva?", Answers: []string{"yes"}, Passages: []string{"Lake Tahoe", "Lake Geneva"}},
	{Question: "When did the Berlin Wall fall?", Answers: []string{"1989"}, Passages: []string{"Berlin Wall"}},
	{Question: "Who founded Atlantis Records?"}, // not in the files
}

func hit(title, text string) graphrag.Hit {
	return graphrag.Hit{Chunk: graphrag.Chunk{ID: title, Text: text}, Source: graphrag.Source{Title: title}}
}

var oracleHits = []graphrag.Hit{
	hit("Tori Amos", "Tori Amos is an American singer-songwriter and pianist."),
	hit("Cornflake Girl", "\"Cornflake Girl\" is a song by Tori Amos, released in 1994 as the second single from Under the Pink."),
	hit("Berlin", "Berlin is the capital of Germany."),
}

func oracleModels(t *testing.T, start func(testing.TB, llmtest.Responder) *llmtest.Server, o *llmtest.Oracle) *llm.Models {
	t.Helper()
	srv := start(t, o.Respond)
	spec, err := llm.ParseSpec(srv.Spec("oracle"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := llm.New(context.Background(), llm.Config{Router: spec, Timeout: 5 * time.Second, WriteTimeout: 5 * time.Second, Retries: -1}, &http.Client{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestOracle drives the oracle through the real adapters on both protocols:
// every decision parses, and what it decides is the gold.
func TestOracle(t *testing.T) {
	for _, p := range []struct {
		name  string
		start func(testing.TB, llmtest.Responder) *llmtest.Server
	}{{"ollama", llmtest.NewOllama}, {"openai", llmtest.NewOpenAI}} {
		t.Run(p.name, func(t *testing.T) {
			ctx := context.Background()
			write := func(t *testing.T, mode llmtest.OracleMode, q string) graphrag.Answer {
				t.Helper()
				o := llmtest.NewOracle(llmtest.OracleConfig{Mode: mode, Gold: oracleGold})
				a, err := oracleModels(t, p.start, o).Writer().Write(ctx, graphrag.WriteRequest{Query: q, Hits: oracleHits}, nil)
				if err != nil {
					t.Fatal(err)
				}
				return a
			}
			t.Run("plans the gold route", func(t *testing.T) {
				o := llmtest.NewOracle(llmtest.OracleConfig{Gold: oracleGold})
				plan, err := oracleModels(t, p.start, o).Planner().Plan(ctx, "Who sang Cornflake Girl?", nil)
				if err != nil || plan.Route != graphrag.RouteVector {
					t.Fatalf("plan = %+v, %v; want route vector", plan, err)
				}
			})
			t.Run("grades the passages holding the answer relevant, with their sentence", func(t *testing.T) {
				o := llmtest.NewOracle(llmtest.OracleConfig{Gold: oracleGold})
				g, err := oracleModels(t, p.start, o).Grader().Grade(ctx, "Who sang Cornflake Girl?", oracleHits)
				if err != nil {
					t.Fatal(err)
				}
				if len(g.Relevant) != 2 || g.Relevant[0] != 0 || g.Relevant[1] != 1 {
					t.Errorf("relevant = %v, want [0 1] (both hold the answer; Berlin does not)", g.Relevant)
				}
				if len(g.Facts) != 2 || g.Facts[1].Hit != 1 || !strings.Contains(g.Facts[1].Text, "song by Tori Amos") {
					t.Errorf("facts = %+v", g.Facts)
				}
			})
			t.Run("grades nothing relevant for an unanswerable question", func(t *testing.T) {
				o := llmtest.NewOracle(llmtest.OracleConfig{Gold: oracleGold})
				g, err := oracleModels(t, p.start, o).Grader().Grade(ctx, "Who founded Atlantis Records?", oracleHits)
				if err != nil || len(g.Relevant) != 0 {
					t.Fatalf("grade = %+v, %v; want nothing relevant", g, err)
				}
			})
			for _, tc := range []struct {
				mode llmtest.OracleMode
				want string
			}{
				{llmtest.Perfect, "The answer is Tori Amos [1]."},
				{llmtest.Terse, "Tori Amos [1]"},
				{llmtest.Verbose, "Going by the excerpts, the reply to that is Tori Amos [1]. The passage about Tori Amos says as much [1]."},
			} {
				t.Run("writes "+string(tc.mode), func(t *testing.T) {
					if a := write(t, tc.mode, "Who sang Cornflake Girl?"); a.Text != tc.want || len(a.Citations) != 1 || a.Citations[0].N != 1 {
						t.Errorf("answer = %q %+v, want %q citing [1]", a.Text, a.Citations, tc.want)
					}
				})
			}
			t.Run("says no answer when the excerpts do not hold one", func(t *testing.T) {
				if a := write(t, llmtest.Perfect, "When did the Berlin Wall fall?"); !a.Abstained {
					t.Errorf("answer = %q, want an abstention", a.Text)
				}
			})
			t.Run("judges truthfully", func(t *testing.T) {
				o := llmtest.NewOracle(llmtest.OracleConfig{Gold: oracleGold})
				j := oracleModels(t, p.start, o).Judge()
				for _, tc := range []struct {
					answer string
					want   graphrag.Verdict
				}{
					{"The answer is Tori Amos [2].", graphrag.VerdictOK},
					{"It was released in 1994 [2].", graphrag.VerdictOffQuestion},
					{"The answer is Kate Bush [2].", graphrag.VerdictUnsupported},
				} {
					v, err := j.Judge(ctx, "Who sang Cornflake Girl?", graphrag.Answer{Text: tc.answer}, oracleHits)
					if err != nil || v.Verdict != tc.want {
						t.Errorf("judge(%q) = %+v, %v; want %s", tc.answer, v, err, tc.want)
					}
				}
			})
			t.Run("garbage parses as nothing", func(t *testing.T) {
				o := llmtest.NewOracle(llmtest.OracleConfig{Mode: llmtest.Garbage, Gold: oracleGold})
				_, err := oracleModels(t, p.start, o).Grader().Grade(ctx, "Who sang Cornflake Girl?", oracleHits)
				if !errors.Is(err, llm.ErrBadOutput) {
					t.Errorf("grade error = %v, want ErrBadOutput", err)
				}
				// The writer refuses the garbage too: it is a JSON object, not an answer.
				_, err = oracleModels(t, p.start, o).Writer().Write(ctx, graphrag.WriteRequest{Query: "Who sang Cornflake Girl?", Hits: oracleHits}, nil)
				if !errors.Is(err, llm.ErrBadOutput) {
					t.Errorf("write error = %v, want ErrBadOutput", err)
				}
			})
		})
	}
}

// TestOracleNoisy: a seeded share of the answerable questions, the same
// every time, gets a fluent wrong answer.
func TestOracleNoisy(t *testing.T) {
	var gold []llmtest.Gold
	for i := range 1000 {
		gold = append(gold, llmtest.Gold{Question: "question " + string(rune('a'+i%26)) + strings.Repeat("x", i), Answers: []string{"answer " + strings.Repeat("y", i)}})
	}
	o := llmtest.NewOracle(llmtest.OracleConfig{Mode: llmtest.Noisy, Gold: gold, Seed: 7})
	again := llmtest.NewOracle(llmtest.OracleConfig{Mode: llmtest.Noisy, Gold: gold, Seed: 7})
	wrong := 0
	for _, g := range gold {
		w, ok := o.Wrong(g.Question)
		if w2, ok2 := again.Wrong(g.Question); w2 != w || ok2 != ok {
			t.Fatalf("Wrong(%q) differs between two oracles with one seed", g.Question)
		}
		if ok {
			wrong++
			if w == g.Answers[0] {
				t.Errorf("wrong answer %q is the right one", w)
			}
		}
	}
	if wrong < 250 || wrong > 350 {
		t.Errorf("%d of 1000 wrong, want about %v", wrong, llmtest.DefaultWrongShare*1000)
	}
	if _, ok := llmtest.NewOracle(llmtest.OracleConfig{Gold: gold}).Wrong(gold[0].Question); ok {
		t.Error("a perfect oracle answered wrongly")
	}
}
