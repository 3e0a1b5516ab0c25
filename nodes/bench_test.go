package nodes

import (
	"context"
	"testing"
)

// BenchmarkRoute is the route node's decision overhead: rules, classifier
// and the keyword probe on a small in-memory corpus.
func BenchmarkRoute(b *testing.B) {
	p, err := newPipeline(Deps{Searcher: smallCorpus()}, DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.route(ctx, State{Query: "Where do ospreys nest in Scandinavia?"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInvoke is one whole run of the graph minus the store's own cost
// (a four-note in-memory corpus).
func BenchmarkInvoke(b *testing.B) {
	r, err := Build(Deps{Searcher: smallCorpus()}, DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Invoke(ctx, State{Query: "Where do ospreys nest in Scandinavia?"}); err != nil {
			b.Fatal(err)
		}
	}
}
