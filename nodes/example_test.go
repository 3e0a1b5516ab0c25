package nodes_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
)

// notes is a tiny Searcher over two notes: it returns every note that
// shares a word with the query, the one sharing most first.
type notes []graphrag.Hit

func (n notes) Search(_ context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	var out []graphrag.Hit
	for _, h := range n {
		score := 0.0
		for _, w := range strings.Fields(strings.ToLower(strings.Trim(q.Text, "?"))) {
			if len(w) > 3 && strings.Contains(strings.ToLower(h.Source.Title+" "+h.Chunk.Text), w) {
				score++
			}
		}
		if score > 0 {
			h.Score = score
			out = append(out, h)
		}
	}
	if len(out) == 2 && out[1].Score > out[0].Score {
		out[0], out[1] = out[1], out[0]
	}
	return graphrag.SearchResult{Hits: out, Mode: graphrag.ModeKeyword}, nil
}

func Example() {
	store := notes{
		{Chunk: graphrag.Chunk{ID: "osprey.md#0", DocID: "osprey.md", Text: "Ospreys nest near lakes and rivers across Scandinavia. They return to the same nest every spring."},
			Source: graphrag.Source{DocID: "osprey.md", Path: "notes/osprey.md", Title: "Osprey"}},
		{Chunk: graphrag.Chunk{ID: "bread.md#0", DocID: "bread.md", Text: "Feed the sourdough starter every twelve hours."},
			Source: graphrag.Source{DocID: "bread.md", Path: "notes/bread.md", Title: "Sourdough"}},
	}
	rag, err := nodes.Build(nodes.Deps{Searcher: store}, nodes.DefaultOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range []string{"Where do ospreys nest in Scandinavia?", "what is 12 times 7"} {
		s, err := rag.Invoke(context.Background(), nodes.State{Query: q})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s (%s, %s)\n", s.Answer.Text, s.Plan.Route, s.Stop)
		for _, c := range s.Answer.Citations {
			fmt.Printf("  [%d] %s\n", c.N, c.Hit.Source.Path)
		}
	}
	// Output:
	// Ospreys nest near lakes and rivers across Scandinavia. [1] (vector, answered)
	//   [1] notes/osprey.md
	// 12 times 7 = 84. (direct, answered)
}
