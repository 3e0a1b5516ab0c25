package evals

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
	"github.com/graphrag/graphrag/retrievers/sqlite"
	"github.com/graphrag/graphrag/retrievers/storetest"
)

// queryDelayEmbedder stands in for an embedding model reached over the
// network: once switched on, each one-text Embed call (a query's
// embedding) waits delay first. Ingest's batches are not delayed.
type queryDelayEmbedder struct {
	*storetest.HashEmbedder
	delay time.Duration
	on    atomic.Bool
}

func (e *queryDelayEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.on.Load() && len(texts) == 1 && e.delay > 0 {
		t := time.NewTimer(e.delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
	}
	return e.HashEmbedder.Embed(ctx, texts)
}

// oneCall hides a store's SearchLeg: retrieve then runs the store's own
// hybrid search in one call, as before the legs were branches.
type oneCall struct{ nodes.Searcher }

// legVariants compares retrieve with the hybrid legs as parallel branches
// against the store's one-call hybrid search.
var legVariants = []Variant{
	{Name: "parallel-legs", Mutate: func(*nodes.Options, *nodes.Deps) {}},
	{Name: "one-call", Mutate: func(_ *nodes.Options, d *nodes.Deps) { d.Searcher = oneCall{d.Searcher} }},
}

// embeddedStore is the bundled corpus in a SQLite store with emb.
func embeddedStore(tb testing.TB, emb graphrag.Embedder) *sqlite.Store {
	tb.Helper()
	ctx := context.Background()
	st, err := TempSQLite(tb.TempDir(), sqlite.Options{Embedder: emb})(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	if _, err := IngestCorpus(ctx, st, BundledCorpus); err != nil {
		tb.Fatal(err)
	}
	return st.(*tempStore).Store
}

// TestHybridLegsRetrieveAsOneCall: with an embedder, retrieve runs the
// keyword and vector legs as parallel branches; on the bundled questions
// it must retrieve exactly what the store's one-call hybrid search does.
func TestHybridLegsRetrieveAsOneCall(t *testing.T) {
	st := embeddedStore(t, storetest.NewHashEmbedder(256))
	if _, ok := any(st).(nodes.LegSearcher); !ok {
		t.Fatal("the SQLite store no longer offers hybrid legs")
	}
	n := 60
	if testing.Short() {
		n = 20
	}
	rep, err := RunRAG(context.Background(), RAGConfig{
		Questions: BundledQuestions, Negatives: BundledNegatives, MaxQuestions: n, MaxNegatives: n / 2,
		Searcher: st, Variants: legVariants,
	})
	if err != nil {
		t.Fatal(err)
	}
	legs, one := rep.Variants[0], rep.Variants[1]
	if legs.SearchModes["hybrid"] == 0 {
		t.Fatalf("no hybrid search ran (%v): the test needs questions on the hybrid route", legs.SearchModes)
	}
	if _, ok := legs.LatencyMS["retrieve/keyword"]; !ok {
		t.Errorf("the keyword leg never ran as a branch: %v", keys(legs.LatencyMS))
	}
	for _, c := range []struct {
		what      string
		legs, one any
	}{
		{"retrieval", legs.Retrieval, one.Retrieval},
		{"answers", legs.Answers, one.Answers},
		{"rejection", legs.Rejection, one.Rejection},
		{"routes", legs.Routes, one.Routes},
		{"misses", legs.Misses, one.Misses},
	} {
		if !reflect.DeepEqual(c.legs, c.one) {
			t.Errorf("%s differ:\nparallel legs %+v\none call      %+v", c.what, c.legs, c.one)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// BenchmarkHybridLegs runs the bundled questions one at a time through the
// graph on a store with an embedder, retrieve's hybrid legs as parallel
// branches against the store's one call, and reports the mean time of the
// retrieve node and of a whole question. The embedder hashes (no model);
// delay adds a round trip per query embedding, as a local embedding model
// over HTTP takes:
//
//	go test ./evals -run '^$' -bench HybridLegs -benchtime 1x
func BenchmarkHybridLegs(b *testing.B) {
	for _, delay := range []time.Duration{0, 20 * time.Millisecond} {
		emb := &queryDelayEmbedder{HashEmbedder: storetest.NewHashEmbedder(256), delay: delay}
		st := embeddedStore(b, emb)
		emb.on.Store(true)
		for _, v := range legVariants {
			b.Run(fmt.Sprintf("embed-delay=%s/%s", delay, v.Name), func(b *testing.B) {
				var rep *Report
				var mu sync.Mutex
				var hybrid []float64 // retrieve's time on the questions that searched hybrid
				for b.Loop() {
					var err error
					hybrid = hybrid[:0]
					rep, err = RunRAG(context.Background(), RAGConfig{
						Questions: BundledQuestions, Searcher: st, Variants: []Variant{v}, Concurrency: 1,
						OnRun: func(_, _ string, r Run) {
							if r.State.SearchMode == graphrag.ModeHybrid && len(r.NodeMS["retrieve"]) == 1 {
								mu.Lock()
								hybrid = append(hybrid, r.NodeMS["retrieve"][0])
								mu.Unlock()
							}
						},
					})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(LatencyOf(hybrid).Mean), "hybrid-retrieve-ms")
				b.ReportMetric(float64(len(hybrid)), "hybrid-questions")
				b.ReportMetric(float64(rep.LatencyMS["retrieve"].Mean), "retrieve-ms")
				b.ReportMetric(float64(rep.LatencyMS["total"].Mean), "question-ms")
			})
		}
	}
}
