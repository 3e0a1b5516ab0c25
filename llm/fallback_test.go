package llm_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
)

// evalData finds shared/evaldata beside the repository root by walking up.
func evalData(t *testing.T, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", "evaldata", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skipf("shared/evaldata/%s not found above %s: clone the eval data beside the repository", name, dir)
		}
		dir = parent
	}
}

type routingRow struct {
	Query string `json:"query"`
	Route string `json:"route"`
}

func loadRouting(t *testing.T) []routingRow {
	f, err := os.Open(evalData(t, "routing.dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []routingRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r routingRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

// behaviours is the scripted mix of a small model answering badly. Each
// row's reply is built from the gold route so that a parsed answer can be
// checked against it. recoverable says whether the parser should read it.
var behaviours = []struct {
	name        string
	recoverable bool
	reply       func(route string) llmtest.Reply
}{
	{"clean JSON", true, func(r string) llmtest.Reply {
		return llmtest.Reply{Text: fmt.Sprintf(`{"route":%q,"query":"","keywords":["k"],"file_types":[],"source_hint":"","time":"any"}`, r)}
	}},
	{"fenced JSON with prose", true, func(r string) llmtest.Reply {
		return llmtest.Reply{Text: fmt.Sprintf("Sure! Here is the plan:\n```json\n{\"route\": %q}\n```\nHope this helps.", r)}
	}},
	{"single quotes, trailing comma", true, func(r string) llmtest.Reply {
		return llmtest.Reply{Text: fmt.Sprintf(`{'route': '%s', 'keywords': ['k',],}`, r)}
	}},
	{"tool-call wrapper", true, func(r string) llmtest.Reply {
		return llmtest.Reply{Text: fmt.Sprintf(`<tool_call>{"name": "route", "arguments": {"route": %q}}</tool_call>`, r)}
	}},
	{"function call", true, func(r string) llmtest.Reply { return llmtest.Reply{Text: fmt.Sprintf(`route(%q)`, r)} }},
	{"malformed, no route", false, func(string) llmtest.Reply { return llmtest.Reply{Text: `{"keywords": ["k" "x"}} oops`} }},
	{"wrong enum", false, func(string) llmtest.Reply { return llmtest.Reply{Text: `{"route": "semantic_database"}`} }},
	{"HTTP 500", false, func(string) llmtest.Reply {
		return llmtest.Reply{Status: 500, Error: "llama runner process has terminated"}
	}},
	{"timeout", false, func(string) llmtest.Reply { return llmtest.Reply{Hang: true} }},
	{"truncated stream", false, func(r string) llmtest.Reply {
		return llmtest.Reply{Chunks: []string{`{"rou`}, Truncate: true}
	}},
}

// TestPlannerFallbackReport runs the planner over the dev routing set
// against a fake model scripted to answer badly, and reports how each
// behaviour ends: parsed (and right), or an error whose Reason is what the
// caller's deterministic fallback records.
func TestPlannerFallbackReport(t *testing.T) {
	rows := loadRouting(t)
	gold := map[string]string{}
	for _, r := range rows {
		gold[r.Query] = r.Route
	}
	which := map[string]int{}
	for i, r := range rows {
		which[r.Query] = i % len(behaviours)
	}
	queryOf := func(prompt string) string {
		_, rest, _ := strings.Cut(prompt, "Question: ")
		q, _, _ := strings.Cut(rest, "\n")
		return q
	}
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			srv := p.start(t, func(req llmtest.Request) llmtest.Reply {
				q := queryOf(req.Prompt())
				return behaviours[which[q]].reply(gold[q])
			})
			// The timeout is generous for the fake's instant answers even on a
			// loaded machine; queries run eight at a time so the hangs overlap.
			m := newModels(t, srv, func(c *llm.Config) { c.Timeout = 400 * time.Millisecond })
			type tally struct {
				n, parsed, right int
				reasons          map[string]int
			}
			tallies := make([]tally, len(behaviours))
			calls, requests := 0, 0
			var mu sync.Mutex
			sem := make(chan struct{}, 8)
			var wg sync.WaitGroup
			for _, r := range rows {
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer func() { <-sem; wg.Done() }()
					plan, err := m.Planner().Plan(context.Background(), r.Query, nil)
					mu.Lock()
					defer mu.Unlock()
					tl := &tallies[which[r.Query]]
					if tl.reasons == nil {
						tl.reasons = map[string]int{}
					}
					tl.n++
					if err != nil {
						tl.reasons[llm.Reason(err)]++
						calls += llm.UsageOf(err).Calls
						return
					}
					calls += plan.Usage.Calls
					tl.parsed++
					if plan.Route == graphrag.Route(r.Route) {
						tl.right++
					}
				}()
			}
			wg.Wait()
			requests = len(srv.Chats())
			total, fallbacks := 0, 0
			var b strings.Builder
			fmt.Fprintf(&b, "planner on %s (%d queries), %s fake model answering badly:\n", "routing.dev.jsonl", len(rows), p.name)
			fmt.Fprintf(&b, "  %-30s %4s %7s %6s  %s\n", "behaviour", "n", "parsed", "right", "fallback (reason)")
			for i, bh := range behaviours {
				tl := tallies[i]
				total += tl.n
				var rs []string
				for k, v := range tl.reasons {
					rs = append(rs, fmt.Sprintf("%d %s", v, k))
					fallbacks += v
				}
				sort.Strings(rs)
				fmt.Fprintf(&b, "  %-30s %4d %7d %6d  %s\n", bh.name, tl.n, tl.parsed, tl.right, strings.Join(rs, ", "))
				if bh.name != "clean JSON" && strictRoute(bh.reply("web")) {
					t.Errorf("%s: plain json.Unmarshal reads it; it does not exercise the tolerant parser", bh.name)
				}
				if bh.recoverable && (tl.parsed != tl.n || tl.right != tl.n) {
					t.Errorf("%s: parsed %d, right %d of %d; the tolerant parser should read all", bh.name, tl.parsed, tl.right, tl.n)
				}
				if !bh.recoverable && tl.parsed != 0 {
					t.Errorf("%s: %d accepted; every one should fall back", bh.name, tl.parsed)
				}
			}
			fmt.Fprintf(&b, "  total %d: %d parsed, %d fell back; %d planner calls counted, %d HTTP requests (retries of 5xx included)\n",
				total, total-fallbacks, fallbacks, calls, requests)
			fmt.Fprintf(&b, "  strict json.Unmarshal would have read only the %d clean answers; the tolerant parser read %d\n",
				tallies[0].n, total-fallbacks)
			t.Log("\n" + b.String())
			if calls != total {
				t.Errorf("counted %d calls for %d queries: failed calls must be counted too", calls, total)
			}
		})
	}
}

// strictRoute reports whether plain json.Unmarshal reads a valid route.
func strictRoute(r llmtest.Reply) bool {
	var v struct{ Route graphrag.Route }
	return json.Unmarshal([]byte(r.Text), &v) == nil && v.Route.Valid()
}

// TestCallsPerComponent measures what each component costs in calls and
// tokens on the fake server. A single pass spends at most: the planner
// (only when the router is unsure), the grader (one batched call whatever
// the number of hits), the writer; the judge only when the overlap check
// is ambiguous. The nodes package wires that policy.
func TestCallsPerComponent(t *testing.T) {
	srv := llmtest.NewOllama(t, func(r llmtest.Request) llmtest.Reply {
		p := r.Prompt()
		switch {
		case strings.Contains(p, `Choose "route"`):
			return llmtest.Reply{Text: `{"route":"vector","keywords":["k"]}`}
		case strings.Contains(p, "Which excerpts help"):
			return llmtest.Reply{Text: `{"relevant":[1,2],"facts":[{"chunk":1,"text":"f1"}]}`}
		case strings.Contains(p, "Is every claim"):
			return llmtest.Reply{Text: `{"grounded":true,"answers_question":true}`}
		case strings.Contains(p, "better search query"):
			return llmtest.Reply{Text: `{"query":"other words"}`}
		}
		return llmtest.Reply{Text: "An answer [1]."}
	})
	m := newModels(t, srv)
	ctx := context.Background()
	hits := make([]graphrag.Hit, 8)
	for i := range hits {
		hits[i] = hit(fmt.Sprintf("doc%d.md", i), strings.Repeat(fmt.Sprintf("chunk %d text ", i), 40))
	}
	type row struct {
		name  string
		usage graphrag.Usage
	}
	var rows []row
	before := 0
	measure := func(name string, u graphrag.Usage, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := len(srv.Chats()) - before
		before = len(srv.Chats())
		if got != u.Calls {
			t.Errorf("%s: usage says %d calls, server saw %d", name, u.Calls, got)
		}
		rows = append(rows, row{name, u})
	}
	plan, err := m.Planner().Plan(ctx, "q", nil)
	measure("planner", plan.Usage, err)
	g, err := m.Grader().Grade(ctx, "q", hits)
	measure("grader (8 hits, one call)", g.Usage, err)
	ans, err := m.Writer().Write(ctx, graphrag.WriteRequest{Query: "q", Hits: hits[:2], Facts: g.Facts}, func(string) {})
	measure("writer", ans.Usage, err)
	j, err := m.Judge().Judge(ctx, "q", ans, hits[:2])
	measure("judge", j.Usage, err)
	_, u, err := m.Rewriter().RewriteWithUsage(ctx, "q", hits)
	measure("rewriter", u, err)
	var b strings.Builder
	b.WriteString("LLM calls per component (fake Ollama, 8 hits of ~500 chars):\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-28s calls %d  prompt tokens %4d  completion tokens %3d\n", r.name, r.usage.Calls, r.usage.PromptTokens, r.usage.CompletionTokens)
	}
	b.WriteString("single pass by route (planner only when unsure, judge only when ambiguous):\n")
	b.WriteString("  vector/hybrid/web: grader 1 + writer 1 = 2; +planner = 3\n")
	b.WriteString("  direct: writer 1; +planner = 2      filesystem: tools answer, 0; +planner = 1\n")
	t.Log("\n" + b.String())
}
