package evals

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

// golden compares got with testdata/golden/name, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./evals -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (rerun with -update if the change is intended)\n--- got:\n%s\n--- want:\n%s", name, got, want)
	}
}

// routingFixture is a small routing run with known decisions and latencies.
func routingFixture() *Report {
	rows := []RoutingRow{
		{ID: "r1", Query: "what's 2+2", Route: "direct", Strength: Hard},
		{ID: "r2", Query: "weather in Paris", Route: "web", Strength: Hard},
		{ID: "r3", Query: "how many pdfs do I have", Route: "filesystem", Strength: Hard},
		{ID: "r4", Query: "find files | sort by size", Route: "filesystem", Strength: Soft},
		{ID: "r5", Query: "invoice INV-7", Route: "hybrid", Strength: Hard},
		{ID: "r6", Query: "notes on the offsite", Route: "vector", Strength: Hard},
		{ID: "q1", Query: "who directed Alien?", Route: Local, Strength: Hard},
		{ID: "q2", Query: "is Paris in France?", Route: Local, Strength: Hard},
	}
	plan := func(r graphrag.Route, by string) graphrag.Plan {
		return graphrag.Plan{Route: r, By: by, Reason: "because " + by}
	}
	outs := []routed{
		{plan: plan("direct", "rules"), ms: 0.1},
		{plan: plan("web", "learned"), ms: 0.4},
		{plan: plan("filesystem", "rules"), ms: 0.2},
		{plan: plan("hybrid", "learned"), ms: 0.5},
		{plan: plan("vector", "learned"), ms: 0.6},
		{plan: plan("vector", "learned"), ms: 0.7},
		{plan: graphrag.Plan{Route: "hybrid", By: "llm", Usage: graphrag.Usage{Calls: 2, PromptTokens: 150, CompletionTokens: 10}}, ms: 1.5,
			notes: []string{"route: planner failed, kept the probe decision"}},
		{err: errors.New("store closed"), ms: 9},
	}
	return scoreRouting(rows, outs, 0)
}

// ragFixture is a small RAG run with known hits, answers and timings.
func ragFixture() *Report {
	hits := func(ids ...string) []graphrag.Hit {
		var hs []graphrag.Hit
		for _, id := range ids {
			hs = append(hs, graphrag.Hit{Chunk: graphrag.Chunk{DocID: id}})
		}
		return hs
	}
	qs := []Question{
		{QID: "q1", Question: "Who produced Alien?", Answers: []string{"Ronald Shusett"}, GoldPassages: []string{"Alien (film)", "Alien (soundtrack)"}, Type: "multi-hop"},
		{QID: "q2", Question: "Are both from the US?", Answers: []string{"yes"}, GoldPassages: []string{"Local H", "For Against"}, Type: "yes-no"},
		{QID: "q3", Question: "When was it built?", Answers: []string{"1889"}, GoldPassages: []string{"Eiffel Tower"}, Type: "single-hop"},
	}
	negs := []Negative{{QID: "n1", Question: "What were the astronauts wearing?"}, {QID: "n2", Question: "Who retired Abilene?"}}
	node := func(r, e, g float64) map[string][]float64 {
		return map[string][]float64{"route": {r}, "retrieve": {e}, "evaluate": {0.2}, "generate": {g}, "validate": {0.1}}
	}
	runs := []Run{
		{State: nodes.State{Plan: graphrag.Plan{Route: "hybrid"}, Hits: hits("x", "Alien (film)", "Alien (film)", "y", "Alien (soundtrack)"), SearchMode: "keyword",
			Answer: graphrag.Answer{Text: "Ronald Shusett [1]", Grounding: 0.9}, Short: "Ronald Shusett", Stop: "answered",
			Usage: map[string]graphrag.Usage{"generate": {Calls: 1, PromptTokens: 300, CompletionTokens: 20}}},
			NodeMS: node(1, 2, 3), TotalMS: 6.3},
		{State: nodes.State{Plan: graphrag.Plan{Route: "vector"}, Hits: hits("Local H"), SearchMode: "keyword", Answer: graphrag.Answer{Text: "Local H is a band from Illinois.", Grounding: 0.7}, Short: "no", Stop: "answered"},
			NodeMS: node(2, 3, 4), TotalMS: 9.3, BackEdges: []string{"evaluate->route"}},
		{State: nodes.State{Plan: graphrag.Plan{Route: "direct"}, Answer: graphrag.Answer{Text: "No relevant information found in your files.", Abstained: true}, Stop: "abstained", SearchMode: "keyword",
			SearchNote: "no embedder configured: keyword search only"},
			NodeMS: node(1, 1, 1), TotalMS: 3.3, BackEdges: []string{"evaluate->route", "evaluate->route"}},
		{State: nodes.State{Answer: graphrag.Answer{Abstained: true}, Stop: "abstained"}, NodeMS: node(1, 1, 1), TotalMS: 3.3},
		{Err: errors.New("boom"), NodeMS: map[string][]float64{"route": {5}}},
	}
	return ScoreRAG(qs, negs, runs, 10)
}

func ablationFixture() *Report {
	a, b := ragFixture(), ragFixture()
	a.Variant, b.Variant = "default", "no-corrective"
	b.Retrieval.Recall, b.Retrieval.MRR = 0.5, 0.25
	b.Rejection.AbstainRate = 1
	b.LatencyMS["total"] = Latency{N: 4, P50: 2, P95: 3, Mean: 2.5}
	c := Report{Variant: "store-bm25", Retrieval: &RetrievalScores{K: 10, N: 3, Recall: 0.4, BothGold: 0.2, MRR: 0.3, NDCG10: 0.25},
		LatencyMS: map[string]Latency{"search": {N: 3, P50: 0.5, P95: 0.9, Mean: 0.6}}, Notes: []string{"store search only"}}
	return combine([]Report{*a, *b, c})
}

func render(t *testing.T, r *Report) (table, js []byte) {
	t.Helper()
	var tb, jb bytes.Buffer
	if err := WriteTable(&tb, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&jb, r); err != nil {
		t.Fatal(err)
	}
	return tb.Bytes(), jb.Bytes()
}

func TestReportsGolden(t *testing.T) {
	fixtures := []struct {
		name string
		rep  *Report
	}{{"routing", routingFixture()}, {"rag", ragFixture()}, {"ablation", ablationFixture()}}
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			f.rep.Skipped = []RowError{{File: "d.jsonl", Line: 3, Reason: `missing "query"`}}
			table, js := render(t, f.rep)
			golden(t, f.name+".txt", table)
			golden(t, f.name+".json", js)
			for _, file := range Markdown(f.rep, f.name) {
				golden(t, file.Name, file.Data)
			}
			// Same input, same bytes.
			table2, js2 := render(t, f.rep)
			if !bytes.Equal(table, table2) || !bytes.Equal(js, js2) {
				t.Error("rendering the same report twice gave different output")
			}
		})
	}
}

func TestRoutingFixtureFigures(t *testing.T) {
	r := routingFixture().Routing
	// Fine rows r1..r6: r4 (filesystem→hybrid) and r5 (hybrid→vector)
	// wrong: 4/6. Hard fine rows r1,r2,r3,r5,r6: r5 wrong: 4/5. Coarse rows (8): r4 wrong, q2 error: 6/8.
	// Hard coarse (7, r4 is soft): q2 wrong: 6/7.
	tests := []struct {
		name      string
		got, want float64
	}{
		{"accuracy", float64(r.Accuracy), 4.0 / 6},
		{"hard accuracy", float64(r.Hard.Accuracy), 0.8},
		{"coarse accuracy", float64(r.CoarseAccuracy), 6.0 / 8},
		{"hard coarse accuracy", float64(r.Hard.CoarseAccuracy), 6.0 / 7},
		{"n", float64(r.N), 6},
		{"coarse n", float64(r.CoarseN), 8},
		{"fallbacks", float64(r.Fallbacks), 1},
		{"learned decisions", float64(r.Deciders["learned"]), 4},
		{"llm calls per query", float64(*routingFixture().LLMCallsPerQuery), 2.0 / 8},
		{"tokens per query", float64(*routingFixture().TokensPerQuery), 160.0 / 8},
		{"filesystem recall", float64(r.PerClass["filesystem"].Recall), 0.5},
		{"vector precision", float64(r.PerClass["vector"].Precision), 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !near(tt.got, tt.want) {
				t.Errorf("got %.4f, want %.4f", tt.got, tt.want)
			}
		})
	}
}

func TestRAGFixtureFigures(t *testing.T) {
	r := ragFixture()
	// q1: ranked [x, Alien (film), y, Alien (soundtrack)] → recall 1, both 1,
	// RR 1/2; q2: [Local H] → recall 1/2, RR 1; q3 abstained: 0.
	// Abstention: n1 yes, n2 error → 1/2; answerable abstained 1/3.
	tests := []struct {
		name      string
		got, want float64
	}{
		{"recall", float64(r.Retrieval.Recall), (1 + 0.5 + 0) / 3},
		{"both gold", float64(r.Retrieval.BothGold), 1.0 / 3},
		{"mrr", float64(r.Retrieval.MRR), (0.5 + 1 + 0) / 3},
		{"em", float64(r.Answers.EM), 0},
		{"contains", float64(r.Answers.Contains), 1.0 / 3},
		{"f1 multi-hop", float64(r.Answers.ByType["multi-hop"].F1), 0.8},
		// Short answers: q1 "Ronald Shusett" exact, q2 "no" wrong, q3 none.
		{"short em", float64(r.Answers.ShortEM), 1.0 / 3},
		{"short f1 multi-hop", float64(r.Answers.ByType["multi-hop"].ShortF1), 1},
		{"short em yes-no", float64(r.Answers.ByType["yes-no"].ShortEM), 0},
		{"shorts", float64(r.Answers.Shorts), 2},
		{"abstain", float64(r.Rejection.AbstainRate), 0.5},
		{"false abstain", float64(r.Rejection.FalseAbstainRate), 1.0 / 3},
		{"grounding", float64(*r.Grounding), 0.8},
		{"llm calls", float64(*r.LLMCallsPerQuery), 1.0 / 5},
		{"loops 2", float64(r.Loops.PerQuery["2"]), 1},
		{"back-edges", float64(r.Loops.Edges["evaluate->route"]), 3},
		{"errors", float64(r.Errors), 1},
		{"route p95", float64(r.LatencyMS["route"].P95), 5},
		{"misses", float64(len(r.Misses)), 2},
		{"q2 first gold", float64(r.Misses[0].FirstGold), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !near(tt.got, tt.want) {
				t.Errorf("got %.4f, want %.4f", tt.got, tt.want)
			}
		})
	}
}

func TestRAGFixtureMisses(t *testing.T) {
	m := ragFixture().Misses
	if len(m) != 2 || m[0].QID != "q2" || len(m[0].Missing) != 1 || m[0].Missing[0] != "For Against" ||
		m[1].QID != "q3" || !m[1].Abstained || m[1].FirstGold != 0 || m[1].Route != "direct" {
		t.Errorf("misses = %+v", m)
	}
}

func TestJSONKeysAndRoundTrip(t *testing.T) {
	for _, f := range []struct {
		name string
		rep  *Report
		keys []string
	}{
		{"routing", routingFixture(), []string{`"routing": {`, `"n": 6`, `"accuracy": 0.6667`, `"macro_f1":`, `"coarse_accuracy": 0.7500`, `"hard": {`, `"confusion": {`}},
		{"rag", ragFixture(), []string{`"retrieval": {`, `"recall@10": 0.5000`, `"both_gold@10": 0.3333`, `"mrr": 0.5000`, `"ndcg@10":`, `"answers": {`, `"em": 0.0000`, `"f1":`,
			`"rejection": {`, `"abstain_rate": 0.5000`, `"false_abstain_rate": 0.3333`, `"latency_ms": {`, `"llm_calls_per_query": 0.2000`}},
	} {
		t.Run(f.name, func(t *testing.T) {
			_, js := render(t, f.rep)
			for _, k := range f.keys {
				if !bytes.Contains(js, []byte(k)) {
					t.Errorf("JSON lacks %s", k)
				}
			}
			back, err := ReadJSON(bytes.NewReader(js))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range Compare(f.rep, back) {
				if d.Verdict() != "same" {
					t.Errorf("round trip changed %s: %v -> %v", d.Metric, d.Old, d.New)
				}
			}
		})
	}
}

func TestCompareGolden(t *testing.T) {
	old := ablationFixture()
	nw := ablationFixture()
	nw.Retrieval.MRR = 0.75
	nw.Rejection.FalseAbstainRate = 0.5
	nw.LatencyMS["total"] = Latency{N: 4, P50: 1, P95: 2}
	nw.Variants[1].Answers.Contains = 0.9
	nw.Variants = append(nw.Variants, Report{Variant: "bm25", Retrieval: &RetrievalScores{K: 10, MRR: 0.7}})
	ds := Compare(old, nw)
	var b bytes.Buffer
	if err := WriteCompare(&b, ds, true); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.txt", b.Bytes())
	verdicts := map[string]string{}
	for _, d := range ds {
		if d.Variant == "default" {
			verdicts[d.Metric] = d.Verdict()
		}
	}
	for metric, want := range map[string]string{"retrieval.mrr": "better", "rejection.false_abstain_rate": "worse", "latency_ms.total.p95": "better", "answers.em": "same"} {
		t.Run(metric, func(t *testing.T) {
			if verdicts[metric] != want {
				t.Errorf("verdict %q, want %q", verdicts[metric], want)
			}
		})
	}
}

func TestCheckGates(t *testing.T) {
	rep := ragFixture()
	tests := []struct {
		name  string
		gates []Gate
		fails []string
	}{
		{"pass", []Gate{Min("retrieval.recall@10", 0.5), Max("rejection.false_abstain_rate", 0.34)}, nil},
		{"min fails", []Gate{Min("retrieval.mrr", 0.9)}, []string{"retrieval.mrr = 0.5000, below the minimum 0.9000"}},
		{"max fails", []Gate{Max("rejection.false_abstain_rate", 0.1)}, []string{"above the maximum 0.1000"}},
		{"missing", []Gate{Min("routing.accuracy", 0.9)}, []string{"routing.accuracy: not measured"}},
		{"order kept", []Gate{Min("answers.f1", 0.99), Min("rejection.abstain_rate", 0.9)}, []string{"answers.f1", "rejection.abstain_rate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fails := Check(rep, tt.gates...)
			if len(fails) != len(tt.fails) {
				t.Fatalf("failures %v, want %d", fails, len(tt.fails))
			}
			for i, want := range tt.fails {
				if !strings.Contains(fails[i].String(), want) {
					t.Errorf("failure %q, want it to contain %q", fails[i], want)
				}
			}
		})
	}
}

func TestParseGate(t *testing.T) {
	tests := []struct {
		in   string
		want Gate
		err  bool
	}{
		{"retrieval.mrr>=0.9", Min("retrieval.mrr", 0.9), false},
		{" rejection.false_abstain_rate <= 0.1 ", Max("rejection.false_abstain_rate", 0.1), false},
		{"retrieval.mrr=0.9", Gate{}, true},
		{">=0.9", Gate{}, true},
		{"x>=abc", Gate{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			g, err := ParseGate(tt.in)
			if (err != nil) != tt.err || g != tt.want {
				t.Errorf("ParseGate = %v, %v; want %v (error %v)", g, err, tt.want, tt.err)
			}
		})
	}
}
