// Package checkpointtest is the conformance suite every graph.CheckpointStore
// passes: the in-memory one in graph/, SQLite and PostgreSQL. A store's test
// calls Run with a function returning an empty store. A store that can also
// list its threads (ThreadLister, found by type assertion) is checked for
// that too.
package checkpointtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag/graph"
)

// ThreadLister is what a store may also do: name the threads that have
// checkpoints and start with prefix ("" for all), sorted. The SQLite and
// PostgreSQL stores do; Run checks it when the store has it.
type ThreadLister interface {
	Threads(ctx context.Context, prefix string) ([]string, error)
}

// Run runs the suite against stores made by newStore, each empty.
func Run(t *testing.T, newStore func(t *testing.T) graph.CheckpointStore) {
	t.Helper()
	ctx := context.Background()
	cp := func(thread string, seq int64, age time.Duration) graph.Checkpoint {
		return graph.Checkpoint{
			Thread: thread, Seq: seq, Parent: seq - 1, Step: int(seq), Node: fmt.Sprintf("n%d", seq), Next: "next",
			Version: 1, State: json.RawMessage(fmt.Sprintf(`{"N":%d}`, seq)),
			Created: time.Now().Add(-age).UTC().Truncate(time.Microsecond),
		}
	}

	t.Run("put get list", func(t *testing.T) {
		s := newStore(t)
		if _, err := s.Get(ctx, "t", 0); !errors.Is(err, graph.ErrNoCheckpoint) {
			t.Fatalf("Get on an empty thread = %v, want ErrNoCheckpoint", err)
		}
		want := []graph.Checkpoint{cp("t", 1, 0), cp("t", 2, 0), cp("t", 3, 0)}
		want[2].Interrupt = &graph.PendingInterrupt{Node: "ask", When: graph.InterruptInside, Payload: json.RawMessage(`{"q":"sure?"}`)}
		want[2].Next = graph.END
		for _, c := range want {
			if err := s.Put(ctx, c); err != nil {
				t.Fatalf("Put(%d): %v", c.Seq, err)
			}
		}
		if err := s.Put(ctx, cp("other", 1, 0)); err != nil {
			t.Fatal(err)
		}
		latest, err := s.Get(ctx, "t", 0)
		if err != nil {
			t.Fatal(err)
		}
		same(t, latest, want[2])
		second, err := s.Get(ctx, "t", 2)
		if err != nil {
			t.Fatal(err)
		}
		same(t, second, want[1])
		if _, err := s.Get(ctx, "t", 9); !errors.Is(err, graph.ErrNoCheckpoint) {
			t.Errorf("Get(9) = %v, want ErrNoCheckpoint", err)
		}
		list, err := s.List(ctx, "t")
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != len(want) {
			t.Fatalf("List returned %d checkpoints, want %d", len(list), len(want))
		}
		for i := range want {
			same(t, list[i], want[i])
		}
	})

	t.Run("conflict", func(t *testing.T) {
		s := newStore(t)
		if err := s.Put(ctx, cp("t", 1, 0)); err != nil {
			t.Fatal(err)
		}
		if err := s.Put(ctx, cp("t", 1, 0)); !errors.Is(err, graph.ErrCheckpointConflict) {
			t.Fatalf("second Put of seq 1 = %v, want ErrCheckpointConflict", err)
		}
	})

	t.Run("concurrent writers of one seq: exactly one wins", func(t *testing.T) {
		s := newStore(t)
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = s.Put(ctx, cp("race", 1, 0))
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, graph.ErrCheckpointConflict):
				t.Errorf("Put: %v, want nil or ErrCheckpointConflict", err)
			}
		}
		if ok != 1 {
			t.Errorf("%d writers succeeded, want exactly 1", ok)
		}
	})

	t.Run("delete", func(t *testing.T) {
		s := newStore(t)
		for _, c := range []graph.Checkpoint{cp("t", 1, 0), cp("t", 2, 0), cp("keep", 1, 0)} {
			if err := s.Put(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Delete(ctx, "t"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, "t", 0); !errors.Is(err, graph.ErrNoCheckpoint) {
			t.Errorf("Get after Delete = %v, want ErrNoCheckpoint", err)
		}
		if _, err := s.Get(ctx, "keep", 0); err != nil {
			t.Errorf("Delete removed another thread: %v", err)
		}
	})

	t.Run("prune by count keeps the newest", func(t *testing.T) {
		s := newStore(t)
		for seq := int64(1); seq <= 10; seq++ {
			for _, th := range []string{"a", "b"} {
				if err := s.Put(ctx, cp(th, seq, 0)); err != nil {
					t.Fatal(err)
				}
			}
		}
		n, err := s.Prune(ctx, "a", graph.Retention{KeepLast: 3})
		if err != nil {
			t.Fatal(err)
		}
		if n != 7 {
			t.Errorf("Prune removed %d, want 7", n)
		}
		seqs(t, s, "a", 8, 9, 10)
		seqs(t, s, "b", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
		if n, err = s.Prune(ctx, "", graph.Retention{KeepLast: 2}); err != nil || n != 9 {
			t.Errorf("Prune of every thread removed %d (%v), want 9", n, err)
		}
		seqs(t, s, "a", 9, 10)
		seqs(t, s, "b", 9, 10)
	})

	t.Run("threads by prefix", func(t *testing.T) {
		s := newStore(t)
		tl, ok := s.(ThreadLister)
		if !ok {
			t.Skipf("%T does not list its threads (no ThreadLister)", s)
		}
		for _, thread := range []string{"b/two", "a/one", "b/one", "b_x", "b%"} {
			for seq := int64(1); seq <= 2; seq++ {
				if err := s.Put(ctx, cp(thread, seq, 0)); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, c := range []struct{ prefix, want string }{
			{"", "[a/one b% b/one b/two b_x]"},
			{"b/", "[b/one b/two]"},
			{"b%", "[b%]"}, // a prefix is a string, not a LIKE pattern
			{"b_", "[b_x]"},
			{"c", "[]"},
		} {
			got, err := tl.Threads(ctx, c.prefix)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != c.want {
				t.Errorf("Threads(%q) = %v, want %s", c.prefix, got, c.want)
			}
		}
	})

	t.Run("prune by age never drops the latest", func(t *testing.T) {
		s := newStore(t)
		for seq := int64(1); seq <= 4; seq++ {
			age := time.Duration(0)
			if seq <= 3 {
				age = 48 * time.Hour
			}
			if err := s.Put(ctx, cp("t", seq, age)); err != nil {
				t.Fatal(err)
			}
			if err := s.Put(ctx, cp("old", seq, 48*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Prune(ctx, "", graph.Retention{MaxAge: time.Hour}); err != nil {
			t.Fatal(err)
		}
		seqs(t, s, "t", 4)
		seqs(t, s, "old", 4)
	})
}

func same(t *testing.T, got, want graph.Checkpoint) {
	t.Helper()
	g, _ := json.Marshal(normal(got))
	w, _ := json.Marshal(normal(want))
	if string(g) != string(w) {
		t.Errorf("checkpoint\n got %s\nwant %s", g, w)
	}
}

// normal makes two equal checkpoints compare equal whatever the store did to
// the JSON's spacing and the time's location.
func normal(c graph.Checkpoint) graph.Checkpoint {
	c.Created = c.Created.UTC().Truncate(time.Microsecond)
	c.State = compact(c.State)
	if c.Interrupt != nil {
		pi := *c.Interrupt
		pi.Payload = compact(pi.Payload)
		c.Interrupt = &pi
	}
	return c
}

func compact(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	b, _ := json.Marshal(v)
	return b
}

func seqs(t *testing.T, s graph.CheckpointStore, thread string, want ...int64) {
	t.Helper()
	list, err := s.List(context.Background(), thread)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, c := range list {
		got = append(got, c.Seq)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("thread %q holds checkpoints %v, want %v", thread, got, want)
	}
}
