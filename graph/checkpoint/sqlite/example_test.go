package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/graph/checkpoint/sqlite"
)

// A conversation kept in a SQLite file: each turn is a run of the thread,
// and a new process picks it up where the last one left it.
func Example() {
	dir, _ := os.MkdirTemp("", "graphrag-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	type Chat struct{ Turns []string }
	newRunnable := func() (*graph.Runnable[Chat], *sql.DB) {
		db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "chat.db")+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
		if err != nil {
			panic(err)
		}
		cp := sqlite.New(db)
		if err := cp.Migrate(ctx); err != nil { // DDL runs here, never in New
			panic(err)
		}
		g := graph.NewStateGraph[Chat]()
		g.AddNode("reply", func(_ context.Context, c Chat) (Chat, error) {
			c.Turns = append(c.Turns, fmt.Sprintf("reply %d", len(c.Turns)/2+1))
			return c, nil
		})
		g.SetEntryPoint("reply")
		g.AddEdge("reply", graph.END)
		r, err := g.Compile(graph.WithCheckpointer(cp), graph.WithRetention(graph.Retention{KeepLast: 10}))
		if err != nil {
			panic(err)
		}
		return r, db
	}

	// First process: one turn.
	r, db := newRunnable()
	if _, err := r.Invoke(ctx, Chat{Turns: []string{"hello"}}, graph.WithThread("chat-1")); err != nil {
		panic(err)
	}
	db.Close()

	// Second process: load the thread's state, add the user's turn, run.
	r, db = newRunnable()
	defer db.Close()
	c, _, err := r.State(ctx, "chat-1", 0)
	if err != nil {
		panic(err)
	}
	c.Turns = append(c.Turns, "and backups?")
	c, err = r.Invoke(ctx, c, graph.WithThread("chat-1"))
	fmt.Println(c.Turns, err)
	// Output: [hello reply 1 and backups? reply 2] <nil>
}
