package nodes

import (
	"context"
	"testing"

	"github.com/graphrag/graphrag"
)

// noWeb is a web searcher that is configured but never searched here.
type noWeb struct{}

func (noWeb) SearchWeb(context.Context, string, int) ([]graphrag.Hit, error) { return nil, nil }

// TestPolicyRoute: the policy's route for a class depends on what is
// configured only where routerdata/policy.json says so: general knowledge
// without a language model (the files' evidence decides) and fresh
// information without web search (the files).
func TestPolicyRoute(t *testing.T) {
	notes := smallCorpus()
	tests := []struct {
		name  string
		deps  Deps
		query string
		class string
		want  graphrag.Route
	}{
		{"general with a model", Deps{Writer: &fakeWriter{}, Searcher: notes}, "how long should a sourdough starter rise", classGeneral, graphrag.RouteDirect},
		{"general, no model, the files hold it", Deps{Searcher: notes}, "how often do you feed a sourdough starter with flour and water", classGeneral, graphrag.RouteVector},
		{"general, no model, the files hold nothing", Deps{Searcher: notes}, "how do I change a flat tyre", classGeneral, graphrag.RouteDirect},
		{"general, no model, no store", Deps{}, "how often do you feed a sourdough starter with flour and water", classGeneral, graphrag.RouteDirect},
		{"fresh information with web search", Deps{Web: noWeb{}, Searcher: notes}, "weather in Oslo tomorrow", classWeb, graphrag.RouteWeb},
		{"fresh information without web search", Deps{Searcher: notes}, "weather in Oslo tomorrow", classWeb, graphrag.RouteVector},
		{"an action whatever the files hold", Deps{Searcher: notes}, "feed the sourdough starter", classAction, graphrag.RouteDirect},
		{"the user's records", Deps{Web: noWeb{}}, "what is my balance", classLocal, graphrag.RouteVector},
		{"files as objects", Deps{}, "how many pdfs are in downloads", classFilesystem, graphrag.RouteFilesystem},
		{"small talk", Deps{Searcher: notes}, "hello there", classDirect, graphrag.RouteDirect},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PolicyRoute(context.Background(), tt.deps, DefaultOptions(), tt.query, tt.class)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("PolicyRoute(%q, %s) = %s, want %s", tt.query, tt.class, got, tt.want)
			}
		})
	}
	if _, err := PolicyRoute(context.Background(), Deps{}, DefaultOptions(), "hello", "chitchat"); err == nil {
		t.Error("an unknown class gave no error")
	}
}
