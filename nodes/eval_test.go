package nodes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// evalData is the development data in ../shared/evaldata, loaded once.
type evalData struct {
	searcher  *memSearcher
	questions []ragQuestion
	negatives []negativeQuestion
	routing   []routingRow
}

var (
	evalOnce sync.Once
	evalSet  *evalData
)

func loadEval(t *testing.T) *evalData {
	t.Helper()
	dir := evalDir(t)
	if dir == "" {
		t.Skip("shared/evaldata not found beside the repository: evaluation skipped")
	}
	if testing.Short() {
		t.Skip("evaluation on the dev data skipped in -short mode")
	}
	evalOnce.Do(func() {
		evalSet = &evalData{
			searcher:  newMemSearcher(corpusHits(readJSONL[corpusRow](t, filepath.Join(dir, "rag_corpus.jsonl")))),
			questions: readJSONL[ragQuestion](t, filepath.Join(dir, "rag_questions.dev.jsonl")),
			negatives: readJSONL[negativeQuestion](t, filepath.Join(dir, "negative.dev.jsonl")),
			routing:   readJSONL[routingRow](t, filepath.Join(dir, "routing.dev.jsonl")),
		}
	})
	return evalSet
}

func coarse(r graphrag.Route) string {
	if r == graphrag.RouteVector || r == graphrag.RouteHybrid {
		return "local"
	}
	return string(r)
}

func TestRoutingAccuracyDev(t *testing.T) {
	d := loadEval(t)
	t.Run("memory-bm25", func(t *testing.T) { routingAccuracy(t, d, d.searcher) })
	t.Run("sqlite", func(t *testing.T) { routingAccuracy(t, d, sqliteStore(t)) })
}

func TestRouterAblationDev(t *testing.T) {
	d := loadEval(t)
	for _, mode := range []RouterMode{RouterRules, RouterLearned} {
		t.Run(string(mode), func(t *testing.T) {
			opts := DefaultOptions()
			opts.Router = mode
			p, err := newPipeline(Deps{Searcher: d.searcher, Web: &fakeWeb{}}, opts)
			if err != nil {
				t.Fatal(err)
			}
			ok, n := 0, 0
			for _, r := range d.routing {
				if r.LabelStrength != "hard" {
					continue
				}
				plan, _, _, _ := p.plan(context.Background(), r.Query, nil, false)
				n++
				if coarse(plan.Route) == coarse(graphrag.Route(r.Route)) {
					ok++
				}
			}
			for _, q := range d.questions {
				plan, _, _, _ := p.plan(context.Background(), q.Question, nil, false)
				n++
				if coarse(plan.Route) == "local" {
					ok++
				}
			}
			acc := float64(ok) / float64(n)
			t.Logf("router %s alone: hard coarse accuracy %.3f", mode, acc)
			// Floors a little under what each reaches (rules 0.721, learned
			// 0.979), so a regression in either part of the router shows up
			// here. The rules are only guarantees now (arithmetic, exact
			// identifiers, file names) and the probe decides the rest
			// between the files and a direct answer: their floor guards
			// those, not routing. The 0.95 of the regex router came from the
			// web, small-talk and filesystem regexes the issue had deleted
			// because they were fitted to these rows.
			if floor := map[RouterMode]float64{RouterRules: 0.70, RouterLearned: 0.95}[mode]; acc < floor {
				t.Errorf("router %s alone: hard coarse accuracy %.3f, want >= %.2f", mode, acc, floor)
			}
		})
	}
}

func routingAccuracy(t *testing.T, d *evalData, searcher Searcher) {
	p, err := newPipeline(Deps{Searcher: searcher, Web: &fakeWeb{}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	type result struct{ n, ok int }
	var hard, all, hardCoarse, allCoarse result
	score := func(query, want string, isHard bool) {
		plan, _, _, _ := p.plan(ctx, query, nil, false)
		got := string(plan.Route)
		okFine := got == want || (want == "local" && coarse(plan.Route) == "local")
		okCoarse := coarse(plan.Route) == want || (want != "local" && got == want)
		all.n++
		allCoarse.n++
		if okFine {
			all.ok++
		}
		if okCoarse {
			allCoarse.ok++
		}
		if isHard {
			hard.n++
			hardCoarse.n++
			if okFine {
				hard.ok++
			}
			if okCoarse {
				hardCoarse.ok++
			}
		}
		if !okCoarse {
			t.Logf("misrouted (want %s, got %s by %s): %q — %s", want, got, plan.By, query, plan.Reason)
		}
	}
	for _, r := range d.routing {
		score(r.Query, r.Route, r.LabelStrength == "hard")
	}
	for _, q := range d.questions {
		score(q.Question, "local", true)
	}
	rate := func(r result) float64 { return float64(r.ok) / float64(r.n) }
	t.Logf("routing, hard rows: n=%d accuracy=%.3f coarse=%.3f; all rows: n=%d accuracy=%.3f coarse=%.3f",
		hard.n, rate(hard), rate(hardCoarse), all.n, rate(all), rate(allCoarse))
	// The target is 0.95; the floor sits a little under what the router
	// reaches so a regression fails.
	if rate(hardCoarse) < 0.97 {
		t.Errorf("coarse routing accuracy on hard rows = %.3f, want >= 0.97", rate(hardCoarse))
	}
}

func TestRAGDev(t *testing.T) {
	d := loadEval(t)
	t.Run("memory-bm25", func(t *testing.T) { ragEval(t, d, d.searcher) })
	t.Run("sqlite", func(t *testing.T) { ragEval(t, d, sqliteStore(t)) })
}

func ragEval(t *testing.T, d *evalData, searcher Searcher) {
	r, err := Build(Deps{Searcher: searcher}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var recall, mrr, plainRecall, plainMRR float64
	var falseAbstain, abstain, loops int
	stops := map[string]int{}
	scores := map[string][3]float64{} // per question type: EM sum, F1 sum, n
	for _, q := range d.questions {
		s, err := r.Invoke(ctx, State{Query: q.Question})
		if err != nil {
			t.Fatalf("%q: %v", q.Question, err)
		}
		gold := map[string]bool{}
		for _, g := range q.GoldPassages {
			gold[g] = true
		}
		plain, err := searcher.Search(ctx, graphrag.Query{Text: q.Question, Mode: graphrag.ModeKeyword, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		r, m := recallMRR(plain.Hits, gold)
		plainRecall, plainMRR = plainRecall+r, plainMRR+m
		found := 0
		for i, h := range s.Hits[:min(10, len(s.Hits))] {
			if gold[h.Chunk.DocID] {
				if found == 0 {
					mrr += 1 / float64(i+1)
				}
				found++
			}
		}
		recall += float64(found) / float64(len(gold))
		if float64(found)/float64(len(gold)) < r {
			t.Logf("graph recall %.1f < one search %.1f (%s by %s, loops %+v): %q", float64(found)/float64(len(gold)), r, s.Plan.Route, s.Plan.By, s.Loops, q.Question)
		}
		if !s.Answer.Abstained {
			em, f1 := squadScores(s.Short, q.Answers)
			if em == 0 && testing.Verbose() && os.Getenv("NODES_SHOW_SHORT") != "" {
				t.Logf("short %q gold %q: %s", s.Short, q.Answers, q.Question)
			}
			byType := scores[q.Type]
			byType[0], byType[1], byType[2] = byType[0]+em, byType[1]+f1, byType[2]+1
			scores[q.Type] = byType
		}
		if s.Answer.Abstained {
			falseAbstain++
			t.Logf("false abstention (%s, %s): %q — %s; evaluate: %s", s.Plan.Route, s.Stop, q.Question, s.Plan.Reason, s.Measured)
		}
		loops += s.Loops.Retrieve + s.Loops.Generate + s.Loops.Route
		stops[s.Stop]++
	}
	for _, q := range d.negatives {
		s, err := r.Invoke(ctx, State{Query: q.Question})
		if err != nil {
			t.Fatalf("%q: %v", q.Question, err)
		}
		if s.Answer.Abstained {
			abstain++
		} else {
			t.Logf("answered a negative (%s, strength %.2f): %q — %.80s", s.Plan.Route, s.Strength, q.Question, s.Answer.Text)
		}
	}
	n := float64(len(d.questions))
	abstainRate := float64(abstain) / float64(len(d.negatives))
	falseRate := float64(falseAbstain) / n
	t.Logf("RAG dev: recall@10=%.3f MRR=%.3f (one keyword search: %.3f, %.3f) abstain=%.3f false_abstain=%.3f loops/query=%.2f stops=%v",
		recall/n, mrr/n, plainRecall/n, plainMRR/n, abstainRate, falseRate, float64(loops)/n, stops)
	for _, typ := range []string{"single-hop", "multi-hop", "yes-no"} {
		v := scores[typ]
		if v[2] > 0 {
			t.Logf("short answers, %s (answered %d): EM=%.3f F1=%.3f", typ, int(v[2]), v[0]/v[2], v[1]/v[2])
		}
	}
	if recall/n < 0.89 || mrr/n < 0.85 {
		t.Errorf("recall@10 = %.3f, MRR = %.3f: want >= 0.89 and >= 0.85", recall/n, mrr/n)
	}
	if abstainRate < 0.90 {
		t.Errorf("abstention on negatives = %.3f, want >= 0.90", abstainRate)
	}
	if falseRate > 0.10 {
		t.Errorf("false abstention = %.3f, want <= 0.10", falseRate)
	}
}

var (
	sqliteOnce sync.Once
	sqliteDB   *sqlite.Store
	sqliteErr  error
)

// sqliteStore is the embedded store holding the dev corpus, built once per
// test binary in a temporary directory.
func sqliteStore(t *testing.T) *sqlite.Store {
	t.Helper()
	d := loadEval(t)
	sqliteOnce.Do(func() {
		dir, err := os.MkdirTemp("", "nodes-eval-*")
		if err != nil {
			sqliteErr = err
			return
		}
		ctx := context.Background()
		st, err := sqlite.Open(ctx, filepath.Join(dir, "store.db"), sqlite.Options{})
		if err != nil {
			sqliteErr = err
			return
		}
		var recs []graphrag.Record
		for _, h := range d.searcher.docs {
			recs = append(recs, graphrag.Record{
				Doc:    graphrag.Document{ID: h.Source.DocID, Path: h.Source.Path, Title: h.Source.Title, Type: h.Source.Type, Hash: h.Source.DocID},
				Chunks: []graphrag.Chunk{{ID: h.Chunk.ID, DocID: h.Chunk.DocID, Text: h.Chunk.Text}},
			})
		}
		sqliteErr = st.Put(ctx, recs...)
		sqliteDB = st
	})
	if sqliteErr != nil {
		t.Fatalf("sqlite store: %v", sqliteErr)
	}
	return sqliteDB
}

func recallMRR(hits []graphrag.Hit, gold map[string]bool) (recall, mrr float64) {
	found := 0
	for i, h := range hits[:min(10, len(hits))] {
		if gold[h.Chunk.DocID] {
			if found == 0 {
				mrr = 1 / float64(i+1)
			}
			found++
		}
	}
	return float64(found) / float64(len(gold)), mrr
}

// squadScores are SQuAD exact match and token F1 of a prediction against
// the best of the gold answers.
func squadScores(pred string, golds []string) (em, f1 float64) {
	p := strings.Fields(squadNormalize(pred))
	for _, g := range golds {
		gt := strings.Fields(squadNormalize(g))
		if strings.Join(p, " ") == strings.Join(gt, " ") {
			em = 1
		}
		common := map[string]int{}
		for _, w := range gt {
			common[w]++
		}
		same := 0
		for _, w := range p {
			if common[w] > 0 {
				common[w]--
				same++
			}
		}
		if same > 0 {
			pr, rc := float64(same)/float64(len(p)), float64(same)/float64(len(gt))
			f1 = max(f1, 2*pr*rc/(pr+rc))
		}
	}
	return em, f1
}

func squadNormalize(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) {
			return -1
		}
		return r
	}, s)
	var out []string
	for _, w := range strings.Fields(s) {
		if w != "a" && w != "an" && w != "the" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}
