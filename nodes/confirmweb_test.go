package nodes

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// countingWeb is a web searcher that counts the queries that reached it
// and says where it sends them.
type countingWeb struct {
	fakeWeb
	sent atomic.Int64
}

func (c *countingWeb) SearchWeb(ctx context.Context, query string, k int) ([]graphrag.Hit, error) {
	c.sent.Add(1)
	return c.fakeWeb.SearchWeb(ctx, query, k)
}

func (c *countingWeb) BaseURL() string { return "http://searx.local:8888" }

const webQuestion = "what's the weather in Oslo tomorrow"

func confirmingGraph(t *testing.T, web WebSearcher, cp graph.Checkpointer) *graph.Runnable[State] {
	t.Helper()
	opts := DefaultOptions()
	opts.ConfirmWeb = true
	r, err := Build(Deps{Searcher: smallCorpus(), Web: web}, opts, graph.WithCheckpointer(cp))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// pausedAtWeb runs the web question on thread and checks that it paused
// before anything was sent.
func pausedAtWeb(t *testing.T, r *graph.Runnable[State], web *countingWeb, thread string) *graph.Interrupted {
	t.Helper()
	_, err := r.Invoke(context.Background(), State{Query: webQuestion}, graph.WithThread(thread))
	var in *graph.Interrupted
	if !errors.As(err, &in) {
		t.Fatalf("run = %v, want a *graph.Interrupted before the web search", err)
	}
	if n := web.sent.Load(); n != 0 {
		t.Fatalf("%d queries reached the web before the user answered", n)
	}
	want := WebConfirmation{Query: webQuestion, Provider: "http://searx.local:8888"}
	if got, ok := in.Payload.(WebConfirmation); !ok || got.Query == "" || got.Provider != want.Provider {
		t.Fatalf("payload = %#v, want what would be sent where, like %#v", in.Payload, want)
	}
	if in.Node != NodeRetrieve || in.When != graph.InterruptInside {
		t.Errorf("paused %s %q, want inside %q", in.When, in.Node, NodeRetrieve)
	}
	return in
}

func TestConfirmWeb(t *testing.T) {
	ctx := context.Background()
	t.Run("yes sends the question", func(t *testing.T) {
		web := &countingWeb{}
		r := confirmingGraph(t, web, graph.NewMemorySaver())
		in := pausedAtWeb(t, r, web, "yes")
		s, err := r.Invoke(ctx, State{}, graph.Resume(in.Token, true))
		if err != nil {
			t.Fatal(err)
		}
		if web.sent.Load() != 1 || !strings.Contains(s.Answer.Text, "light rain") || s.Plan.Route != graphrag.RouteWeb {
			t.Errorf("%d queries sent, route %s, answer %q", web.sent.Load(), s.Plan.Route, s.Answer.Text)
		}
	})
	t.Run("no answers from the files and says so", func(t *testing.T) {
		web := &countingWeb{}
		r := confirmingGraph(t, web, graph.NewMemorySaver())
		in := pausedAtWeb(t, r, web, "no")
		s, err := r.Invoke(ctx, State{}, graph.Resume(in.Token, false))
		if err != nil {
			t.Fatal(err)
		}
		if web.sent.Load() != 0 {
			t.Errorf("%d queries reached the web after a no", web.sent.Load())
		}
		if !s.WebDeclined || s.Plan.Route == graphrag.RouteWeb || !strings.Contains(strings.Join(s.Notes, "\n"), "web search declined: nothing was sent") {
			t.Errorf("declined %v, route %s, notes %q", s.WebDeclined, s.Plan.Route, s.Notes)
		}
	})
	t.Run("the answer may come as JSON, after a restart", func(t *testing.T) {
		web := &countingWeb{}
		cp := graph.NewMemorySaver()
		in := pausedAtWeb(t, confirmingGraph(t, web, cp), web, "json")
		// A new graph over the same checkpoints stands for a new process:
		// the state comes back from its JSON.
		s, err := confirmingGraph(t, web, cp).Invoke(ctx, State{}, graph.Resume(in.Token, json.RawMessage("true")))
		if err != nil || web.sent.Load() != 1 || s.Query != webQuestion || s.Budget == (Budget{}) {
			t.Errorf("err %v, %d sent, query %q, budget %+v", err, web.sent.Load(), s.Query, s.Budget)
		}
	})
	t.Run("a token answers once", func(t *testing.T) {
		web := &countingWeb{}
		r := confirmingGraph(t, web, graph.NewMemorySaver())
		in := pausedAtWeb(t, r, web, "once")
		if _, err := r.Invoke(ctx, State{}, graph.Resume(in.Token, false)); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Invoke(ctx, State{}, graph.Resume(in.Token, true)); !errors.Is(err, graph.ErrNoCheckpoint) && !errors.Is(err, graph.ErrStaleResume) {
			t.Errorf("second resume = %v, want it refused", err)
		}
		if web.sent.Load() != 0 {
			t.Errorf("a stale token sent %d queries", web.sent.Load())
		}
	})
	t.Run("without a thread the run fails before sending", func(t *testing.T) {
		web := &countingWeb{}
		r := confirmingGraph(t, web, graph.NewMemorySaver())
		_, err := r.Invoke(ctx, State{Query: webQuestion})
		if !errors.Is(err, graph.ErrNoCheckpointer) || web.sent.Load() != 0 {
			t.Errorf("err %v, %d sent; want ErrNoCheckpointer and nothing sent", err, web.sent.Load())
		}
	})
	t.Run("local questions do not ask", func(t *testing.T) {
		web := &countingWeb{}
		r := confirmingGraph(t, web, graph.NewMemorySaver())
		s, err := r.Invoke(ctx, State{Query: "Where do ospreys nest?"}, graph.WithThread("local"))
		if err != nil || !strings.Contains(s.Answer.Text, "lakes") {
			t.Errorf("err %v, answer %q", err, s.Answer.Text)
		}
	})
}
