package nodes

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// shopCorpus: the question "how do I get my money back" shares words with
// the customer-service note only; the returns policy, which answers it,
// uses other words ("refund", "returned").
func shopCorpus() *memSearcher {
	return newMemSearcher([]graphrag.Hit{
		doc("returns", "Returns", "Items can be returned within 30 days of delivery for a full refund to the original card."),
		doc("service", "Customer service", "Customer service answers email about money back requests within one working day."),
		doc("warranty", "Warranty", "The warranty covers manufacturing defects for two years from delivery."),
		doc("shipping", "Shipping", "Orders leave the warehouse within two working days."),
	})
}

// searchCall is one call a recordingStore received.
type searchCall struct {
	Leg  bool // SearchLeg (else Search)
	Text string
	Mode graphrag.SearchMode
}

func (c searchCall) String() string {
	kind := "search"
	if c.Leg {
		kind = "leg"
	}
	return fmt.Sprintf("%s %s %q", kind, c.Mode, c.Text)
}

// recordingStore records every search, safely from parallel branches. A
// search for slow (the question) answers last, so the other wordings'
// branches finish first: fuse's order must not depend on it. Its vector
// list is the keyword list reversed (a different ranking).
type recordingStore struct {
	mu    sync.Mutex
	mem   *memSearcher
	calls []searchCall
	slow  string
	// log, when set, receives the calls too (with the observer's marks).
	log *[]string
}

func (r *recordingStore) record(c searchCall) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, c)
	if r.log != nil {
		*r.log = append(*r.log, c.String())
	}
}

func (r *recordingStore) search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	if q.Text == r.slow {
		time.Sleep(5 * time.Millisecond)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.mem.Search(ctx, q)
}

func (r *recordingStore) Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	r.record(searchCall{Text: q.Text, Mode: q.Mode})
	return r.search(ctx, q)
}

// legRecordingStore is a recordingStore that runs hybrid legs apart.
type legRecordingStore struct{ *recordingStore }

func (l legRecordingStore) HybridLegs() bool { return true }

func (l legRecordingStore) SearchLeg(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	l.record(searchCall{Leg: true, Text: q.Text, Mode: q.Mode})
	kq := q
	kq.Mode = graphrag.ModeKeyword
	res, err := l.search(ctx, kq)
	if err != nil {
		return res, err
	}
	if q.Mode == graphrag.ModeVector {
		slices.Reverse(res.Hits)
		for i := range res.Hits {
			res.Hits[i].Ranks = graphrag.Ranks{Vector: i + 1}
		}
	}
	res.Mode, res.Note = q.Mode, ""
	return res, nil
}

var (
	_ LegSearcher = legRecordingStore{}
	_ Searcher    = (*recordingStore)(nil)
)

const moneyBack = "how do I get my money back"

var moneyBackWordings = []string{"refund for returned items", "return policy"}

// sortedCalls are the calls in a stable order: branches run concurrently.
func sortedCalls(cs []searchCall) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	slices.Sort(out)
	return out
}

func TestMultiQuerySearchesEveryWording(t *testing.T) {
	leg := func(mode graphrag.SearchMode, text string) searchCall {
		return searchCall{Leg: true, Text: text, Mode: mode}
	}
	whole := func(mode graphrag.SearchMode, text string) searchCall {
		return searchCall{Text: text, Mode: mode}
	}
	perQuery := func(texts []string, calls ...func(graphrag.SearchMode, string) searchCall) func(...graphrag.SearchMode) []searchCall {
		return func(modes ...graphrag.SearchMode) []searchCall {
			var out []searchCall
			for _, q := range texts {
				for i, m := range modes {
					out = append(out, calls[i](m, q))
				}
			}
			return out
		}
	}
	all := append([]string{moneyBack}, moneyBackWordings...)
	tests := []struct {
		name    string
		legs    bool
		route   graphrag.Route
		queries []string
		max     int
		want    []searchCall
		mode    graphrag.SearchMode
		hits    []string // the fused order
	}{
		{"hybrid on a store with legs: keyword and vector legs per query", true, graphrag.RouteHybrid, moneyBackWordings, 0,
			perQuery(all, leg, leg)(graphrag.ModeKeyword, graphrag.ModeVector), graphrag.ModeHybrid, []string{"returns", "service"}},
		{"vector on a store with legs: one whole search per query", true, graphrag.RouteVector, moneyBackWordings, 0,
			perQuery(all, whole)(graphrag.ModeVector), graphrag.ModeKeyword, []string{"returns", "service"}},
		{"hybrid on a store without legs: one whole search per query", false, graphrag.RouteHybrid, moneyBackWordings, 0,
			perQuery(all, whole)(graphrag.ModeHybrid), graphrag.ModeKeyword, []string{"returns", "service"}},
		{"MaxQueries caps the texts searched", true, graphrag.RouteHybrid, moneyBackWordings, 2,
			perQuery(all[:2], leg, leg)(graphrag.ModeKeyword, graphrag.ModeVector), graphrag.ModeHybrid, []string{"service", "returns"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var first []graphrag.Hit
			for run := range 5 {
				rec := &recordingStore{mem: shopCorpus(), slow: moneyBack}
				var store Searcher = rec
				if tt.legs {
					store = legRecordingStore{rec}
				}
				opts := DefaultOptions()
				if tt.max > 0 {
					opts.MaxQueries = tt.max
				}
				p, err := newPipeline(Deps{Searcher: store}, opts)
				if err != nil {
					t.Fatal(err)
				}
				var events []any
				var mu sync.Mutex
				ctx := context.Background()
				observe := func(e graph.Event) {
					if e.Kind == graph.EventCustom && e.Name == EventQueries {
						mu.Lock()
						events = append(events, e.Payload)
						mu.Unlock()
					}
				}
				s, err := retrieveObserved(ctx, p, State{Plan: graphrag.Plan{Route: tt.route, Query: moneyBack, Queries: tt.queries}}, observe)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := sortedCalls(rec.calls), sortedCalls(tt.want); !slices.Equal(got, want) {
					t.Fatalf("searches\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				if s.SearchMode != tt.mode || !s.fused {
					t.Errorf("search mode %s, fused %v; want %s and RRF scores", s.SearchMode, s.fused, tt.mode)
				}
				// The returns policy, which only the other wordings find,
				// is kept; found by two wordings it outranks the question's
				// own hit. Found by one, it ties with it, and the
				// question's lists come first.
				if ids := hitIDs(s.Hits); !slices.Equal(ids, tt.hits) {
					t.Errorf("fused hits %v, want %v", ids, tt.hits)
				}
				if len(events) != 1 || fmt.Sprint(events[0]) != fmt.Sprint(SearchedQueries(all[:queriesIn(tt.want)])) {
					t.Errorf("queries events %v, want one listing %v", events, SearchedQueries(all[:queriesIn(tt.want)]))
				}
				if run == 0 {
					first = s.Hits
				} else if fmt.Sprint(s.Hits) != fmt.Sprint(first) {
					t.Fatalf("run %d fused\n%v\nrun 0 fused\n%v", run, s.Hits, first)
				}
			}
		})
	}
}

// retrieveObserved runs the retrieve subgraph as p.retrieve does, with an
// observer.
func retrieveObserved(ctx context.Context, p *pipeline, s State, observe func(graph.Event)) (State, error) {
	r, err := p.retriever.Invoke(ctx, retrievalOf(s), graph.WithObserver(observe))
	if err != nil {
		return s, err
	}
	return withRetrieval(s, r), nil
}

// queriesIn counts the distinct texts searched.
func queriesIn(cs []searchCall) int {
	var texts []string
	for _, c := range cs {
		if !slices.Contains(texts, c.Text) {
			texts = append(texts, c.Text)
		}
	}
	return len(texts)
}

func hitIDs(hits []graphrag.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Chunk.DocID
	}
	return out
}

// TestNoOtherWordingsSearchesAsBefore: a plan without other wordings (or
// with only repeats of the question, or MaxQueries 1) makes exactly the
// calls retrieve made before multi-query retrieval, and fuses nothing.
func TestNoOtherWordingsSearchesAsBefore(t *testing.T) {
	for _, legs := range []bool{true, false} {
		want := []searchCall{{Text: moneyBack, Mode: graphrag.ModeHybrid}}
		if legs {
			want = []searchCall{{Leg: true, Text: moneyBack, Mode: graphrag.ModeKeyword}, {Leg: true, Text: moneyBack, Mode: graphrag.ModeVector}}
		}
		for _, tc := range []struct {
			name    string
			queries []string
			max     int
		}{
			{"none", nil, 0},
			{"repeats of the question", []string{"How do I get my money back?", "  how do i get my MONEY back", ""}, 0},
			{"MaxQueries 1", moneyBackWordings, 1},
		} {
			t.Run(fmt.Sprintf("legs %v/%s", legs, tc.name), func(t *testing.T) {
				rec := &recordingStore{mem: shopCorpus()}
				var store Searcher = rec
				if legs {
					store = legRecordingStore{rec}
				}
				opts := DefaultOptions()
				opts.MaxQueries = tc.max
				p, err := newPipeline(Deps{Searcher: store}, opts)
				if err != nil {
					t.Fatal(err)
				}
				var events int
				observe := func(e graph.Event) {
					if e.Kind == graph.EventCustom && e.Name == EventQueries {
						events++
					}
				}
				s, err := retrieveObserved(context.Background(), p, State{Plan: graphrag.Plan{Route: graphrag.RouteHybrid, Query: moneyBack, Queries: tc.queries}}, observe)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := sortedCalls(rec.calls), sortedCalls(want); !slices.Equal(got, want) {
					t.Errorf("searches %q, want %q", got, want)
				}
				if s.fused || events != 0 {
					t.Errorf("fused %v, %d queries events; want neither for one query", s.fused, events)
				}
			})
		}
	}
}

// rephrasingPlanner searches the files for every question, with other
// wordings of it.
type rephrasingPlanner struct{ queries []string }

func (r rephrasingPlanner) Plan(_ context.Context, q string, _ []graphrag.Turn) (graphrag.Plan, error) {
	return graphrag.Plan{Query: q, Queries: r.queries, Route: graphrag.RouteVector, Reason: "search the files"}, nil
}

// TestRefinedQueryIsSearchedAlone: the planner's wordings are searched
// with the question; a corrective loop's refined query replaces the
// question and its wordings, and is searched alone.
func TestRefinedQueryIsSearchedAlone(t *testing.T) {
	const question = "Do puffins nest on Svalbard cliffs near Longyearbyen?"
	wordings := []string{"Arctic seabird breeding sites", "puffin colonies"}
	var log []string
	rec := &recordingStore{mem: scatteredCorpus(), log: &log}
	opts := DefaultOptions()
	opts.Budget = Budget{Retrieve: 1, Generate: 2, Route: 2}
	opts.PlannerBelow = 1.01 // the planner decides every route
	r, err := Build(Deps{Searcher: rec, Planner: rephrasingPlanner{wordings}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	observe := func(e graph.Event) {
		if e.Kind == graph.EventNodeStart && e.Subgraph == "" && e.Node == NodeRetrieve {
			rec.mu.Lock()
			log = append(log, "-- retrieve")
			rec.mu.Unlock()
		}
	}
	s, err := r.Invoke(context.Background(), State{Query: question}, graph.WithObserver(observe))
	if err != nil {
		t.Fatal(err)
	}
	if s.Loops.Retrieve != 1 {
		t.Fatalf("loops %+v: the test needs one corrective loop (notes %q)", s.Loops, s.Notes)
	}
	var passes [][]string
	for _, l := range log {
		switch {
		case l == "-- retrieve":
			passes = append(passes, nil)
		case len(passes) > 0:
			passes[len(passes)-1] = append(passes[len(passes)-1], l)
		}
	}
	if len(passes) < 2 {
		t.Fatalf("%d retrieve passes in %q, want two", len(passes), log)
	}
	first, second := passes[0], passes[1]
	slices.Sort(first)
	want := sortedCalls([]searchCall{{Text: question, Mode: graphrag.ModeVector}, {Text: wordings[0], Mode: graphrag.ModeVector}, {Text: wordings[1], Mode: graphrag.ModeVector}})
	if !slices.Equal(first, want) {
		t.Errorf("first pass searched %q, want the question and both wordings %q", first, want)
	}
	refined := searchCall{Text: s.Plan.Query, Mode: graphrag.ModeVector}.String()
	if s.Plan.By != "refine" || s.Plan.Query == question || len(s.Plan.Queries) > 0 || !slices.Equal(second, []string{refined}) {
		t.Errorf("the refined pass (plan by %s: %q, wordings %q) searched %q, want the refined query alone", s.Plan.By, s.Plan.Query, s.Plan.Queries, second)
	}
	for _, w := range wordings {
		if strings.Contains(strings.Join(second, "\n"), fmt.Sprintf("%q", w)) {
			t.Errorf("the refined pass searched the stale wording %q", w)
		}
	}
}
