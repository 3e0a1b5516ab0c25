package evals

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
	"github.com/graphrag/graphrag/retrievers/pgvector"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// Both stores can be scored: the runners take the Store interface.
var (
	_ Store = (*sqlite.Store)(nil)
	_ Store = (*pgvector.Store)(nil)
)

// keywordRouter routes by a word in the query; it counts its calls.
type keywordRouter struct {
	probe int
	mu    sync.Mutex
	calls int
}

func (k *keywordRouter) Route(ctx context.Context, q string) (graphrag.Plan, []string, error) {
	k.mu.Lock()
	k.calls++
	k.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return graphrag.Plan{}, nil, err
	}
	switch {
	case strings.Contains(q, "weather"):
		return graphrag.Plan{Route: graphrag.RouteWeb, By: "rules"}, nil, nil
	case strings.Contains(q, "files") && k.probe > 0:
		return graphrag.Plan{Route: graphrag.RouteFilesystem, By: "learned"}, nil, nil
	case strings.Contains(q, "boom"):
		return graphrag.Plan{}, nil, errors.New("router exploded")
	}
	return graphrag.Plan{Route: graphrag.RouteVector, By: "learned"}, nil, nil
}

func fakeRows() []RoutingRow {
	return []RoutingRow{
		{ID: "1", Query: "weather today", Route: "web", Strength: Hard},
		{ID: "2", Query: "list my files", Route: "filesystem", Strength: Hard},
		{ID: "3", Query: "what did my notes say", Route: "vector", Strength: Hard},
		{ID: "4", Query: "boom", Route: "direct", Strength: Soft},
		{ID: "5", Query: "who wrote it", Route: Local, Strength: Hard},
	}
}

func TestRunRoutingVariantsAndProgress(t *testing.T) {
	var mu sync.Mutex
	var seen []Progress
	cfg := RoutingConfig{
		Rows: fakeRows(),
		NewRouter: func(_ nodes.Deps, o nodes.Options) (Router, error) {
			return &keywordRouter{probe: o.ProbeK}, nil
		},
		Variants:    RoutingAblation(false),
		Concurrency: 3,
		Progress: func(p Progress) {
			mu.Lock()
			seen = append(seen, p)
			mu.Unlock()
		},
	}
	rep, err := RunRouting(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range rep.Variants {
		names = append(names, v.Variant)
	}
	if strings.Join(names, ",") != "default,rules,learned,no-probe" {
		t.Fatalf("variants = %+v", rep.Variants)
	}
	// No store: the runner turns the probe off (ProbeK 0) in every variant,
	// so "list my files" goes to vector: fine rows 1..4, right: 1 and 3.
	tests := []struct {
		name      string
		got, want float64
	}{
		{"accuracy", float64(rep.Routing.Accuracy), 0.5},
		{"coarse accuracy", float64(rep.Routing.CoarseAccuracy), 3.0 / 5},
		{"hard accuracy", float64(rep.Routing.Hard.Accuracy), 2.0 / 3},
		{"errors", float64(rep.Errors), 1},
		{"progress calls", float64(len(seen)), 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !near(tt.got, tt.want) {
				t.Errorf("got %.4f, want %.4f", tt.got, tt.want)
			}
		})
	}
	t.Run("mistakes in dataset order", func(t *testing.T) {
		var ids []string
		for _, m := range rep.Routing.Mistakes {
			ids = append(ids, m.ID)
		}
		if strings.Join(ids, ",") != "2,4" {
			t.Errorf("mistakes %v, want 2,4", ids)
		}
	})
	t.Run("no-store note", func(t *testing.T) {
		if len(rep.Notes) == 0 || !strings.Contains(rep.Notes[0], "without its corpus probe") {
			t.Errorf("notes = %v", rep.Notes)
		}
	})
	t.Run("progress reaches total", func(t *testing.T) {
		last := map[string]int{}
		for _, p := range seen {
			if p.Total != 5 || p.Done < last[p.Phase] {
				t.Errorf("progress %+v after %d", p, last[p.Phase])
			}
			last[p.Phase] = p.Done
		}
		if last["default"] != 5 || last["rules"] != 5 || last["learned"] != 5 || last["no-probe"] != 5 {
			t.Errorf("final progress %v", last)
		}
	})
}

func TestRunRoutingCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := RunRouting(ctx, RoutingConfig{
		Rows:      fakeRows(),
		NewRouter: func(nodes.Deps, nodes.Options) (Router, error) { return &keywordRouter{}, nil },
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestRunConfigErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"routing without rows", func() error { _, err := RunRouting(ctx, RoutingConfig{}); return err }, "no rows"},
		{"routing corpus without opener", func() error {
			_, err := RunRouting(ctx, RoutingConfig{Rows: fakeRows(), Corpus: []string{"bundled:corpus.extra.jsonl"}})
			return err
		}, "no way to open a store"},
		{"rag without questions", func() error { _, err := RunRAG(ctx, RAGConfig{}); return err }, "no questions"},
		{"rag without store", func() error {
			_, err := RunRAG(ctx, RAGConfig{Questions: []string{"bundled:rag_questions.dev.jsonl"}})
			return err
		}, "no store"},
		{"missing dataset", func() error {
			_, err := RunRouting(ctx, RoutingConfig{Datasets: []string{"/nonexistent/routes.jsonl"}})
			return err
		}, "/nonexistent/routes.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestSample(t *testing.T) {
	xs := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	tests := []struct {
		n    int
		want string
	}{{0, "0123456789"}, {20, "0123456789"}, {5, "02468"}, {3, "036"}, {1, "0"}}
	for _, tt := range tests {
		var b strings.Builder
		for _, x := range Sample(xs, tt.n) {
			b.WriteByte(byte('0' + x))
		}
		if b.String() != tt.want {
			t.Errorf("Sample(%d) = %s, want %s", tt.n, b.String(), tt.want)
		}
	}
}

// TestRunRAGSmallCorpus runs the real graph on the embedded store over a
// corpus of three distinct passages.
func TestRunRAGSmallCorpus(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	corpus := write("corpus.jsonl", `{"id": "p/eiffel", "title": "Eiffel Tower", "text": "The Eiffel Tower is a wrought-iron lattice tower in Paris. Gustave Eiffel's company designed and built the tower, which was completed in 1889 for the World's Fair."}
{"id": "p/kiwi", "title": "Kiwi", "text": "The kiwi is a flightless bird endemic to New Zealand. Kiwi lay the largest egg relative to body size of any bird species."}
{"id": "p/volga", "title": "Volga", "text": "The Volga is the longest river in Europe. It flows through central Russia and into the Caspian Sea."}
{"id": "p/volga", "title": "duplicate", "text": "skipped"}
`)
	questions := write("q.jsonl", `{"qid": "1", "question": "In which year was the Eiffel Tower completed for the World's Fair?", "answers": ["1889"], "gold_passages": ["p/eiffel"], "type": "single-hop"}
{"qid": "2", "question": "Which flightless bird lays the largest egg relative to its body size?", "answers": ["kiwi"], "gold_passages": ["p/kiwi"], "type": "single-hop"}
`)
	negatives := write("n.jsonl", `{"qid": "n1", "question": "What is the melting point of tungsten carbide ceramics?", "expected": "abstain"}
`)
	var ingested []Progress
	cfg := RAGConfig{
		Questions: []string{questions}, Negatives: []string{negatives}, Corpus: []string{corpus},
		Open: TempSQLite(dir, sqlite.Options{}), Concurrency: 2,
		Progress: func(p Progress) {
			if p.Phase == "ingest" {
				ingested = append(ingested, p)
			}
		},
	}
	rep, err := RunRAG(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(ingested) != 1 || ingested[0].Done != 3 || ingested[0].Total != 3 {
		t.Errorf("ingest progress %v, want 3 of 3", ingested)
	}
	t.Run("deterministic", func(t *testing.T) {
		cfg.Progress = nil
		again, err := RunRAG(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range Compare(rep, again) {
			if !strings.HasPrefix(d.Metric, "latency_ms.") && d.Verdict() != "same" {
				t.Errorf("second run changed %s: %v -> %v", d.Metric, d.Old, d.New)
			}
		}
	})
	if rep.Errors != 0 {
		t.Fatalf("errors: %v", rep.Failures)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Line != 4 {
		t.Errorf("skipped = %v, want the duplicate corpus row on line 4", rep.Skipped)
	}
	if rep.Retrieval.Recall != 1 || rep.Retrieval.MRR != 1 {
		t.Errorf("retrieval = %+v, want every gold passage first", rep.Retrieval)
	}
	if rep.Answers.Contains != 1 {
		t.Errorf("answers = %+v, want both answers in the text", rep.Answers)
	}
	if rep.Rejection.AbstainRate != 1 || rep.Rejection.FalseAbstainRate != 0 {
		t.Errorf("rejection = %+v", rep.Rejection)
	}
	for _, n := range []string{"route", "retrieve", "evaluate", "generate", "validate", "total"} {
		if rep.LatencyMS[n].N == 0 {
			t.Errorf("no latency for %s: %v", n, rep.LatencyMS)
		}
	}
	t.Run("markdown file", func(t *testing.T) {
		files, err := WriteMarkdownFile(filepath.Join(dir, "out", "eval-report.md"), rep)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 2 || filepath.Base(files[1]) != "eval-report-latency.svg" {
			t.Errorf("wrote %v", files)
		}
		md, _ := os.ReadFile(files[0])
		if !strings.Contains(string(md), "](eval-report-latency.svg)") {
			t.Errorf("Markdown does not link its chart:\n%s", md)
		}
		os.RemoveAll(filepath.Join(dir, "out"))
	})
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			t.Errorf("temporary store %s left behind", e.Name())
		}
	}
}

// TestRunRAGCancelledMidway cancels a run after its first question and
// expects RunRAG to stop with the context's error.
func TestRunRAGCancelledMidway(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := RunRAG(ctx, RAGConfig{
		Questions: BundledQuestions, Corpus: []string{BundledPrefix + "corpus.extra.jsonl"},
		Open: TempSQLite(t.TempDir(), sqlite.Options{}), Concurrency: 1,
		Progress: func(p Progress) {
			if p.Phase != "ingest" && p.Done == 1 {
				cancel()
			}
		},
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestStandardVariants(t *testing.T) {
	for _, name := range variantNames {
		t.Run(name, func(t *testing.T) {
			v, err := StandardVariant(name)
			if err != nil || v.Name != name {
				t.Fatalf("StandardVariant(%q) = %+v, %v", name, v, err)
			}
		})
	}
	t.Run("unknown", func(t *testing.T) {
		if _, err := StandardVariants("default", "telepathy"); err == nil || !strings.Contains(err.Error(), "store-bm25") {
			t.Fatalf("err = %v, want the known names listed", err)
		}
	})
	t.Run("mutations", func(t *testing.T) {
		o, d := nodes.DefaultOptions(), nodes.Deps{Searcher: &recordingSearcher{}}
		for _, name := range []string{VariantNoCorrective, VariantNoProbe, VariantLLMRouter, VariantBM25} {
			v, _ := StandardVariant(name)
			o, d = v.apply(o, d)
		}
		if o.Budget.Retrieve != 0 || o.ProbeK != 0 || o.PlannerBelow != 2 {
			t.Errorf("options after mutations: %+v", o)
		}
		d.Searcher.Search(context.Background(), graphrag.Query{Text: "x", Mode: graphrag.ModeHybrid})
		if got := d.Searcher.(modeSearcher).s.(*recordingSearcher).modes; len(got) != 1 || got[0] != graphrag.ModeKeyword {
			t.Errorf("bm25 variant searched in modes %v", got)
		}
	})
	t.Run("router modes", func(t *testing.T) {
		for name, want := range map[string]nodes.RouterMode{VariantRules: nodes.RouterRules, VariantLearned: nodes.RouterLearned, VariantDefault: nodes.RouterFull} {
			v, _ := StandardVariant(name)
			if o, _ := v.apply(nodes.DefaultOptions(), nodes.Deps{}); o.Router != want {
				t.Errorf("%s: Router = %q, want %q", name, o.Router, want)
			}
		}
	})
	t.Run("vector keeps the keyword probe", func(t *testing.T) {
		rs := &recordingSearcher{}
		v, _ := StandardVariant(VariantVector)
		_, d := v.apply(nodes.DefaultOptions(), nodes.Deps{Searcher: rs})
		d.Searcher.Search(context.Background(), graphrag.Query{Mode: graphrag.ModeKeyword})
		d.Searcher.Search(context.Background(), graphrag.Query{Mode: graphrag.ModeHybrid})
		if len(rs.modes) != 2 || rs.modes[0] != graphrag.ModeKeyword || rs.modes[1] != graphrag.ModeVector {
			t.Errorf("modes %v, want keyword then vector", rs.modes)
		}
	})
}

type recordingSearcher struct{ modes []graphrag.SearchMode }

func (r *recordingSearcher) Search(_ context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	r.modes = append(r.modes, q.Mode)
	return graphrag.SearchResult{Mode: q.Mode}, nil
}
