package main

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/conversation"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/graph/checkpoint/postgres"
	"github.com/graphrag/graphrag/graph/checkpoint/sqlite"
	"github.com/graphrag/graphrag/nodes"
	"github.com/graphrag/graphrag/retrievers/pgvector"
	"github.com/graphrag/graphrag/server"
)

// Conversations named with --thread (run, chat) or {"thread": ...} (serve)
// are kept in a checkpoint store beside the document store: for a SQLite
// store the sibling file <store>.threads.db, for PostgreSQL the
// graph_checkpoints table in graphrag's schema, thread names prefixed with
// the collection.

// threadHistoryTurns is how many past turns `run --thread` gives the models:
// chat's --history default.
const threadHistoryTurns = 6

// threadsPath is the SQLite file that keeps the conversations of the
// SQLite store at storePath.
func threadsPath(storePath string) string { return storePath + ".threads.db" }

// openThreads opens the conversation store beside the configured store,
// creating its table if needed. The caller calls close.
func (a *app) openThreads(ctx context.Context) (_ *conversation.Store, closeFn func() error, err error) {
	var (
		cp   graph.CheckpointStore
		opts conversation.Options
	)
	if isPostgresURL(a.store) {
		pool, err := pgvector.Connect(ctx, a.store, pgvector.Options{Schema: a.schema, MaxConns: 2})
		if err != nil {
			return nil, nil, fmt.Errorf("open the conversation threads: %w", err)
		}
		saver := postgres.New(pool)
		if err := saver.Migrate(ctx); err != nil {
			pool.Close()
			return nil, nil, fmt.Errorf("open the conversation threads: %w", err)
		}
		cp, closeFn = saver, func() error { pool.Close(); return nil }
		collection := a.collection
		if collection == "" {
			collection = "default"
		}
		opts.Prefix = collection + "/"
	} else {
		path := threadsPath(a.store)
		dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_txlock=immediate"
		db, err := sql.Open("sqlite", dsn)
		if err != nil {
			return nil, nil, fmt.Errorf("open the conversation threads %s: %w", path, err)
		}
		saver := sqlite.New(db)
		if err := saver.Migrate(ctx); err != nil {
			db.Close()
			return nil, nil, fmt.Errorf("open the conversation threads %s: %w (is its directory writable?)", path, err)
		}
		cp, closeFn = saver, db.Close
	}
	return conversation.New(cp, opts), closeFn, nil
}

// thread is one command's conversation kept under a name.
type thread struct {
	name  string
	store *conversation.Store
	close func() error
}

// openThread opens the conversation called name; nil when name is "".
func (a *app) openThread(ctx context.Context, name string) (*thread, error) {
	if name == "" {
		return nil, nil
	}
	if err := conversation.CheckName(name); err != nil {
		return nil, fmt.Errorf("--thread: %w", err)
	}
	st, closeFn, err := a.openThreads(ctx)
	if err != nil {
		return nil, err
	}
	return &thread{name: name, store: st, close: closeFn}, nil
}

func (t *thread) Close() error {
	if t == nil {
		return nil
	}
	return t.close()
}

// history returns the thread's last n turns (none without a thread).
func (t *thread) history(ctx context.Context, n int) ([]graphrag.Turn, error) {
	if t == nil {
		return nil, nil
	}
	h, err := t.store.History(ctx, t.name)
	if err != nil {
		return nil, err
	}
	if len(h) > n {
		h = h[len(h)-n:]
	}
	return h, nil
}

// save appends the turn a run answered: the question as it was asked
// (after follow-up resolution) and the answer.
func (t *thread) save(ctx context.Context, asked string, final nodes.State) error {
	if t == nil {
		return nil
	}
	// A turn that was answered is kept even if Ctrl-C comes now.
	return t.store.Append(context.WithoutCancel(ctx), t.name, graphrag.Turn{Query: asked, Answer: final.Answer.Text})
}

// forget deletes the thread.
func (t *thread) forget(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.store.Delete(ctx, t.name)
}

// threadState is the initial state of a question asked in th: its recent
// turns as History, and a follow-up's pronoun resolved as chat does.
func (a *app) threadState(ctx context.Context, th *thread, q string) (nodes.State, error) {
	h, err := th.history(ctx, threadHistoryTurns)
	if err != nil {
		return nodes.State{}, err
	}
	if len(h) > 0 {
		if resolved, ok := resolveFollowUp(q, h[len(h)-1].Query); ok {
			q = resolved
			if !a.quiet {
				fmt.Fprintf(a.io.err, "(taking it as: %s)\n", q)
			}
		}
	}
	return nodes.State{Query: q, History: h}, nil
}

// recentTurns gives serve's queries only a thread's last n turns, as
// `run --thread` sees them.
type recentTurns struct {
	*conversation.Store
	n int
}

func (r recentTurns) History(ctx context.Context, name string) ([]graphrag.Turn, error) {
	h, err := r.Store.History(ctx, name)
	if len(h) > r.n {
		h = h[len(h)-r.n:]
	}
	return h, err
}

var _ server.Threads = recentTurns{}
