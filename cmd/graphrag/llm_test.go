package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/llm/llmtest"
	"github.com/graphrag/graphrag/server"
)

// fakeModel answers each kind of request graphrag makes the way a good small
// model would: a plan, chunk grades, a streamed answer with a citation, a
// verdict.
func fakeModel(r llmtest.Request) llmtest.Reply {
	schema := string(r.Format) + string(r.ResponseFormat)
	switch {
	case strings.Contains(schema, `"route"`):
		return llmtest.Reply{Text: `{"route": "vector", "query": "When does the nightly backup run?", "keywords": ["nightly", "backup"], "file_types": [], "source_hint": "", "time": "any"}`}
	case strings.Contains(schema, `"relevant"`):
		return llmtest.Reply{Text: `{"relevant": [1], "facts": [{"chunk": 1, "text": "The nightly backup job runs at 02:30 every day."}]}`}
	case strings.Contains(schema, `"grounded"`):
		return llmtest.Reply{Text: `{"grounded": true, "answers_question": true, "reason": "stated in the runbook"}`}
	}
	return llmtest.Reply{Chunks: []string{"The nightly ", "backup runs ", "at 02:30 ", "every day [1]."}}
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
	if !strings.Contains(out, "The nightly backup runs at 02:30 every day [1].") || !strings.Contains(out, "backup-runbook.md") {
		t.Errorf("streamed answer or its source missing:\n%s", out)
	}
	if strings.Count(out, "at 02:30 every day [1]") != 1 {
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
