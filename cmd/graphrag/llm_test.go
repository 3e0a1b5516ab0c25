package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/llm/llmtest"
	"github.com/graphrag/graphrag/server"
)

// fakeModel answers each kind of request graphrag makes the way a good small
// model would: a plan, chunk grades that copy the sentence of the first
// excerpt that best matches the question, an answer streamed from the first
// fact with its citation, a verdict.
func fakeModel(r llmtest.Request) llmtest.Reply {
	schema := string(r.Format) + string(r.ResponseFormat)
	prompt := r.Prompt()
	question := between(prompt, "Question: ", "\n")
	switch {
	case strings.Contains(schema, `"route"`):
		return llmtest.Reply{Text: `{"route": "vector", "query": "When does the nightly backup run?", "keywords": ["nightly", "backup"], "file_types": [], "source_hint": "", "time": "any"}`}
	case strings.Contains(schema, `"relevant"`):
		fact, _ := json.Marshal(bestSentence(between(prompt, "[1] ", "\n"), question))
		return llmtest.Reply{Text: `{"relevant": [1], "facts": [{"chunk": 1, "text": ` + string(fact) + `}]}`}
	case strings.Contains(schema, `"grounded"`):
		return llmtest.Reply{Text: `{"grounded": true, "answers_question": true, "reason": "stated in the source"}`}
	}
	fact := between(prompt, "[1] ", "\n")
	if fact == "" {
		fact = between(prompt, "- ", "\n")
	}
	fact = bestSentence(fact, question)
	return llmtest.Reply{Chunks: strings.SplitAfter(strings.TrimSuffix(fact, ".")+" [1].", " ")}
}

// between returns the text after the first start up to the next end.
func between(s, start, end string) string {
	_, rest, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	rest, _, _ = strings.Cut(rest, end)
	return rest
}

// bestSentence returns the sentence of text sharing the most words of four
// letters or more with question.
func bestSentence(text, question string) string {
	best, bestN := "", -1
	for _, sent := range strings.SplitAfter(text, ". ") {
		n := 0
		for _, w := range strings.Fields(strings.ToLower(question)) {
			if len(w) > 3 && strings.Contains(strings.ToLower(sent), strings.Trim(w, "?.,")) {
				n++
			}
		}
		if n > bestN {
			best, bestN = strings.TrimSpace(sent), n
		}
	}
	return best
}

func TestRunWithOllama(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", sampleDir(t))
	srv := llmtest.NewOllama(t, fakeModel)
	c.env["GRAPHRAG_LLM"] = "ollama:qwen2.5:3b@" + srv.URL

	out, errs, code := c.run("", "run", "When does the nightly backup run?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(errs, "No language model configured") {
		t.Errorf("says there is no model although one is configured:\n%s", errs)
	}
	if !strings.Contains(out, "02:30") || !strings.Contains(out, "[1]") || !strings.Contains(out, "backup-runbook.md") {
		t.Errorf("streamed answer or its source missing:\n%s", out)
	}
	if strings.Count(out, "02:30") != 1 {
		t.Errorf("the streamed answer is printed twice:\n%s", out)
	}
	if n := len(srv.Chats()); n > 4 {
		t.Errorf("%d model calls for one single-pass question, want at most 4", n)
	}
	for _, req := range srv.Chats() {
		if len(req.Format) > 0 && req.Format[0] != '{' {
			t.Errorf("structured decision's format is not a JSON Schema object: %s", req.Format)
		}
	}
}

func TestRunFallsBackWhenTheModelMisbehaves(t *testing.T) {
	for name, reply := range map[string]llmtest.Reply{
		"server error":   {Status: 500, Error: "model crashed"},
		"malformed json": {RawBody: "{not json"},
		"truncated":      {Text: "The nightly backup", Truncate: true},
	} {
		t.Run(name, func(t *testing.T) {
			c := newCLI(t)
			c.ok("ingest", sampleDir(t))
			srv := llmtest.NewOpenAI(t, func(llmtest.Request) llmtest.Reply { return reply })
			c.env["GRAPHRAG_LLM"] = "openai:" + srv.URL + "#qwen2.5-3b"
			out, errs, code := c.run("", "run", "--json", "When does the nightly backup run?")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var r server.QueryResponse
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			if !strings.Contains(r.Answer, "02:30") || r.AnsweredBy != "extractive" {
				t.Errorf("answer %q by %q, want the extractive fallback", r.Answer, r.AnsweredBy)
			}
			if len(r.Notes) == 0 {
				t.Error("no note says a fallback fired")
			}
		})
	}
}

// TestModelCallsPerRoute measures the language-model calls one question
// costs on each route, against a fake Ollama that answers well: the budget
// is three for a single-pass question.
func TestModelCallsPerRoute(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", sampleDir(t))
	srv := llmtest.NewOllama(t, fakeModel)
	c.env["GRAPHRAG_LLM"] = "ollama:qwen2.5:3b@" + srv.URL
	for _, q := range []string{
		"When does the nightly backup run?",
		"How much was invoice INV-2024-0117?",
		"What did we decide about the database migration?",
		"how many markdown files do I have",
		"What is 17 times 23?",
		"what's the weather in Paris tomorrow",
	} {
		before := len(srv.Chats())
		var r server.QueryResponse
		if err := json.Unmarshal([]byte(c.ok("run", "--json", q)), &r); err != nil {
			t.Fatal(err)
		}
		calls := len(srv.Chats()) - before
		t.Logf("%-10s %d model calls (usage says %d, loops %d)  %s", r.Route, calls, r.Usage.Calls, len(r.Trace.Decisions), q)
		if calls != r.Usage.Calls {
			t.Errorf("%q: the server saw %d calls, the run's usage says %d", q, calls, r.Usage.Calls)
		}
		if calls > 3 {
			t.Errorf("%q (route %s): %d model calls, budget 3", q, r.Route, calls)
		}
	}
}

// TestRunTraceShowsQueries: a planner that proposes other wordings of the
// question gets each searched as its own branch, and --trace names them.
func TestRunTraceShowsQueries(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", sampleDir(t))
	srv := llmtest.NewOllama(t, func(r llmtest.Request) llmtest.Reply {
		if schema := string(r.Format) + string(r.ResponseFormat); strings.Contains(schema, `"route"`) {
			return llmtest.Reply{Text: `{"route": "vector", "query": "what should I know about atlas", "queries": ["atlas home server", "hostname atlas"], "keywords": ["atlas"], "file_types": [], "source_hint": "", "time": "any"}`}
		}
		return fakeModel(r)
	})
	c.env["GRAPHRAG_LLM"] = "ollama:qwen2.5:3b@" + srv.URL
	// The router is unsure about this vague question, so the planner plans.
	out := c.ok("run", "--quiet", "--trace", "what should I know about atlas")
	if !strings.Contains(out, "route vector (llm)") {
		t.Fatalf("the planner did not plan (the test needs a question the router is unsure of):\n%s", out)
	}
	if want := `· queries: "what should I know about atlas" · "atlas home server" · "hostname atlas"`; !strings.Contains(out, want) {
		t.Errorf("trace lacks %q:\n%s", want, out)
	}
	if n := strings.Count(out, "retrieve/search"); n != 3 {
		t.Errorf("trace shows %d search branches, want one per query (3):\n%s", n, out)
	}
	var r server.QueryResponse
	if err := json.Unmarshal([]byte(c.ok("run", "--json", "what should I know about atlas")), &r); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.Plan.Queries) != "[atlas home server hostname atlas]" {
		t.Errorf("--json plan queries %q, want the planner's two wordings", r.Plan.Queries)
	}
}
