// Package sqlite stores graph checkpoints in a SQLite database, so that a
// graph's runs survive the process: a run killed mid-way resumes at the
// step after the last one that completed, and a paused run waits on disk
// for its answer.
//
// The caller opens the database (with modernc.org/sqlite, the driver
// graphrag uses, or any database/sql SQLite driver) and creates the table
// once with Migrate; New runs no SQL:
//
//	db, _ := sql.Open("sqlite", "file:runs.db?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
//	cp := sqlite.New(db)
//	if err := cp.Migrate(ctx); err != nil { ... }
//	r, _ := g.Compile(graph.WithCheckpointer(cp))
//	r.Invoke(ctx, s, graph.WithThread("conversation-42"))
//
// Checkpoints live in their own table, graph_checkpoints, keyed by thread
// and sequence number; the state is stored as the JSON the engine wrote.
package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/graphrag/graphrag/graph"
)

// Saver is a graph.CheckpointStore on a SQLite database.
type Saver struct {
	db *sql.DB
}

var _ graph.CheckpointStore = (*Saver)(nil)

// New returns a Saver on db. It runs no SQL: call Migrate once (at
// start-up or in your migration step) before the first run.
func New(db *sql.DB) *Saver { return &Saver{db: db} }

// schema is the table's DDL; Migrate applies it.
const schema = `
CREATE TABLE IF NOT EXISTS graph_checkpoints (
	thread    TEXT    NOT NULL,
	seq       INTEGER NOT NULL,
	parent    INTEGER NOT NULL DEFAULT 0,
	step      INTEGER NOT NULL,
	node      TEXT    NOT NULL DEFAULT '',
	next      TEXT    NOT NULL DEFAULT '',
	version   INTEGER NOT NULL,
	state     TEXT    NOT NULL,
	interrupt TEXT,
	created   INTEGER NOT NULL, -- Unix microseconds, UTC
	PRIMARY KEY (thread, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS graph_checkpoints_created ON graph_checkpoints (created);
`

// Migrate creates the checkpoint table and its index if they do not exist.
// It is idempotent.
func (s *Saver) Migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("sqlite checkpointer: migrate: %w", err)
	}
	return nil
}

// Put implements graph.Checkpointer.
func (s *Saver) Put(ctx context.Context, c graph.Checkpoint) error {
	var interrupt sql.NullString
	if c.Interrupt != nil {
		b, err := json.Marshal(c.Interrupt)
		if err != nil {
			return fmt.Errorf("sqlite checkpointer: encode interrupt: %w", err)
		}
		interrupt = sql.NullString{String: string(b), Valid: true}
	}
	res, err := s.db.ExecContext(ctx, `
INSERT INTO graph_checkpoints (thread, seq, parent, step, node, next, version, state, interrupt, created)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (thread, seq) DO NOTHING`,
		c.Thread, c.Seq, c.Parent, c.Step, c.Node, c.Next, c.Version, string(c.State), interrupt, c.Created.UnixMicro())
	if err != nil {
		return fmt.Errorf("sqlite checkpointer: put %s#%d: %w (did you call Migrate?)", c.Thread, c.Seq, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlite checkpointer: put %s#%d: %w", c.Thread, c.Seq, err)
	} else if n == 0 {
		return fmt.Errorf("sqlite checkpointer: checkpoint %s#%d already exists: %w", c.Thread, c.Seq, graph.ErrCheckpointConflict)
	}
	return nil
}

const columns = `thread, seq, parent, step, node, next, version, state, interrupt, created`

// Get implements graph.Checkpointer.
func (s *Saver) Get(ctx context.Context, thread string, seq int64) (graph.Checkpoint, error) {
	var row *sql.Row
	if seq == 0 {
		row = s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM graph_checkpoints WHERE thread = ? ORDER BY seq DESC LIMIT 1`, thread)
	} else {
		row = s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM graph_checkpoints WHERE thread = ? AND seq = ?`, thread, seq)
	}
	c, err := scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		if seq == 0 {
			return c, fmt.Errorf("sqlite checkpointer: thread %q: %w", thread, graph.ErrNoCheckpoint)
		}
		return c, fmt.Errorf("sqlite checkpointer: checkpoint %s#%d: %w", thread, seq, graph.ErrNoCheckpoint)
	}
	if err != nil {
		return c, fmt.Errorf("sqlite checkpointer: get %s#%d: %w", thread, seq, err)
	}
	return c, nil
}

// List implements graph.Checkpointer.
func (s *Saver) List(ctx context.Context, thread string) ([]graph.Checkpoint, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+columns+` FROM graph_checkpoints WHERE thread = ? ORDER BY seq`, thread)
	if err != nil {
		return nil, fmt.Errorf("sqlite checkpointer: list %q: %w", thread, err)
	}
	defer rows.Close()
	var out []graph.Checkpoint
	for rows.Next() {
		c, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite checkpointer: list %q: %w", thread, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite checkpointer: list %q: %w", thread, err)
	}
	return out, nil
}

// Delete implements graph.CheckpointStore.
func (s *Saver) Delete(ctx context.Context, thread string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM graph_checkpoints WHERE thread = ?`, thread); err != nil {
		return fmt.Errorf("sqlite checkpointer: delete %q: %w", thread, err)
	}
	return nil
}

// Prune implements graph.CheckpointStore with one statement: rank each
// thread's checkpoints newest first, keep the newest, drop those past
// KeepLast or older than MaxAge (graph.Retention.Drops in SQL).
func (s *Saver) Prune(ctx context.Context, thread string, r graph.Retention) (int64, error) {
	if r == (graph.Retention{}) {
		return 0, nil
	}
	var cutoff int64
	if r.MaxAge > 0 {
		cutoff = time.Now().Add(-r.MaxAge).UnixMicro()
	}
	res, err := s.db.ExecContext(ctx, `
DELETE FROM graph_checkpoints WHERE (thread, seq) IN (
	SELECT thread, seq FROM (
		SELECT thread, seq, created, ROW_NUMBER() OVER (PARTITION BY thread ORDER BY seq DESC) AS rn
		FROM graph_checkpoints WHERE ?1 = '' OR thread = ?1
	) WHERE rn > 1 AND ((?2 > 0 AND rn > ?2) OR (?3 > 0 AND created < ?3))
)`, thread, r.KeepLast, cutoff)
	if err != nil {
		return 0, fmt.Errorf("sqlite checkpointer: prune %q: %w", thread, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("sqlite checkpointer: prune %q: %w", thread, err)
	}
	return n, nil
}

func scan(row interface{ Scan(...any) error }) (graph.Checkpoint, error) {
	var (
		c         graph.Checkpoint
		state     string
		interrupt sql.NullString
		created   int64
	)
	if err := row.Scan(&c.Thread, &c.Seq, &c.Parent, &c.Step, &c.Node, &c.Next, &c.Version, &state, &interrupt, &created); err != nil {
		return c, err
	}
	c.State = json.RawMessage(state)
	c.Created = time.UnixMicro(created).UTC()
	if interrupt.Valid {
		c.Interrupt = new(graph.PendingInterrupt)
		if err := json.Unmarshal([]byte(interrupt.String), c.Interrupt); err != nil {
			return c, fmt.Errorf("decode interrupt: %w", err)
		}
	}
	return c, nil
}
