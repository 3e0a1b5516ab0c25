package nodes

import (
	"context"
	"sync"
	"testing"
)

// BenchmarkTrainRouter is what `go generate ./nodes` costs: training the
// router on all its data, twice (once to fit the temperature).
func BenchmarkTrainRouter(b *testing.B) {
	rows, err := loadTrainingRows()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		trainRouter(rows)
	}
}

// BenchmarkFirstRoute is a process's first route decision without a
// language model: decoding the shipped model plus one decision over a small
// store. The budget is under 5 ms.
func BenchmarkFirstRoute(b *testing.B) {
	st := fixtureStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		defaultClassifierOnce = sync.Once{}
		p, err := newPipeline(Deps{Searcher: st}, DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		if _, _, _, err := p.plan(ctx, "how does the scheduler pick the next job", nil, false); err != nil {
			b.Fatal(err)
		}
	}
}
