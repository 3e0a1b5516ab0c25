package conversation_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/conversation"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/graph/checkpoint/sqlite"
)

func sqliteSaver(t *testing.T, path string) *sqlite.Saver { return sqliteSaverTB(t, path) }

func sqliteSaverTB(t testing.TB, path string) *sqlite.Saver {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cp := sqlite.New(db)
	if err := cp.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return cp
}

func TestHistoryAndAppend(t *testing.T) {
	ctx := context.Background()
	stores := map[string]func(t *testing.T) graph.CheckpointStore{
		"memory": func(*testing.T) graph.CheckpointStore { return graph.NewMemorySaver() },
		"sqlite": func(t *testing.T) graph.CheckpointStore {
			return sqliteSaver(t, filepath.Join(t.TempDir(), "threads.db"))
		},
	}
	for name, newStore := range stores {
		t.Run(name, func(t *testing.T) {
			cp := newStore(t)
			s := conversation.New(cp, conversation.Options{MaxTurns: 3, KeepLast: 2})
			if h, err := s.History(ctx, "new"); err != nil || h != nil {
				t.Fatalf("History of a new thread = %v, %v; want none", h, err)
			}
			for i := 1; i <= 4; i++ {
				if err := s.Append(ctx, "a", graphrag.Turn{Query: fmt.Sprint("q", i), Answer: fmt.Sprint("a", i)}); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Append(ctx, "b", graphrag.Turn{Query: "other"}); err != nil {
				t.Fatal(err)
			}
			h, err := s.History(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			want := []graphrag.Turn{{Query: "q2", Answer: "a2"}, {Query: "q3", Answer: "a3"}, {Query: "q4", Answer: "a4"}}
			if fmt.Sprint(h) != fmt.Sprint(want) {
				t.Errorf("History = %v, want the last 3 turns %v", h, want)
			}
			t.Run("pruned to KeepLast", func(t *testing.T) {
				cps, err := cp.List(ctx, "a")
				if err != nil {
					t.Fatal(err)
				}
				if len(cps) != 2 || cps[1].Seq != 4 {
					t.Errorf("thread a has %d checkpoints (last %+v), want the newest 2", len(cps), cps)
				}
			})
			t.Run("delete", func(t *testing.T) {
				if err := s.Delete(ctx, "a"); err != nil {
					t.Fatal(err)
				}
				if h, _ := s.History(ctx, "a"); h != nil {
					t.Errorf("History after Delete = %v", h)
				}
				if h, _ := s.History(ctx, "b"); len(h) != 1 {
					t.Errorf("Delete of a touched b: %v", h)
				}
			})
		})
	}
}

func TestHistorySurvivesReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "threads.db")
	if err := conversation.New(sqliteSaver(t, path), conversation.Options{}).Append(ctx, "t", graphrag.Turn{Query: "q", Answer: "a"}); err != nil {
		t.Fatal(err)
	}
	h, err := conversation.New(sqliteSaver(t, path), conversation.Options{}).History(ctx, "t")
	if err != nil || len(h) != 1 || h[0].Query != "q" {
		t.Fatalf("History after reopening = %v, %v", h, err)
	}
}

// Concurrent appends to one thread (two serve requests) lose no turn.
func TestConcurrentAppendsKeepEveryTurn(t *testing.T) {
	ctx := context.Background()
	s := conversation.New(graph.NewMemorySaver(), conversation.Options{})
	const n = 4
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.Append(ctx, "t", graphrag.Turn{Query: fmt.Sprint(i)})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if h, _ := s.History(ctx, "t"); len(h) != n {
		t.Errorf("History has %d turns, want %d", len(h), n)
	}
}

func TestPrefixSeparatesStores(t *testing.T) {
	ctx := context.Background()
	cp := graph.NewMemorySaver()
	a := conversation.New(cp, conversation.Options{Prefix: "a/"})
	b := conversation.New(cp, conversation.Options{Prefix: "b/"})
	if err := a.Append(ctx, "t", graphrag.Turn{Query: "q"}); err != nil {
		t.Fatal(err)
	}
	if h, _ := b.History(ctx, "t"); h != nil {
		t.Errorf("another prefix sees the thread: %v", h)
	}
}

func TestBadNames(t *testing.T) {
	s := conversation.New(graph.NewMemorySaver(), conversation.Options{})
	for _, name := range []string{"", "  ", "a\nb", string(make([]byte, conversation.MaxNameLen+1))} {
		if _, err := s.History(context.Background(), name); !errors.Is(err, conversation.ErrBadName) {
			t.Errorf("History(%q) = %v, want ErrBadName", name, err)
		}
	}
}

func TestList(t *testing.T) {
	ctx := context.Background()
	cp := sqliteSaver(t, filepath.Join(t.TempDir(), "threads.db"))
	s := conversation.New(cp, conversation.Options{Prefix: "c1/"})
	other := conversation.New(cp, conversation.Options{Prefix: "c2/"})
	for _, name := range []string{"b", "a", "b"} {
		if err := s.Append(ctx, name, graphrag.Turn{Query: "q " + name}); err != nil {
			t.Fatal(err)
		}
	}
	if err := other.Append(ctx, "z", graphrag.Turn{Query: "elsewhere"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "a" || got[0].Turns != 1 || got[1].Name != "b" || got[1].Turns != 2 || got[1].Last != "q b" || got[1].Updated.IsZero() {
		t.Errorf("List = %+v", got)
	}
	if _, err := conversation.New(graph.NewMemorySaver(), conversation.Options{}).List(ctx); !errors.Is(err, conversation.ErrCannotList) {
		t.Errorf("List on a store that cannot list = %v", err)
	}
}
