package nodes

import (
	"context"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// partsSearcher searches a hyphenated word by its parts, as the stores'
// keyword search does (FTS5 and tsvector split "zorp-server" in two).
type partsSearcher struct{ *memSearcher }

func (p partsSearcher) Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	q.Text = strings.ReplaceAll(q.Text, "-", " ")
	return p.memSearcher.Search(ctx, q)
}

// TestACompoundWithAPartNoFileHolds: a hyphenated name one of whose parts
// no file holds ("flint" of "flint-server") names a thing the files do
// not cover, though the search finds many passages by its other part and
// the question does not write it as a name: the run abstains, whether the
// question's other words match well or not. A compound whose parts the
// files use ("true-colour" over a README that writes "true colour") is
// the asker's wording, and is answered.
func TestACompoundWithAPartNoFileHolds(t *testing.T) {
	readme := doc("c1", "zorpterm README", "The zorpterm terminal draws true colour graphics and ligatures on the GPU. The zorpterm terminal supports mouse reporting.")
	cast := doc("c2", "zorpterm NEWS", "zorpterm 2.0 mirrors its window to a TV with flintcast.")
	hits := []graphrag.Hit{readme, cast}
	for i, text := range []string{
		"The zorp server keeps one spool per client.",
		"Restart the server after changing its spool size.",
		"Each server logs to its own spool directory.",
		"A server that loses its spool starts over.",
		"The server answers on the frob port.",
		"Clients of the server share its spool.",
	} {
		hits = append(hits, doc("s"+string(rune('a'+i)), "server notes", text))
	}
	p, _ := newPipeline(Deps{Searcher: partsSearcher{newMemSearcher(hits)}}, DefaultOptions())
	checkRetrievals(t, p, []retrievalCase{
		// The other words match the README well.
		{"Does the zorpterm terminal draw true colour graphics and ligatures on the GPU for flint-server?", []graphrag.Hit{readme}, RetrievalEmpty},
		{"Does the zorpterm terminal draw true-colour graphics and ligatures on the GPU?", []graphrag.Hit{readme}, RetrievalGood},
		// A compound the files write as one word is held.
		{"Does zorpterm 2.0 mirror its window to a TV with flint-cast?", []graphrag.Hit{cast}, RetrievalGood},
		// They match nothing well.
		{"Why did the spool of flint-server grow after a restart?", hits[2:4], RetrievalEmpty},
		{"Why did the spool of the zorp server grow after a restart?", hits[2:4], RetrievalGood},
	})
}

// A retrievalCase is a question evaluate grades over hits, and the
// judgement of them it should reach.
type retrievalCase struct {
	question string
	hits     []graphrag.Hit
	want     string
}

// checkRetrievals runs evaluate on each case, as the first retrieval of a
// local route.
func checkRetrievals(t *testing.T, p *pipeline, cases []retrievalCase) {
	t.Helper()
	for _, tc := range cases {
		s, err := p.evaluate(context.Background(), State{Query: tc.question, Plan: graphrag.Plan{Route: graphrag.RouteVector}, Hits: tc.hits})
		if err != nil || s.Retrieval != tc.want {
			t.Errorf("%q: retrieval %s (%s), err %v: want %s", tc.question, s.Retrieval, s.Measured, err, tc.want)
		}
	}
}
