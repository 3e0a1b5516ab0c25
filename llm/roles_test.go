package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
)

func hit(title, text string) graphrag.Hit {
	return graphrag.Hit{Chunk: graphrag.Chunk{Text: text}, Source: graphrag.Source{Title: title, Path: "/docs/" + title}}
}

// schemaSent returns the schema a chat request carried, per protocol.
func schemaSent(t *testing.T, r llmtest.Request) map[string]any {
	t.Helper()
	var v map[string]any
	switch r.Protocol {
	case llmtest.Ollama:
		if err := json.Unmarshal(r.Format, &v); err != nil {
			t.Fatalf("format %s is not a JSON object: %v", r.Format, err)
		}
		return v
	default:
		var rf struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string         `json:"name"`
				Schema map[string]any `json:"schema"`
			} `json:"json_schema"`
		}
		if err := json.Unmarshal(r.ResponseFormat, &rf); err != nil || rf.Type != "json_schema" {
			t.Fatalf("response_format %s is not json_schema: %v", r.ResponseFormat, err)
		}
		return rf.JSONSchema.Schema
	}
}

func TestPlanner(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			srv := p.start(t, llmtest.Text(`{"route":"hybrid","query":"total of the ACME invoice","keywords":["ACME","invoice"],"file_types":["pdf"],"source_hint":"acme","time":"this_month"}`))
			m := newModels(t, srv)
			history := []graphrag.Turn{{Query: "find the ACME invoice PDF I got this month", Answer: "It is acme-2024.pdf [1]."}}
			plan, err := m.Planner().Plan(context.Background(), "what was its total?", history)
			if err != nil {
				t.Fatal(err)
			}
			want := graphrag.Plan{Route: graphrag.RouteHybrid, Query: "total of the ACME invoice", Keywords: []string{"ACME", "invoice"},
				FileTypes: []string{"pdf"}, SourceHint: "acme", Time: graphrag.TimeThisMonth, By: "llm"}
			if plan.Route != want.Route || plan.Query != want.Query || !slices.Equal(plan.Keywords, want.Keywords) ||
				!slices.Equal(plan.FileTypes, want.FileTypes) || plan.SourceHint != want.SourceHint || plan.Time != want.Time || plan.By != "llm" {
				t.Errorf("plan = %+v\nwant %+v", plan, want)
			}
			if plan.Usage.Calls != 1 || plan.Usage.PromptTokens == 0 || plan.Usage.CompletionTokens == 0 {
				t.Errorf("usage = %+v, want 1 call with tokens", plan.Usage)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].Kind != llmtest.Chat {
				t.Fatalf("requests %v, want one chat (and no model pull)", reqs)
			}
			r := reqs[0]
			s := schemaSent(t, r)
			props, _ := s["properties"].(map[string]any)
			if _, ok := props["route"]; !ok {
				t.Errorf("schema sent has no route property: %v", s)
			}
			if r.Temperature == nil || *r.Temperature != 0.1 {
				t.Errorf("temperature = %v, want 0.1", r.Temperature)
			}
			if r.MaxTokens != 256 {
				t.Errorf("max tokens = %d, want the planner cap 256", r.MaxTokens)
			}
			if !strings.Contains(r.Prompt(), "find the ACME invoice PDF") || !strings.Contains(r.Prompt(), "what was its total?") {
				t.Errorf("prompt lacks the history or the question:\n%s", r.Prompt())
			}
			if r.System() == "" {
				t.Error("no system message")
			}
			if p.name == "ollama" && r.NumCtx != 8192 {
				t.Errorf("num_ctx = %d, want 8192", r.NumCtx)
			}
			if p.name == "openai" && r.Header.Get("Authorization") == "" {
				t.Error("no Authorization header: the adapter needs a token even for llama-server")
			}
		})
	}
}

func TestPlannerKeepsQueryWithoutHistory(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Text(`{"route":"hybrid","query":"invoice total","keywords":["INV-7"]}`))
	plan, err := newModels(t, srv).Planner().Plan(context.Background(), "total of INV-7?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Query != "total of INV-7?" {
		t.Errorf("query = %q: with no history the user's words are kept", plan.Query)
	}
}

func TestPlannerDropsFiltersNotAskedFor(t *testing.T) {
	tests := []struct {
		name, query string
		types       []string
		src         string
		time        graphrag.TimeWindow
	}{
		{"invented everything", "what did the meeting decide about hiring?", nil, "", graphrag.TimeAny},
		{"asked for", "which pdf from acme did I get this week?", []string{"pdf"}, "acme", graphrag.TimeThisWeek},
		{"synonyms", "show my recent spreadsheets from Acme", []string{"xlsx"}, "acme", graphrag.TimeThisWeek},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewOllama(t, llmtest.Text(`{"route":"vector","keywords":["k"],"file_types":["xlsx","pdf"],"source_hint":"acme","time":"this_week"}`))
			plan, err := newModels(t, srv).Planner().Plan(context.Background(), tt.query, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(plan.FileTypes, tt.types) || plan.SourceHint != tt.src || plan.Time != tt.time {
				t.Errorf("types %v source %q time %q; want %v %q %q", plan.FileTypes, plan.SourceHint, plan.Time, tt.types, tt.src, tt.time)
			}
			if (len(tt.types) < 2) != strings.Contains(plan.Reason, "dropped") {
				t.Errorf("reason %q does not say what was dropped", plan.Reason)
			}
		})
	}
}

func TestGraderDropsUnsupportedFacts(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Text(`{"relevant":[1],"facts":[
		{"chunk":1,"text":"The total is 1,240 EUR."},
		{"chunk":1,"text":"The total is 9,999 EUR."},
		{"chunk":1,"text":"Payment is due on 3 May."},
		{"chunk":2,"text":"The CEO resigned in a scandal."}]}`))
	hits := []graphrag.Hit{hit("inv.pdf", "Invoice INV-7. The total is 1,240 EUR."), hit("terms.md", "Payment is due on 3 May 2024.")}
	g, err := newModels(t, srv).Grader().Grade(context.Background(), "q", hits)
	if err != nil {
		t.Fatal(err)
	}
	want := []graphrag.Fact{{Text: "The total is 1,240 EUR.", Hit: 0}, {Text: "Payment is due on 3 May.", Hit: 1}}
	if !slices.Equal(g.Facts, want) {
		t.Errorf("facts = %+v\nwant %+v", g.Facts, want)
	}
	if !slices.Equal(g.Relevant, []int{0, 1}) {
		t.Errorf("relevant = %v: the chunk a moved fact lands in is relevant", g.Relevant)
	}
	if !strings.Contains(g.Reason, "2 dropped") {
		t.Errorf("reason = %q", g.Reason)
	}
}

func TestGrader(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			srv := p.start(t, llmtest.Text(`{"relevant":[3,1],"facts":[{"chunk":3,"text":"The total is 1,240 EUR."},{"chunk":1,"text":"Invoice INV-7 is from ACME."}]}`))
			m := newModels(t, srv, func(c *llm.Config) { c.GradeChunkChars = 100 })
			hits := []graphrag.Hit{
				hit("inv.pdf", "Invoice INV-7 is from ACME."),
				hit("notes.md", "Unrelated meeting notes."),
				hit("inv.pdf", "The total is 1,240 EUR. "+strings.Repeat("padding ", 200)),
			}
			g, err := m.Grader().Grade(context.Background(), "what is the total of INV-7?", hits)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(g.Relevant, []int{2, 0}) {
				t.Errorf("relevant = %v, want [2 0] (0-based)", g.Relevant)
			}
			wantFacts := []graphrag.Fact{{Text: "The total is 1,240 EUR.", Hit: 2}, {Text: "Invoice INV-7 is from ACME.", Hit: 0}}
			if !slices.Equal(g.Facts, wantFacts) {
				t.Errorf("facts = %+v, want %+v", g.Facts, wantFacts)
			}
			if g.By != "llm" || g.Usage.Calls != 1 {
				t.Errorf("by %q usage %+v", g.By, g.Usage)
			}
			reqs := srv.Chats()
			if len(reqs) != 1 {
				t.Fatalf("%d calls for 3 chunks, want 1 batched call", len(reqs))
			}
			prompt := reqs[0].Prompt()
			for _, want := range []string{"[1] (inv.pdf) Invoice INV-7", "[2] (notes.md)", "[3] (inv.pdf) The total"} {
				if !strings.Contains(prompt, want) {
					t.Errorf("prompt lacks %q:\n%s", want, prompt)
				}
			}
			if strings.Count(prompt, "padding") > 20 {
				t.Errorf("chunk text not capped: %d paddings in the prompt", strings.Count(prompt, "padding"))
			}
			if _, ok := schemaSent(t, reqs[0])["properties"].(map[string]any)["relevant"]; !ok {
				t.Error("grading schema not sent")
			}
		})
	}
}

func TestGraderNoHitsNoCall(t *testing.T) {
	srv := llmtest.NewOllama(t, nil)
	g, err := newModels(t, srv).Grader().Grade(context.Background(), "q", nil)
	if err != nil || len(srv.Chats()) != 0 || g.Usage.Calls != 0 {
		t.Fatalf("grade of no hits: %+v, %v, %d calls", g, err, len(srv.Chats()))
	}
}

func TestGraderCapsChunks(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Text(`{"relevant":[2]}`))
	m := newModels(t, srv, func(c *llm.Config) { c.GradeMaxChunks = 2 })
	hits := []graphrag.Hit{hit("a", "alpha"), hit("b", "beta"), hit("c", "gamma")}
	g, err := m.Grader().Grade(context.Background(), "q", hits)
	if err != nil {
		t.Fatal(err)
	}
	if p := srv.Chats()[0].Prompt(); strings.Contains(p, "gamma") {
		t.Errorf("the third chunk was shown past the cap:\n%s", p)
	}
	if !slices.Equal(g.Relevant, []int{1}) {
		t.Errorf("relevant = %v", g.Relevant)
	}
}

func TestWriterStreamsWithCitations(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			answer := "The total of INV-7 is 1,240 EUR [2]. It was issued by ACME [1][9]."
			srv := p.start(t, llmtest.Text(answer))
			m := newModels(t, srv, func(c *llm.Config) {
				c.Writer = c.Router
				c.Writer.Model = "qwen2.5:7b"
			})
			req := graphrag.WriteRequest{
				Query: "what is the total of INV-7?",
				Hits:  []graphrag.Hit{hit("inv.pdf", "Invoice INV-7 from ACME"), hit("inv.pdf", "Total: 1,240 EUR")},
				Facts: []graphrag.Fact{{Text: "Invoice INV-7 is from ACME.", Hit: 0}, {Text: "The total is 1,240 EUR.", Hit: 1}},
			}
			var tokens []string
			ans, err := m.Writer().Write(context.Background(), req, func(tok string) { tokens = append(tokens, tok) })
			if err != nil {
				t.Fatal(err)
			}
			if len(tokens) < 5 {
				t.Errorf("streamed %d tokens, want one per word", len(tokens))
			}
			if got := strings.Join(tokens, ""); got != answer {
				t.Errorf("streamed %q, want %q", got, answer)
			}
			want := "The total of INV-7 is 1,240 EUR [2]. It was issued by ACME [1]."
			if ans.Text != want {
				t.Errorf("text = %q, want %q (the dangling [9] removed)", ans.Text, want)
			}
			if len(ans.Citations) != 2 || ans.Citations[0].N != 1 || ans.Citations[1].N != 2 ||
				ans.Citations[1].Hit.Chunk.Text != "Total: 1,240 EUR" || ans.Citations[1].Quote != "The total is 1,240 EUR." {
				t.Errorf("citations = %+v", ans.Citations)
			}
			if ans.Usage.PromptTokens == 0 || ans.Usage.CompletionTokens == 0 {
				t.Errorf("streamed usage = %+v: tokens not read from the stream", ans.Usage)
			}
			if ans.By != "llm" || ans.Usage.Calls != 1 || ans.Abstained {
				t.Errorf("answer meta: by %q usage %+v abstained %v", ans.By, ans.Usage, ans.Abstained)
			}
			r := srv.Chats()[0]
			if r.Model != "qwen2.5:7b" {
				t.Errorf("writer used model %q, want the writer model", r.Model)
			}
			if !r.Stream {
				t.Error("writer request not streamed")
			}
			if r.Temperature == nil || *r.Temperature != 0.3 {
				t.Errorf("temperature = %v, want 0.3", r.Temperature)
			}
			if strings.Contains(r.Prompt(), "Total: 1,240 EUR") {
				t.Error("given facts, the writer must not see raw chunks")
			}
			if !strings.Contains(r.Prompt(), "[2] The total is 1,240 EUR.") {
				t.Errorf("facts not numbered by hit:\n%s", r.Prompt())
			}
			if len(r.Format) > 0 || len(r.ResponseFormat) > 0 {
				t.Errorf("a free-text answer was sent a format: %s %s", r.Format, r.ResponseFormat)
			}
		})
	}
}

func TestWriterVariants(t *testing.T) {
	t.Run("chunks when no facts", func(t *testing.T) {
		srv := llmtest.NewOpenAI(t, llmtest.Text("Paris [1]."))
		req := graphrag.WriteRequest{Query: "capital?", Hits: []graphrag.Hit{hit("f.txt", "Paris is the capital.")}}
		ans, err := newModels(t, srv).Writer().Write(context.Background(), req, nil)
		if err != nil || ans.Text != "Paris [1]." || len(ans.Citations) != 1 {
			t.Fatalf("%+v, %v", ans, err)
		}
		if !strings.Contains(srv.Chats()[0].Prompt(), "[1] (f.txt) Paris is the capital.") {
			t.Errorf("prompt:\n%s", srv.Chats()[0].Prompt())
		}
		if srv.Chats()[0].Stream {
			t.Error("no emit: no need to stream")
		}
	})
	t.Run("direct with no hits", func(t *testing.T) {
		srv := llmtest.NewOllama(t, llmtest.Text("10.2"))
		ans, err := newModels(t, srv).Writer().Write(context.Background(), graphrag.WriteRequest{Query: "what's 15% of 68"}, nil)
		if err != nil || ans.Text != "10.2" || len(ans.Citations) != 0 {
			t.Fatalf("%+v, %v", ans, err)
		}
	})
	t.Run("echoed answer label dropped", func(t *testing.T) {
		srv := llmtest.NewOllama(t, llmtest.Text("Answer: Paris [1]."))
		ans, err := newModels(t, srv).Writer().Write(context.Background(), graphrag.WriteRequest{Query: "q", Hits: []graphrag.Hit{hit("a", "Paris")}}, nil)
		if err != nil || ans.Text != "Paris [1]." {
			t.Fatalf("%q, %v", ans.Text, err)
		}
	})
	t.Run("abstains", func(t *testing.T) {
		srv := llmtest.NewOllama(t, llmtest.Text(llm.NoAnswer))
		ans, err := newModels(t, srv).Writer().Write(context.Background(), graphrag.WriteRequest{Query: "q", Hits: []graphrag.Hit{hit("a", "b")}}, nil)
		if err != nil || !ans.Abstained {
			t.Fatalf("%+v, %v", ans, err)
		}
	})
	t.Run("think block filtered from stream and text", func(t *testing.T) {
		srv := llmtest.NewOllama(t, func(llmtest.Request) llmtest.Reply {
			return llmtest.Reply{Chunks: []string{"<thi", "nk>let me see", " the facts</th", "ink>\n", "Paris", " [1]."}}
		})
		var got strings.Builder
		ans, err := newModels(t, srv).Writer().Write(context.Background(),
			graphrag.WriteRequest{Query: "q", Hits: []graphrag.Hit{hit("a", "Paris")}}, func(s string) { got.WriteString(s) })
		if err != nil || ans.Text != "Paris [1]." || got.String() != "Paris [1]." {
			t.Fatalf("text %q streamed %q err %v", ans.Text, got.String(), err)
		}
	})
}

// A prose answer that is a JSON object is the model failing the task, not
// an answer: the caller falls back (extractive on passages).
func TestWriterRefusesAJSONAnswer(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			srv := p.start(t, llmtest.Text(llmtest.GarbageText))
			ans, err := newModels(t, srv).Writer().Write(context.Background(), graphrag.WriteRequest{Query: "who wrote the runbook", Hits: []graphrag.Hit{hit("a", "Ada wrote it.")}}, nil)
			if !errors.Is(err, llm.ErrBadOutput) || ans.Text != "" {
				t.Fatalf("answer %q, err %v: want ErrBadOutput and no text", ans.Text, err)
			}
			if !strings.Contains(err.Error(), "JSON object") {
				t.Errorf("error %q does not say why", err)
			}
		})
	}
}

func TestJudge(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			srv := p.start(t, llmtest.Text(`{"grounded": false, "answers_question": true, "reason": "the date is not in the sources"}`))
			j, err := newModels(t, srv).Judge().Judge(context.Background(), "when?", graphrag.Answer{Text: "On 3 May [1]."}, []graphrag.Hit{hit("a", "No date here.")})
			if err != nil {
				t.Fatal(err)
			}
			if j.Verdict != graphrag.VerdictUnsupported || j.By != "llm" || j.Usage.Calls != 1 || !strings.Contains(j.Reason, "date") {
				t.Errorf("judgement = %+v", j)
			}
			if !strings.Contains(srv.Chats()[0].Prompt(), "On 3 May [1].") {
				t.Error("the judge did not see the answer")
			}
		})
	}
}

func TestRewriter(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			srv := p.start(t, llmtest.Script(
				llmtest.Reply{Text: `{"query": "ACME invoice INV-7 total amount"}`},
				llmtest.Reply{Text: `{"query": "total of inv-7"}`},
			))
			rw := newModels(t, srv).Rewriter()
			q, usage, err := rw.RewriteWithUsage(context.Background(), "total of INV-7", nil)
			if err != nil || q != "ACME invoice INV-7 total amount" || usage.Calls != 1 {
				t.Fatalf("rewrite = %q, %+v, %v", q, usage, err)
			}
			q, err = rw.Rewrite(context.Background(), "total of INV-7", nil)
			if !errors.Is(err, llm.ErrBadOutput) {
				t.Fatalf("an unchanged rewrite = %q, %v; want ErrBadOutput", q, err)
			}
		})
	}
}

// TestConcurrentUse runs the roles of one Models from many goroutines.
func TestConcurrentUse(t *testing.T) {
	srv := llmtest.NewOpenAI(t, func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.Prompt(), "Which excerpts") {
			return llmtest.Reply{Text: `{"relevant":[1]}`}
		}
		return llmtest.Reply{Text: "An answer [1]."}
	})
	m := newModels(t, srv)
	hits := []graphrag.Hit{hit("a", "alpha")}
	errs := make(chan error, 16)
	for i := range 16 {
		go func() {
			if i%2 == 0 {
				_, err := m.Grader().Grade(context.Background(), "q", hits)
				errs <- err
				return
			}
			_, err := m.Writer().Write(context.Background(), graphrag.WriteRequest{Query: "q", Hits: hits}, func(string) {})
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := len(srv.Chats()); n != 16 {
		t.Errorf("%d requests, want 16", n)
	}
}
