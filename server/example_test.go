package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
	"github.com/graphrag/graphrag/server"
)

// echoGraph is a one-node graph standing in for nodes.Build: it streams
// the answer word by word as "token" events.
func echoGraph() *graph.Runnable[nodes.State] {
	g := graph.NewStateGraph[nodes.State]()
	g.AddNode("generate", func(ctx context.Context, s nodes.State) (nodes.State, error) {
		for _, w := range strings.SplitAfter("You asked: "+s.Query, " ") {
			graph.Emit(ctx, "token", w)
		}
		s.Answer = graphrag.Answer{Text: "You asked: " + s.Query}
		s.Stop = "answered"
		return s, nil
	})
	g.AddEdge("generate", graph.END)
	g.SetEntryPoint("generate")
	r, err := g.Compile()
	if err != nil {
		panic(err)
	}
	return r
}

// Stream a query's events as NDJSON over HTTP. In graphrag serve the
// Runner is nodes.Build(...) and ListenAndServe serves Handler on
// Config.Addr.
func ExampleServer_Handler() {
	s, err := server.New(server.Config{Runner: echoGraph()})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	req, _ := http.NewRequest("POST", ts.URL+"/v1/query", strings.NewReader(`{"query": "what is graphrag?"}`))
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := ts.Client().Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var e server.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			panic(err)
		}
		switch e.Type {
		case "token":
			fmt.Printf("token %q\n", e.Text)
		case "result":
			fmt.Println("result:", e.Result.Answer, "/", e.Result.Stop)
		default:
			fmt.Println(e.Type, e.Node)
		}
	}
	// Output:
	// run_start __start__
	// node_start generate
	// token "You "
	// token "asked: "
	// token "what "
	// token "is "
	// token "graphrag?"
	// node_end generate
	// run_end __end__
	// result: You asked: what is graphrag? / answered
}

// Answer newline-delimited JSON requests on stdin and stdout, as
// graphrag serve --stdio does for a desktop app.
func ExampleServeStdio() {
	in := strings.NewReader(`{"id": 1, "method": "ping"}
not json
{"id": 2, "method": "query", "params": {"query": "hi", "stream": "json"}}
`)
	var out strings.Builder
	if err := server.ServeStdio(context.Background(), in, &out, server.Config{Runner: echoGraph()}); err != nil {
		panic(err)
	}
	// Requests run concurrently: print each answer by id, in order.
	byID := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID     json.RawMessage
			Result json.RawMessage
			Error  *server.ErrorBody
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			panic(err)
		}
		var r server.QueryResponse
		switch {
		case m.Error != nil:
			byID[string(m.ID)] = "error " + m.Error.Code
		case json.Unmarshal(m.Result, &r) == nil:
			byID[string(m.ID)] = "answer " + r.Answer
		default:
			byID[string(m.ID)] = line
		}
	}
	for _, id := range []string{"1", "null", "2"} {
		fmt.Println(id, "→", byID[id])
	}
	// Output:
	// 1 → {"id":1,"result":"pong"}
	// null → error bad_json
	// 2 → answer You asked: hi
}
