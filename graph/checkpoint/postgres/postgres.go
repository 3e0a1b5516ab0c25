// Package postgres stores graph checkpoints in PostgreSQL through pgx, so
// that a graph's runs survive the process and can be resumed by any
// replica of a service.
//
// Every statement is sent with pgx's simple protocol
// (pgx.QueryExecModeSimpleProtocol): no prepared statements are created or
// cached on the server, so the Saver works behind a connection pooler in
// transaction mode (PgBouncer, Supavisor, RDS Proxy) whatever the pool's
// own exec mode is.
//
// The table is created by Migrate, or by running schema.sql (embedded as
// Schema) with your migration tool; New runs no SQL.
//
//	pool, _ := pgxpool.New(ctx, url)
//	cp := postgres.New(pool)
//	if err := cp.Migrate(ctx); err != nil { ... }
//	r, _ := g.Compile(graph.WithCheckpointer(cp))
package postgres

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/graphrag/graphrag/graph"
)

// Schema is the DDL of the checkpoint table (schema.sql).
//
//go:embed schema.sql
var Schema string

// DB is what the Saver needs of a connection: *pgxpool.Pool, *pgx.Conn and
// pgx.Tx all have it.
type DB interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Saver is a graph.CheckpointStore on PostgreSQL.
type Saver struct {
	db DB
}

var _ graph.CheckpointStore = (*Saver)(nil)

// New returns a Saver on db. It runs no SQL: call Migrate once before the
// first run.
func New(db DB) *Saver { return &Saver{db: db} }

// simple makes each statement a plain query: nothing prepared, nothing a
// transaction-mode pooler could route to the wrong server connection.
const simple = pgx.QueryExecModeSimpleProtocol

// Migrate creates the checkpoint table and its index in the connection's
// search_path if they do not exist.
func (s *Saver) Migrate(ctx context.Context) error {
	if _, err := s.db.Exec(ctx, Schema, simple); err != nil {
		return fmt.Errorf("postgres checkpointer: migrate: %w", err)
	}
	return nil
}

// Put implements graph.Checkpointer.
func (s *Saver) Put(ctx context.Context, c graph.Checkpoint) error {
	var interrupt *string
	if c.Interrupt != nil {
		b, err := json.Marshal(c.Interrupt)
		if err != nil {
			return fmt.Errorf("postgres checkpointer: encode interrupt: %w", err)
		}
		str := string(b)
		interrupt = &str
	}
	tag, err := s.db.Exec(ctx, `
INSERT INTO graph_checkpoints (thread, seq, parent, step, node, next, version, state, interrupt, created)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10)
ON CONFLICT (thread, seq) DO NOTHING`, simple,
		c.Thread, c.Seq, c.Parent, c.Step, c.Node, c.Next, c.Version, string(c.State), interrupt, c.Created.UTC())
	if err != nil {
		return fmt.Errorf("postgres checkpointer: put %s#%d: %w (did you call Migrate?)", c.Thread, c.Seq, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres checkpointer: checkpoint %s#%d already exists: %w", c.Thread, c.Seq, graph.ErrCheckpointConflict)
	}
	return nil
}

const columns = `thread, seq, parent, step, node, next, version, state::text, interrupt::text, created`

// Get implements graph.Checkpointer.
func (s *Saver) Get(ctx context.Context, thread string, seq int64) (graph.Checkpoint, error) {
	var row pgx.Row
	if seq == 0 {
		row = s.db.QueryRow(ctx, `SELECT `+columns+` FROM graph_checkpoints WHERE thread = $1 ORDER BY seq DESC LIMIT 1`, simple, thread)
	} else {
		row = s.db.QueryRow(ctx, `SELECT `+columns+` FROM graph_checkpoints WHERE thread = $1 AND seq = $2`, simple, thread, seq)
	}
	c, err := scan(row)
	if errors.Is(err, pgx.ErrNoRows) {
		if seq == 0 {
			return c, fmt.Errorf("postgres checkpointer: thread %q: %w", thread, graph.ErrNoCheckpoint)
		}
		return c, fmt.Errorf("postgres checkpointer: checkpoint %s#%d: %w", thread, seq, graph.ErrNoCheckpoint)
	}
	if err != nil {
		return c, fmt.Errorf("postgres checkpointer: get %s#%d: %w", thread, seq, err)
	}
	return c, nil
}

// List implements graph.Checkpointer.
func (s *Saver) List(ctx context.Context, thread string) ([]graph.Checkpoint, error) {
	rows, err := s.db.Query(ctx, `SELECT `+columns+` FROM graph_checkpoints WHERE thread = $1 ORDER BY seq`, simple, thread)
	if err != nil {
		return nil, fmt.Errorf("postgres checkpointer: list %q: %w", thread, err)
	}
	defer rows.Close()
	var out []graph.Checkpoint
	for rows.Next() {
		c, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres checkpointer: list %q: %w", thread, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres checkpointer: list %q: %w", thread, err)
	}
	return out, nil
}

// Delete implements graph.CheckpointStore.
func (s *Saver) Delete(ctx context.Context, thread string) error {
	if _, err := s.db.Exec(ctx, `DELETE FROM graph_checkpoints WHERE thread = $1`, simple, thread); err != nil {
		return fmt.Errorf("postgres checkpointer: delete %q: %w", thread, err)
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
	var cutoff *time.Time
	if r.MaxAge > 0 {
		t := time.Now().Add(-r.MaxAge).UTC()
		cutoff = &t
	}
	tag, err := s.db.Exec(ctx, `
DELETE FROM graph_checkpoints g USING (
	SELECT thread, seq, created, row_number() OVER (PARTITION BY thread ORDER BY seq DESC) AS rn
	FROM graph_checkpoints WHERE $1::text = '' OR thread = $1::text
) r
WHERE g.thread = r.thread AND g.seq = r.seq AND r.rn > 1
  AND (($2::int > 0 AND r.rn > $2::int) OR r.created < $3::timestamptz)`, simple, thread, r.KeepLast, cutoff)
	if err != nil {
		return 0, fmt.Errorf("postgres checkpointer: prune %q: %w", thread, err)
	}
	return tag.RowsAffected(), nil
}

func scan(row pgx.Row) (graph.Checkpoint, error) {
	var (
		c         graph.Checkpoint
		state     string
		interrupt *string
	)
	if err := row.Scan(&c.Thread, &c.Seq, &c.Parent, &c.Step, &c.Node, &c.Next, &c.Version, &state, &interrupt, &c.Created); err != nil {
		return c, err
	}
	c.State = json.RawMessage(state)
	c.Created = c.Created.UTC()
	if interrupt != nil {
		c.Interrupt = new(graph.PendingInterrupt)
		if err := json.Unmarshal([]byte(*interrupt), c.Interrupt); err != nil {
			return c, fmt.Errorf("decode interrupt: %w", err)
		}
	}
	return c, nil
}
