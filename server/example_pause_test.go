package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
	"github.com/graphrag/graphrag/server"
)

// localNotes is a Searcher with nothing in it; web is a web search that
// says where it sends questions.
type localNotes struct{}

func (localNotes) Search(context.Context, graphrag.Query) (graphrag.SearchResult, error) {
	return graphrag.SearchResult{Mode: graphrag.ModeKeyword}, nil
}

type web struct{}

func (web) SearchWeb(context.Context, string, int) ([]graphrag.Hit, error) {
	return []graphrag.Hit{{Chunk: graphrag.Chunk{ID: "w#0", Text: "Oslo will be cloudy tomorrow with light rain."},
		Source: graphrag.Source{URL: "https://weather.example/oslo", Title: "Oslo weather"}}}, nil
}

func (web) BaseURL() string { return "http://localhost:8888" }

// A server whose graph asks before a question goes to the web
// (graphrag serve --confirm-web): the query is answered with an interrupt
// and a token, and a second request answers it.
func ExampleConfig_checkpoints() {
	cp := graph.NewMemorySaver()
	opts := nodes.DefaultOptions()
	opts.ConfirmWeb = true
	rag, err := nodes.Build(nodes.Deps{Searcher: localNotes{}, Web: web{}}, opts, graph.WithCheckpointer(cp))
	if err != nil {
		panic(err)
	}
	s, err := server.New(server.Config{Runner: rag, Checkpoints: cp})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	post := func(body string) server.QueryResponse {
		resp, err := ts.Client().Post(ts.URL+"/v1/query", "application/json", strings.NewReader(body))
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		var r server.QueryResponse
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			panic(err)
		}
		return r
	}

	r := post(`{"query": "what's the weather in Oslo tomorrow"}`)
	fmt.Println(r.Interrupt.Kind+":", r.Interrupt.Query, "→", r.Interrupt.Provider)
	r = post(`{"resume": {"token": "` + r.Interrupt.Token + `", "allow": true}}`)
	fmt.Println(r.Answer)
	// Output:
	// confirm_web: what's the weather in Oslo tomorrow → http://localhost:8888
	// Oslo will be cloudy tomorrow with light rain. [1]
}
