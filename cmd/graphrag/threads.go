package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"text/tabwriter"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/conversation"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/graph/checkpoint/postgres"
	"github.com/graphrag/graphrag/graph/checkpoint/sqlite"
	"github.com/graphrag/graphrag/nodes"
	"github.com/graphrag/graphrag/retrievers/pgvector"
	"github.com/graphrag/graphrag/server"
	"github.com/spf13/cobra"
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

func (a *app) threadsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "threads",
		Short: "List the conversations kept with --thread",
		Long: `List the conversations that run --thread, chat --thread and serve's
{"thread": ...} keep: each name, how many turns, the last question and when.
They live beside the store (` + "`<store>.threads.db`" + ` for a SQLite store, the
graph_checkpoints table for PostgreSQL, per collection).`,
		Example: `  graphrag threads
  graphrag threads show backups
  graphrag threads rm backups`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			out := cmd.OutOrStdout()
			var list []conversation.Thread
			if a.hasThreads() {
				st, closeFn, err := a.openThreads(ctx)
				if err != nil {
					return err
				}
				defer closeFn()
				if list, err = st.List(ctx); err != nil {
					return err
				}
			}
			if asJSON {
				if list == nil {
					list = []conversation.Thread{}
				}
				return writeIndentedJSON(out, list)
			}
			if len(list) == 0 {
				fmt.Fprintln(out, "No conversations yet: start one with `graphrag chat --thread NAME` or `graphrag run --thread NAME \"question\"`.")
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "THREAD\tTURNS\tUPDATED\tLAST QUESTION")
			for _, t := range list {
				fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", t.Name, t.Turns, t.Updated.Local().Format("2006-01-02 15:04"), truncate(t.Last, 60))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	cmd.AddCommand(a.threadsShowCmd(), a.threadsRmCmd())
	return cmd
}

// hasThreads reports whether conversations may exist, without creating
// the threads file of a SQLite store.
func (a *app) hasThreads() bool {
	if isPostgresURL(a.store) {
		return true
	}
	_, err := os.Stat(threadsPath(a.store))
	return err == nil
}

func (a *app) threadsShowCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Print a conversation's turns",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			th, err := a.openThread(ctx, args[0])
			if err != nil {
				return err
			}
			defer th.Close()
			h, err := th.store.History(ctx, th.name)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				turns := make([]server.Turn, len(h))
				for i, t := range h {
					turns[i] = server.Turn{Query: t.Query, Answer: t.Answer}
				}
				return writeIndentedJSON(out, turns)
			}
			if len(h) == 0 {
				return fmt.Errorf("no conversation called %q: `graphrag threads` lists them", th.name)
			}
			for i, t := range h {
				fmt.Fprintf(out, "[%d] %s\n%s\n\n", i+1, t.Query, t.Answer)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the turns as JSON")
	return cmd
}

func (a *app) threadsRmCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rm NAME...",
		Short: "Delete conversations",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if !a.hasThreads() {
				return fmt.Errorf("no conversation called %q: `graphrag threads` lists them", args[0])
			}
			st, closeFn, err := a.openThreads(ctx)
			if err != nil {
				return err
			}
			defer closeFn()
			for _, name := range args {
				h, err := st.History(ctx, name)
				if err != nil {
					return err
				}
				if h == nil {
					return fmt.Errorf("no conversation called %q: `graphrag threads` lists them", name)
				}
				if err := st.Delete(ctx, name); err != nil {
					return err
				}
				if !a.quiet {
					fmt.Fprintf(cmd.OutOrStdout(), "deleted %s (%d turns)\n", name, len(h))
				}
			}
			return nil
		},
	}
}

func writeIndentedJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

var (
	_ conversation.Lister = (*sqlite.Saver)(nil)
	_ conversation.Lister = (*postgres.Saver)(nil)
)
