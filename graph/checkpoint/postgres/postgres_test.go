package postgres_test

import (
	"context"
	"testing"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/graph/checkpoint/checkpointtest"
	"github.com/graphrag/graphrag/graph/checkpoint/postgres"
	"github.com/graphrag/graphrag/internal/pgtest"
)

// newSaver returns a Saver on a fresh schema of the test database. Without
// a database the test skips, or fails when GRAPHRAG_REQUIRE_DB=1.
func newSaver(t *testing.T) *postgres.Saver {
	t.Helper()
	url := pgtest.URL(t)
	pool := pgtest.Pool(t, url, pgtest.NewSchema(t, url))
	s := postgres.New(pool)
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// The suite checks Threads only on a store that has it.
var _ checkpointtest.ThreadLister = (*postgres.Saver)(nil)

func TestConformance(t *testing.T) {
	checkpointtest.Run(t, func(t *testing.T) graph.CheckpointStore { return newSaver(t) })
}

func TestMigrateIsIdempotent(t *testing.T) {
	s := newSaver(t)
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
}

type chat struct {
	Turns  []string
	Answer string
}

// TestInterruptAndResumeAcrossSavers pauses a run on one Saver and resumes it
// through another on the same table, as a second replica of a service would.
func TestInterruptAndResumeAcrossSavers(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	schema := pgtest.NewSchema(t, url)
	build := func() *graph.Runnable[chat] {
		s := postgres.New(pgtest.Pool(t, url, schema))
		if err := s.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		g := graph.NewStateGraph[chat]()
		g.AddNode("ask", func(ctx context.Context, c chat) (chat, error) {
			ok, err := graph.Interrupt[bool](ctx, "search the web?")
			if err != nil {
				return c, err
			}
			c.Answer = map[bool]string{true: "searched", false: "stayed local"}[ok]
			return c, nil
		})
		g.SetEntryPoint("ask")
		g.AddEdge("ask", graph.END)
		r, err := g.Compile(graph.WithCheckpointer(s))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	_, err := build().Invoke(ctx, chat{Turns: []string{"hi"}}, graph.WithThread("c1"))
	in, ok := err.(*graph.Interrupted)
	if !ok {
		t.Fatalf("err = %v, want *graph.Interrupted", err)
	}
	c, err := build().Invoke(ctx, chat{}, graph.Resume(in.Token, false))
	if err != nil || c.Answer != "stayed local" || len(c.Turns) != 1 {
		t.Fatalf("resumed: %+v, %v", c, err)
	}
}
