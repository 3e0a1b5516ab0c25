package nodes

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/graphrag/graphrag"
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
	p, err := newPipeline(Deps{Searcher: d.searcher}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	type result struct{ n, ok int }
	var hard, all, hardCoarse, allCoarse result
	score := func(query, want string, isHard bool) {
		plan, _, _ := p.plan(ctx, query, nil)
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
	if rate(hardCoarse) < 0.95 {
		t.Errorf("coarse routing accuracy on hard rows = %.3f, want >= 0.95", rate(hardCoarse))
	}
}
