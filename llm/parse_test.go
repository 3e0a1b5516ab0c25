package llm_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/llm"
)

func TestParseRoutePlan(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		route graphrag.Route
		kw    []string
		types []string
		time  graphrag.TimeWindow
		src   string
	}{
		{"plain", `{"route":"hybrid","keywords":["invoice","INV-1"],"file_types":["pdf"],"source_hint":"acme","time":"this_week"}`,
			graphrag.RouteHybrid, []string{"invoice", "INV-1"}, []string{"pdf"}, graphrag.TimeThisWeek, "acme"},
		{"fenced", "Here is the plan:\n```json\n{\"route\": \"web\", \"keywords\": [\"weather\"]}\n```\nLet me know!",
			graphrag.RouteWeb, []string{"weather"}, nil, "", ""},
		{"fence without language", "```\n{\"route\": \"direct\"}\n```", graphrag.RouteDirect, nil, nil, "", ""},
		{"leading and trailing prose", `Sure! {"route": "vector", "keywords": ["refund policy"]} I chose vector because...`,
			graphrag.RouteVector, []string{"refund policy"}, nil, "", ""},
		{"single quotes and trailing commas", `{'route': 'filesystem', 'keywords': ['pdf', 'files',], 'file_types': ['.PDF',],}`,
			graphrag.RouteFilesystem, []string{"pdf", "files"}, []string{"pdf"}, "", ""},
		{"python literals", `{'route': 'vector', 'source_hint': None, 'keywords': []}`, graphrag.RouteVector, nil, nil, "", ""},
		{"unquoted keys and values", `{route: web, keywords: [news]}`, graphrag.RouteWeb, []string{"news"}, nil, "", ""},
		{"tool_call tag", `<tool_call>{"name": "route", "arguments": {"route": "hybrid", "keywords": ["ACME-42"]}}</tool_call>`,
			graphrag.RouteHybrid, []string{"ACME-42"}, nil, "", ""},
		{"tool_call arguments as string", `<tool_call>{"name": "plan", "arguments": "{\"route\": \"web\"}"}</tool_call>`,
			graphrag.RouteWeb, nil, nil, "", ""},
		{"TOOL_CALL bracket", `[TOOL_CALL] {"route": "filesystem", "time": "today"} [/TOOL_CALL]`,
			graphrag.RouteFilesystem, nil, nil, graphrag.TimeToday, ""},
		{"TOOL_CALLS list", `[TOOL_CALLS] [{"name": "route", "arguments": {"route": "direct"}}]`, graphrag.RouteDirect, nil, nil, "", ""},
		{"function call positional", `route("web")`, graphrag.RouteWeb, nil, nil, "", ""},
		{"function call kwargs", `route(route="hybrid", keywords=["INV-7", "total"], time='this_month')`,
			graphrag.RouteHybrid, []string{"INV-7", "total"}, nil, graphrag.TimeThisMonth, ""},
		{"function call object", `plan({"route": "vector"})`, graphrag.RouteVector, nil, nil, "", ""},
		{"python tag", `<|python_tag|>route(route="web")`, graphrag.RouteWeb, nil, nil, "", ""},
		{"think block", "<think>The user asks about news, hmm {\"route\":\"vector\"}</think>\n{\"route\":\"web\"}", graphrag.RouteWeb, nil, nil, "", ""},
		{"bare word", "web", graphrag.RouteWeb, nil, nil, "", ""},
		{"bracketed word", "[filesystem]", graphrag.RouteFilesystem, nil, nil, "", ""},
		{"key value line", "Route: hybrid.", graphrag.RouteHybrid, nil, nil, "", ""},
		{"xml tag", "<route>direct</route>", graphrag.RouteDirect, nil, nil, "", ""},
		{"alias from the original design", `{"tool": "semantic_search", "file_filter": "pdf", "time_filter": null}`,
			graphrag.RouteVector, nil, []string{"pdf"}, "", ""},
		{"uppercase route", `{"route": "WEB"}`, graphrag.RouteWeb, nil, nil, "", ""},
		{"keywords as string", `{"route": "vector", "keywords": "tax, receipts, 2023"}`, graphrag.RouteVector, []string{"tax", "receipts", "2023"}, nil, "", ""},
		{"nested under a key", `{"plan": {"route": "direct"}}`, graphrag.RouteDirect, nil, nil, "", ""},
		{"truncated output", `{"route": "hybrid", "keywords": ["invoice", "ACM`, graphrag.RouteHybrid, []string{"invoice", "ACM"}, nil, "", ""},
		{"regex last resort", `I think "route" = "web" is best, keywords are unclear`, graphrag.RouteWeb, nil, nil, "", ""},
		{"time words", `{"route":"filesystem","time":"this week"}`, graphrag.RouteFilesystem, nil, nil, graphrag.TimeThisWeek, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := llm.ParseRoutePlan(tt.in)
			if err != nil {
				t.Fatalf("ParseRoutePlan: %v", err)
			}
			if p.Route != tt.route {
				t.Errorf("route = %q, want %q", p.Route, tt.route)
			}
			if !slices.Equal(p.Keywords, tt.kw) {
				t.Errorf("keywords = %q, want %q", p.Keywords, tt.kw)
			}
			if !slices.Equal(p.FileTypes, tt.types) {
				t.Errorf("file types = %q, want %q", p.FileTypes, tt.types)
			}
			if p.Time != tt.time {
				t.Errorf("time = %q, want %q", p.Time, tt.time)
			}
			if p.SourceHint != tt.src {
				t.Errorf("source hint = %q, want %q", p.SourceHint, tt.src)
			}
		})
	}
}

func TestParseRoutePlanRejects(t *testing.T) {
	tests := []struct{ name, in string }{
		{"wrong enum", `{"route": "database"}`},
		{"wrong enum in a function call", `route("google")`},
		{"wrong time", `{"route": "vector", "time": "last_year"}`},
		{"empty", ``},
		{"prose only", `I am not sure what you mean.`},
		{"malformed beyond repair", `{"route" "web" :: }}`},
		{"json without the key", `{"keywords": ["a"]}`},
		{"think only", `<think>web or vector?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := llm.ParseRoutePlan(tt.in)
			if !errors.Is(err, llm.ErrBadOutput) {
				t.Fatalf("ParseRoutePlan(%q) = %+v, %v; want ErrBadOutput", tt.in, p, err)
			}
		})
	}
}

func TestParseChunkGrades(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		n     int
		ids   []int
		facts []llm.GradedFact
	}{
		{"plain", `{"relevant":[2,1],"facts":[{"chunk":2,"text":"Total is 40 EUR"},{"chunk":1,"text":"Due 3 May"}]}`, 3,
			[]int{2, 1}, []llm.GradedFact{{2, "Total is 40 EUR"}, {1, "Due 3 May"}}},
		{"none relevant", `{"relevant": [], "facts": []}`, 3, nil, nil},
		{"ids as strings", `{"relevant": ["[3]", "chunk 1"], "facts": []}`, 3, []int{3, 1}, nil},
		{"out of range dropped", `{"relevant": [1, 9], "facts": [{"chunk": 9, "text": "x"}]}`, 3, []int{1}, nil},
		{"fact makes its chunk relevant", `{"relevant": [1], "facts": [{"chunk": 2, "text": "B"}]}`, 2, []int{1, 2}, []llm.GradedFact{{2, "B"}}},
		{"facts as tagged strings", `{"relevant": [1, 2], "facts": ["[1] alpha", "2: beta"]}`, 2, []int{1, 2}, []llm.GradedFact{{1, "alpha"}, {2, "beta"}}},
		{"facts map", `{"relevant": [2], "facts": {"2": ["gamma"]}}`, 2, []int{2}, []llm.GradedFact{{2, "gamma"}}},
		{"unattributed fact with one relevant chunk", `{"relevant": [2], "facts": ["delta"]}`, 2, []int{2}, []llm.GradedFact{{2, "delta"}}},
		{"per-chunk objects", `{"relevant": [{"chunk": 1, "relevant": false}, {"id": 2, "relevant": true, "facts": ["eps"]}]}`, 2,
			[]int{2}, []llm.GradedFact{{2, "eps"}}},
		{"alias keys", `{"relevant_ids": [1], "extracted_facts": [{"id": 1, "fact": "zeta"}]}`, 1, []int{1}, []llm.GradedFact{{1, "zeta"}}},
		{"fenced with prose", "The relevant ones:\n```json\n{\"relevant\": [1]}\n```", 2, []int{1}, nil},
		{"regex last resort", `relevant: [2, 3] and facts I could not format`, 3, []int{2, 3}, nil},
		{"duplicates", `{"relevant": [1, 1, 2]}`, 2, []int{1, 2}, nil},
		{"cut at the token limit", `{"relevant":[1,2],"facts":[{"chunk":1,"text":"alpha"},{"chunk":2,"text":"be`, 2,
			[]int{1, 2}, []llm.GradedFact{{1, "alpha"}, {2, "be"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := llm.ParseChunkGrades(tt.in, tt.n)
			if err != nil {
				t.Fatalf("ParseChunkGrades: %v", err)
			}
			if !slices.Equal(g.Relevant, tt.ids) {
				t.Errorf("relevant = %v, want %v", g.Relevant, tt.ids)
			}
			if !slices.Equal(g.Facts, tt.facts) {
				t.Errorf("facts = %+v, want %+v", g.Facts, tt.facts)
			}
		})
	}
}

func TestParseChunkGradesRejects(t *testing.T) {
	for _, tt := range []struct{ name, in string }{
		{"all out of range", `{"relevant": [7, 8]}`},
		{"no key", `{"answer": "yes"}`},
		{"prose", `Chunk two looks useful.`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if g, err := llm.ParseChunkGrades(tt.in, 3); !errors.Is(err, llm.ErrBadOutput) {
				t.Fatalf("got %+v, %v; want ErrBadOutput", g, err)
			}
		})
	}
}

func TestParseVerdict(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want graphrag.Verdict
	}{
		{"ok", `{"grounded": true, "answers_question": true, "reason": "all stated"}`, graphrag.VerdictOK},
		{"unsupported", `{"grounded": false, "answers_question": true}`, graphrag.VerdictUnsupported},
		{"off question", `{"grounded": true, "answers_question": false}`, graphrag.VerdictOffQuestion},
		{"yes no strings", `{"grounded": "yes", "answers_question": "no"}`, graphrag.VerdictOffQuestion},
		{"verdict word", `{"verdict": "unsupported"}`, graphrag.VerdictUnsupported},
		{"design doc words", `valid`, graphrag.VerdictOK},
		{"bare invalid", `invalid`, graphrag.VerdictUnsupported},
		{"only grounded", `{'grounded': True}`, graphrag.VerdictOK},
		{"regex", `The answer is grounded: false, it invents a date.`, graphrag.VerdictUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := llm.ParseVerdict(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.GraphVerdict(); got != tt.want {
				t.Errorf("verdict = %q, want %q", got, tt.want)
			}
		})
	}
	for _, in := range []string{`{"verdict": "maybe"}`, `{"grounded": "perhaps"}`, `hmm, hard to say`} {
		if v, err := llm.ParseVerdict(in); !errors.Is(err, llm.ErrBadOutput) {
			t.Errorf("ParseVerdict(%q) = %+v, %v; want ErrBadOutput", in, v, err)
		}
	}
}

func TestParseRewrite(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"json", `{"query": "ACME invoice total 2024"}`, "ACME invoice total 2024"},
		{"plain line", `ACME invoice total 2024`, "ACME invoice total 2024"},
		{"prefixed line", `Query: "ACME invoice total"`, "ACME invoice total"},
		{"alias", `{"rewritten_query": "tax receipts"}`, "tax receipts"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := llm.ParseRewrite(tt.in)
			if err != nil || got != tt.want {
				t.Fatalf("ParseRewrite = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if q, err := llm.ParseRewrite(`{"query": ""}`); !errors.Is(err, llm.ErrBadOutput) {
		t.Errorf("empty rewrite = %q, %v; want ErrBadOutput", q, err)
	}
}

// FuzzParse checks that no output, however broken, panics a parser, and
// that whatever they accept is valid.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"route":"web"}`, "```json\n{\"relevant\":[1]}\n```", `route("web")`, `{'a': [1,}`,
		`<tool_call>{"name":"x","arguments":"{"}</tool_call>`, `[TOOL_CALL]`, `{"grounded": "yes"}`, `{{{{[[[`, `"\`,
		`f(a=(b, c), d=[1, {"e": ')'}])`, `<think>`, `{"relevant": [{"chunk": "1e400"}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if p, err := llm.ParseRoutePlan(s); err == nil && !p.Route.Valid() {
			t.Errorf("accepted invalid route %q from %q", p.Route, s)
		}
		if g, err := llm.ParseChunkGrades(s, 4); err == nil {
			for _, id := range g.Relevant {
				if id < 1 || id > 4 {
					t.Errorf("accepted chunk %d from %q", id, s)
				}
			}
		}
		_, _ = llm.ParseVerdict(s)
		_, _ = llm.ParseRewrite(s)
	})
}
