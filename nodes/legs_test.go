package nodes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// legStore is a store that runs the legs of a hybrid search apart: keyword
// is the BM25 of memSearcher, vector the same list reversed (a different
// ranking, so that fusion shows). Each leg waits until the other has
// started: the run completes only if the legs run concurrently.
type legStore struct {
	mu      sync.Mutex
	mem     *memSearcher
	started map[graphrag.SearchMode]chan struct{}
	wholes  int
}

func newLegStore() *legStore {
	return &legStore{mem: smallCorpus(), started: map[graphrag.SearchMode]chan struct{}{
		graphrag.ModeKeyword: make(chan struct{}), graphrag.ModeVector: make(chan struct{}),
	}}
}

func (l *legStore) Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if q.Mode == graphrag.ModeHybrid {
		l.wholes++
	}
	return l.mem.Search(ctx, q)
}

func (l *legStore) HybridLegs() bool { return true }

func (l *legStore) SearchLeg(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	other := graphrag.ModeVector
	if q.Mode == graphrag.ModeVector {
		other = graphrag.ModeKeyword
	}
	close(l.started[q.Mode])
	select {
	case <-l.started[other]:
	case <-time.After(10 * time.Second):
		return graphrag.SearchResult{}, fmt.Errorf("the %s leg never started while the %s leg ran: the legs run one after the other", other, q.Mode)
	}
	l.mu.Lock()
	kq := q
	kq.Mode, kq.K = graphrag.ModeKeyword, 50
	res, err := l.mem.Search(ctx, kq)
	l.mu.Unlock()
	if err != nil {
		return res, err
	}
	if q.Mode == graphrag.ModeVector {
		slices.Reverse(res.Hits)
	}
	for i := range res.Hits {
		res.Hits[i].Ranks = graphrag.Ranks{}
		if q.Mode == graphrag.ModeKeyword {
			res.Hits[i].Ranks.Keyword = i + 1
		} else {
			res.Hits[i].Ranks.Vector = i + 1
		}
	}
	res.Mode, res.Note = q.Mode, ""
	return res, nil
}

func TestHybridLegsRunInParallel(t *testing.T) {
	store := newLegStore()
	r, err := Build(Deps{Searcher: store}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var branches []string
	observe := func(e graph.Event) {
		if e.Kind == graph.EventNodeStart && e.Subgraph == NodeRetrieve {
			mu.Lock()
			branches = append(branches, fmt.Sprintf("%s#%d", e.Node, e.Branch))
			mu.Unlock()
		}
	}
	// A rule sends an identifier to the hybrid route.
	s, err := r.Invoke(context.Background(), State{Query: "what is in invoice INV-2024-0317"}, graph.WithObserver(observe))
	if err != nil {
		t.Fatal(err)
	}
	if s.Plan.Route != graphrag.RouteHybrid || s.SearchMode != graphrag.ModeHybrid {
		t.Fatalf("route %s, search mode %s; the test needs a hybrid search", s.Plan.Route, s.SearchMode)
	}
	if fmt.Sprint(branches) != "[select#0 keyword#1 vector#2 fuse#0]" {
		t.Errorf("retrieve ran %v, want select, the two legs as branches 1 and 2, then fuse", branches)
	}
	if store.wholes != 0 {
		t.Errorf("the store was also asked %d whole hybrid searches", store.wholes)
	}
	if len(s.Hits) == 0 || s.Hits[0].Chunk.DocID != "invoice" {
		t.Fatalf("hits %v, want the invoice first", s.Hits)
	}
	for _, h := range s.Hits {
		want := 0.0
		for _, r := range []int{h.Ranks.Keyword, h.Ranks.Vector} {
			if r > 0 {
				want += 1 / float64(graphrag.RRFConstant+r)
			}
		}
		if h.Ranks.Keyword == 0 || h.Ranks.Vector == 0 || h.Score != want {
			t.Errorf("%s: ranks %+v score %v; want both lists' ranks and their RRF sum %v", h.Chunk.ID, h.Ranks, h.Score, want)
		}
	}
}

func TestRetrieveWithoutLegsSearchesOnce(t *testing.T) {
	store := &recordingSearcher{memSearcher: smallCorpus()}
	r, err := Build(Deps{Searcher: store}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	observe := func(e graph.Event) {
		if e.Kind == graph.EventNodeEnd && e.Subgraph == NodeRetrieve {
			ran = append(ran, e.Node)
		}
	}
	if _, err := r.Invoke(context.Background(), State{Query: "what is in invoice INV-2024-0317"}, graph.WithObserver(observe)); err != nil {
		t.Fatal(err)
	}
	// route's keyword probe searches first; retrieve's is the last.
	if last := store.queries[len(store.queries)-1]; fmt.Sprint(ran) != "[select search fuse]" || last.Mode != graphrag.ModeHybrid {
		t.Errorf("retrieve ran %v, last search %s; want one hybrid search", ran, last.Mode)
	}
}

// TestMermaidTraceGolden draws the path of a hybrid question over a store
// with legs: the diagram lights retrieve's select, both legs and fuse.
func TestMermaidTraceGolden(t *testing.T) {
	r, err := Build(Deps{Searcher: newLegStore()}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr := graph.NewTrace()
	if _, err := r.Invoke(context.Background(), State{Query: "what is in invoice INV-2024-0317"}, graph.WithObserver(tr.Observe)); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"retrieve/select", "retrieve/keyword", "retrieve/vector", "retrieve/fuse"} {
		if tr.NodeCount(n) != 1 {
			t.Errorf("trace counts %s %d times, want 1", n, tr.NodeCount(n))
		}
	}
	got := r.Mermaid(graph.WithTrace(tr))
	path := filepath.Join("testdata", "golden", "graph_trace.mmd")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./nodes -run TestMermaidTraceGolden -update)", err)
	}
	if got != string(want) {
		t.Errorf("Mermaid differs from %s:\n%s", path, got)
	}
}
