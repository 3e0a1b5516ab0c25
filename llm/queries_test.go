package llm_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
)

// TestParseRoutePlanQueries: a plan's other wordings of the question are
// read leniently (a missing field is no error, old models keep working)
// and kept only when they are short, distinct queries.
func TestParseRoutePlanQueries(t *testing.T) {
	long := strings.Repeat("a very long explanation of what to search ", 10)
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"missing", `{"route":"vector","query":"refund policy"}`, nil},
		{"empty list", `{"route":"vector","query":"refund policy","queries":[]}`, nil},
		{"null", `{"route":"vector","query":"refund policy","queries":null}`, nil},
		{"list", `{"route":"vector","query":"refund policy","queries":["money back rules","returns and refunds"]}`,
			[]string{"money back rules", "returns and refunds"}},
		{"the query itself and repeats are dropped", `{"route":"vector","query":"Refund policy?","queries":["refund  POLICY","returns","Returns.","returns "]}`,
			[]string{"returns"}},
		{"more than three are cut", `{"route":"vector","query":"q","queries":["a","b","c","d","e"]}`, []string{"a", "b", "c"}},
		{"garbage items are dropped", `{"route":"vector","query":"q","queries":[1, null, {"text":"x"}, ["y"], true, "", "  ", "null", "kept"]}`,
			[]string{"kept"}},
		{"oversized items are dropped", `{"route":"vector","query":"q","queries":["` + long + `","short one"]}`, []string{"short one"}},
		{"a lone string is one wording", `{"route":"vector","query":"q","queries":"refunds, returns and exchanges"}`,
			[]string{"refunds, returns and exchanges"}},
		{"a number is no wording", `{"route":"vector","query":"q","queries":42}`, nil},
		{"an alias", `{"route":"vector","query":"q","alternative_queries":["r"]}`, []string{"r"}},
		{"single quotes", `{'route': 'vector', 'query': 'q', 'queries': ['r', 's',],}`, []string{"r", "s"}},
		{"truncated output", `{"route": "hybrid", "query": "q", "queries": ["invoice total", "amount du`, []string{"invoice total", "amount du"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := llm.ParseRoutePlan(tt.in)
			if err != nil {
				t.Fatalf("ParseRoutePlan: %v", err)
			}
			if !slices.Equal(p.Queries, tt.want) {
				t.Errorf("queries = %q, want %q", p.Queries, tt.want)
			}
		})
	}
}

// TestRoutePlanSchemaCapsQueries: the schema sent to the servers caps the
// wordings at what the parser keeps.
func TestRoutePlanSchemaCapsQueries(t *testing.T) {
	var s struct {
		Properties map[string]struct {
			Type     string `json:"type"`
			MaxItems int    `json:"maxItems"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(llm.Schemas()["route_plan"], &s); err != nil {
		t.Fatal(err)
	}
	q, ok := s.Properties["queries"]
	if !ok || q.Type != "array" || q.MaxItems != llm.MaxAlternatives {
		t.Errorf("queries property %+v (present %v), want an array of at most %d", q, ok, llm.MaxAlternatives)
	}
	if !slices.Contains(s.Required, "queries") {
		t.Errorf("required %v lacks queries (strict structured output needs every property required)", s.Required)
	}
}

// TestPlannerQueries runs the planner on both protocols: the wordings the
// model returns reach the plan, cleaned, in the same single call, and the
// prompt asks for them.
func TestPlannerQueries(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			srv := p.start(t, llmtest.Text(`{"route":"vector","query":"how do I get my money back","queries":["refund policy","How do I get my money back?","return an item for a refund","money back guarantee","store credit"],"keywords":["refund"],"file_types":[],"source_hint":"","time":"any"}`))
			plan, err := newModels(t, srv).Planner().Plan(context.Background(), "how do I get my money back", nil)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"refund policy", "return an item for a refund", "money back guarantee"}
			if !slices.Equal(plan.Queries, want) {
				t.Errorf("queries = %q, want %q", plan.Queries, want)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want the one plan call", len(reqs))
			}
			if !strings.Contains(reqs[0].Prompt(), `"queries"`) {
				t.Errorf("the prompt does not ask for other wordings:\n%s", reqs[0].Prompt())
			}
			props, _ := schemaSent(t, reqs[0])["properties"].(map[string]any)
			if _, ok := props["queries"]; !ok {
				t.Errorf("the schema sent has no queries property: %v", props)
			}
		})
	}
}

// TestPlannerDropsTheKeptQuery: with no history the user's words are the
// query; a wording equal to them is not searched twice.
func TestPlannerDropsTheKeptQuery(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Text(`{"route":"hybrid","query":"invoice total","queries":["Total of INV-7","INV-7 amount"]}`))
	plan, err := newModels(t, srv).Planner().Plan(context.Background(), "total of INV-7?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Query != "total of INV-7?" || !slices.Equal(plan.Queries, []string{"INV-7 amount"}) {
		t.Errorf("query %q, queries %q; want the user's words and the one other wording", plan.Query, plan.Queries)
	}
}
