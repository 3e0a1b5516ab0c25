package nodes

import (
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

func TestAfterEvaluate(t *testing.T) {
	tests := []struct {
		name   string
		s      State
		to     string
		reason string
	}{
		{"good retrieval generates", State{Retrieval: RetrievalGood, Measured: "evidence 0.9"}, NodeGenerate, "good: evidence 0.9"},
		{"a refined query waits: route", State{Retrieval: RetrievalPoor, Refined: "ospreys nest lakes", Budget: Budget{Retrieve: 1}}, NodeRoute, "refine the query (1 retries left)"},
		{"empty, nothing to refine: abstain", State{Retrieval: RetrievalEmpty}, NodeGenerate, "nothing to refine from: abstain"},
		{"empty, budget spent: abstain", State{Retrieval: RetrievalEmpty, Loops: Budget{Retrieve: 2}}, NodeGenerate, "retrieve budget spent: abstain"},
		{"poor, budget spent: answer from the best hits", State{Retrieval: RetrievalPoor, Loops: Budget{Retrieve: 2}}, NodeGenerate, "retrieve budget spent: answer from the best hits"},
		{"poor, no refinement: answer from the best hits", State{Retrieval: RetrievalPoor, Budget: Budget{Retrieve: 2}}, NodeGenerate, "no refinement possible"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := afterEvaluate(tt.s)
			if d.To != tt.to || !contains(d.Reason, tt.reason) {
				t.Errorf("afterEvaluate = %s (%q), want %s (%q)", d.To, d.Reason, tt.to, tt.reason)
			}
		})
	}
}

func TestAfterValidate(t *testing.T) {
	answered := graphrag.Answer{Text: "Tori Amos [1]", By: "llm"}
	tests := []struct {
		name   string
		s      State
		to     string
		reason string
	}{
		{"ok ends", State{Answer: answered, Verdict: graphrag.VerdictOK, Check: Check{Support: 1, Fits: true, Kind: kindName}}, graph.END, "ok: support 1.00"},
		{"abstention ends", State{Answer: graphrag.Answer{Abstained: true}, Verdict: graphrag.VerdictOK}, graph.END, "abstained"},
		{"unsupported regenerates", State{Answer: answered, Verdict: graphrag.VerdictUnsupported, Check: Check{Missing: []string{"Kate"}}, Budget: Budget{Generate: 1}}, NodeGenerate, "not in the cited text: Kate"},
		{"no answer from the model to a direct question: route to search the files", State{Plan: graphrag.Plan{Route: graphrag.RouteDirect}, Answer: graphrag.Answer{Abstained: true}, Verdict: graphrag.VerdictOffQuestion, Refined: "q", Check: Check{Fallback: "the model did not know the answer"}}, NodeRoute, ReasonSearchTheFiles},
		{"off question with a refined query: route", State{Answer: answered, Verdict: graphrag.VerdictOffQuestion, Refined: "q more", Judged: "not a number"}, NodeRoute, "judge: not a number"},
		{"off question, budget spent: end", State{Answer: answered, Verdict: graphrag.VerdictOffQuestion, Check: Check{Fallback: "route budget spent"}}, graph.END, "route budget spent"},
		{"fell back to the passages: end", State{Answer: graphrag.Answer{Text: "x [1]", By: "extractive"}, Verdict: graphrag.VerdictOK, Check: Check{Missing: []string{"Kate"}, Fallback: "answered extractively"}}, graph.END, "answered extractively"},
		{"a failed direct answer with a search waiting: route", State{Answer: graphrag.Answer{Text: msgModelFailed, Abstained: true, By: "direct"}, Verdict: graphrag.VerdictOffQuestion, Refined: "q", Plan: graphrag.Plan{Route: graphrag.RouteDirect}, Check: Check{Fallback: "the model gave no usable answer: search the files"}}, NodeRoute, "no usable answer"},
		{"direct answer: nothing to check", State{Answer: answered, Verdict: graphrag.VerdictOK, Plan: graphrag.Plan{Route: graphrag.RouteDirect}}, graph.END, "nothing to check"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := afterValidate(tt.s)
			if d.To != tt.to || !contains(d.Reason, tt.reason) {
				t.Errorf("afterValidate = %s (%q), want %s (%q)", d.To, d.Reason, tt.to, tt.reason)
			}
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
