package nodes_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// searx stands in for a web search provider.
type searx struct{ sent int }

func (s *searx) SearchWeb(_ context.Context, query string, k int) ([]graphrag.Hit, error) {
	s.sent++
	return []graphrag.Hit{{Chunk: graphrag.Chunk{ID: "w#0", Text: "Oslo will be cloudy tomorrow with light rain."},
		Source: graphrag.Source{URL: "https://weather.example/oslo", Title: "Oslo weather"}}}, nil
}

func (s *searx) BaseURL() string { return "http://localhost:8888" }

// With Options.ConfirmWeb the graph pauses before a question leaves the
// machine: the run returns a *graph.Interrupted whose payload says what
// would be sent where, and resuming with true sends it (false answers from
// the local files only). Pausing needs a checkpointer and a thread.
func Example_confirmWeb() {
	web := &searx{}
	opts := nodes.DefaultOptions()
	opts.ConfirmWeb = true
	rag, err := nodes.Build(nodes.Deps{Searcher: notes{}, Web: web}, opts, graph.WithCheckpointer(graph.NewMemorySaver()))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	_, err = rag.Invoke(ctx, nodes.State{Query: "what's the weather in Oslo tomorrow"}, graph.WithThread("q1"))
	var pause *graph.Interrupted
	if !errors.As(err, &pause) {
		fmt.Println("no pause:", err)
		return
	}
	c := pause.Payload.(nodes.WebConfirmation)
	fmt.Printf("send %q to %s? (%d sent so far)\n", c.Query, c.Provider, web.sent)
	s, err := rag.Invoke(ctx, nodes.State{}, graph.Resume(pause.Token, true))
	fmt.Println(s.Answer.Text, err)
	// Output:
	// send "what's the weather in Oslo tomorrow" to http://localhost:8888? (0 sent so far)
	// Oslo will be cloudy tomorrow with light rain. [1] <nil>
}
