package nodes

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// selectingTools is file tools that also select files for a plan.
type selectingTools struct {
	fakeTools
	ids   []string
	err   error
	plans []graphrag.Plan
}

func (f *selectingTools) Select(_ context.Context, plan graphrag.Plan) ([]string, error) {
	f.plans = append(f.plans, plan)
	return f.ids, f.err
}

// recordingSearcher keeps the queries it was asked.
type recordingSearcher struct {
	*memSearcher
	queries []graphrag.Query
}

func (r *recordingSearcher) Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	r.queries = append(r.queries, q)
	// The in-memory documents have no types, dates or folders: only the
	// DocIDs filter is applied.
	inner := q
	inner.Filters = graphrag.Filters{}
	res, err := r.memSearcher.Search(ctx, inner)
	if len(q.Filters.DocIDs) > 0 {
		res.Hits = slices.DeleteFunc(res.Hits, func(h graphrag.Hit) bool { return !slices.Contains(q.Filters.DocIDs, h.Chunk.DocID) })
	}
	return res, err
}

func TestRetrieveNarrowsWithSelectedFiles(t *testing.T) {
	tests := []struct {
		name    string
		plan    graphrag.Plan
		ids     []string
		err     error
		selects bool     // Select is asked
		docIDs  []string // the search's DocIDs filter
		hits    bool
		note    string
	}{
		{"type filter narrows", graphrag.Plan{Route: graphrag.RouteVector, Query: "what do my pdfs say about ospreys", FileTypes: []string{"pdf"}}, []string{"osprey"}, nil, true, []string{"osprey"}, true, ""},
		{"time filter narrows", graphrag.Plan{Route: graphrag.RouteHybrid, Query: "ospreys nest", Time: graphrag.TimeThisWeek}, []string{"kestrel"}, nil, true, []string{"kestrel"}, true, ""},
		{"nil selection does not narrow", graphrag.Plan{Route: graphrag.RouteVector, Query: "ospreys nest", SourceHint: "birds"}, nil, nil, true, nil, true, ""},
		// A file type the wording names is a guess: when no file has it,
		// all files are searched (the note says so); a time window stands.
		{"no file of the type", graphrag.Plan{Route: graphrag.RouteVector, Query: "ospreys nest", FileTypes: []string{"pdf"}}, nil, fmt.Errorf("no pdf files: %w", graphrag.ErrNotFound), true, nil, true, "searched all files"},
		{"nothing in the time window", graphrag.Plan{Route: graphrag.RouteVector, Query: "ospreys nest", FileTypes: []string{"pdf"}, Time: graphrag.TimeThisWeek}, nil, fmt.Errorf("no pdf files this week: %w", graphrag.ErrNotFound), true, nil, false, "no file matches"},
		{"selection fails", graphrag.Plan{Route: graphrag.RouteVector, Query: "ospreys nest", FileTypes: []string{"pdf"}}, nil, errBoom, true, nil, true, "file selection failed"},
		{"no filter: no selection", graphrag.Plan{Route: graphrag.RouteVector, Query: "ospreys nest"}, []string{"kestrel"}, nil, false, nil, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools := &selectingTools{ids: tt.ids, err: tt.err}
			srch := &recordingSearcher{memSearcher: smallCorpus()}
			p, err := newPipeline(Deps{Searcher: srch, Tools: tools}, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			s, err := p.retrieve(context.Background(), State{Plan: tt.plan})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(tools.plans) > 0; got != tt.selects {
				t.Errorf("Select asked = %v, want %v", got, tt.selects)
			}
			var ids []string
			if len(srch.queries) > 0 {
				ids = srch.queries[0].Filters.DocIDs
			}
			if !slices.Equal(ids, tt.docIDs) {
				t.Errorf("search DocIDs = %q, want %q", ids, tt.docIDs)
			}
			if (len(s.Hits) > 0) != tt.hits {
				t.Errorf("hits = %d, want some: %v", len(s.Hits), tt.hits)
			}
			for _, h := range s.Hits {
				if tt.docIDs != nil && !slices.Contains(tt.docIDs, h.Chunk.DocID) {
					t.Errorf("hit %s outside the selection", h.Chunk.DocID)
				}
			}
			if tt.note != "" && !strings.Contains(strings.Join(s.Notes, "\n"), tt.note) {
				t.Errorf("notes %q lack %q", s.Notes, tt.note)
			}
		})
	}
}

// A file type the wording names ("my COPY of a huge CSV failed") is a
// guess like a source hint: when no file of that type matches, the store
// search runs again over all files and the notes say so.
func TestFileTypeNamedAsSubjectSearchesAllFiles(t *testing.T) {
	p, err := newPipeline(Deps{Searcher: smallCorpus()}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.retrieve(context.Background(), State{Plan: graphrag.Plan{Route: graphrag.RouteVector, Query: "where do ospreys nest", FileTypes: []string{"csv"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Hits) == 0 || s.Hits[0].Chunk.DocID != "osprey" {
		t.Errorf("hits %v, want the osprey passage first", s.Hits)
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "nothing matched among your csv files: searched all files") {
		t.Errorf("notes %q do not say all files were searched", s.Notes)
	}
}
