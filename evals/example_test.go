package evals_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/evals"
	"github.com/graphrag/graphrag/nodes"
)

// wordRouter is a toy router: it sends queries that mention the weather to
// the web and everything else to the local store.
type wordRouter struct{}

func (wordRouter) Route(_ context.Context, q string) (graphrag.Plan, []string, error) {
	if strings.Contains(q, "weather") {
		return graphrag.Plan{Route: graphrag.RouteWeb, By: "rules"}, nil, nil
	}
	return graphrag.Plan{Route: graphrag.RouteHybrid, By: "learned"}, nil, nil
}

func ExampleRunRouting() {
	rep, err := evals.RunRouting(context.Background(), evals.RoutingConfig{
		Rows: []evals.RoutingRow{
			{ID: "1", Query: "weather in Lyon tomorrow", Route: "web"},
			{ID: "2", Query: "what does error E1042 mean", Route: "hybrid"},
			{ID: "3", Query: "what did my notes say about the offsite", Route: "vector"},
			{ID: "4", Query: "who directed Alien?", Route: evals.Local},
		},
		NewRouter: func(nodes.Deps, nodes.Options) (evals.Router, error) { return wordRouter{}, nil },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rep.Routing
	fmt.Printf("accuracy %.2f on %d rows, coarse accuracy %.2f on %d rows\n", r.Accuracy, r.N, r.CoarseAccuracy, r.CoarseN)
	for _, f := range evals.Check(rep, evals.Min("routing.coarse_accuracy", 0.95), evals.Min("routing.accuracy", 0.9)) {
		fmt.Println("gate failed:", f)
	}
	// Output:
	// accuracy 0.67 on 3 rows, coarse accuracy 1.00 on 4 rows
	// gate failed: routing.accuracy = 0.6667, below the minimum 0.9000
}

func ExampleTokenF1() {
	fmt.Printf("EM %.0f, F1 %.2f\n",
		evals.ExactMatch("The Ronald Shusett", []string{"Ronald Shusett"}),
		evals.TokenF1("produced by Ronald Shusett", []string{"Ronald Shusett"}))
	// Output: EM 1, F1 0.67
}
