package nodes

import (
	"context"
	"testing"

	"github.com/graphrag/graphrag"
)

// countingStore counts the route node's probes, through Probe when it
// has one.
type countingStore struct {
	*memSearcher
	probes, searches int
}

func (c *countingStore) Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	c.searches++
	return c.memSearcher.Search(ctx, q)
}

type countingProber struct{ *countingStore }

func (c countingProber) Probe(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	c.probes++
	return c.memSearcher.Search(ctx, q)
}

// TestProbeSkippedWhenCertain: the probe runs only when its evidence could
// change the route, and through the store's Probe when it has one.
func TestProbeSkippedWhenCertain(t *testing.T) {
	tests := []struct {
		query string
		web   bool
		probe bool
	}{
		{"book a table for two at the harbour restaurant on friday", false, false},
		{"what is 12 times 7", false, false},
		{"what's the weather in Oslo tomorrow", true, false},
		{"what is io.EOF", true, false},
		{"what is io.EOF", false, true}, // nothing else to ask: the probe says whether the files help
		{"how does the scheduler pick the next job", true, true},
		{"who wrote the novel about the whaling voyage", false, true},
	}
	for _, tt := range tests {
		st := &countingStore{memSearcher: fixtureStore(t)}
		deps := Deps{Searcher: countingProber{st}}
		if tt.web {
			deps.Web = &fakeWeb{}
		}
		p, err := newPipeline(deps, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		plan, _, _, _ := p.plan(context.Background(), tt.query, nil, false)
		if got := st.probes > 0; got != tt.probe {
			t.Errorf("%q (web %v): probed %v, want %v (%s)", tt.query, tt.web, got, tt.probe, plan.Reason)
		}
		if st.searches != 0 {
			t.Errorf("%q: %d searches: the probe should use the store's Probe", tt.query, st.searches)
		}
	}
}
