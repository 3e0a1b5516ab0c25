// Package conversation keeps multi-turn conversations as threads of a
// graph.CheckpointStore, so that `graphrag run --thread NAME`, `graphrag
// chat --thread NAME` and `serve`'s {"thread": NAME} see the turns asked
// before, in this process or an earlier one.
//
// Each turn appends one checkpoint to the conversation's thread; its state
// is the whole conversation so far (the last MaxTurns turns), so the latest
// checkpoint alone answers History, and older checkpoints are pruned to
// KeepLast after every append so that the table stays bounded. The store is
// any CheckpointStore: graph.MemorySaver, graph/checkpoint/sqlite or
// graph/checkpoint/postgres.
//
//	threads := conversation.New(sqlite.New(db), conversation.Options{})
//	h, _ := threads.History(ctx, "backups")
//	final, _ := r.Invoke(ctx, nodes.State{Query: q, History: h})
//	threads.Append(ctx, "backups", graphrag.Turn{Query: q, Answer: final.Answer.Text})
package conversation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// Defaults of Options.
const (
	// DefaultMaxTurns is how many turns a conversation keeps: well above
	// the 6 turns chat shows the models by default (--history), small
	// enough that one checkpoint stays a few kilobytes.
	DefaultMaxTurns = 50
	// DefaultKeepLast is how many checkpoints of a thread survive each
	// append. Each checkpoint holds the whole conversation, so the latest
	// is enough to continue; the few before it let a turn be undone.
	DefaultKeepLast = 5
	// appendAttempts bounds the retries of an append that lost a race
	// with another append to the same thread.
	appendAttempts = 5
)

// stateVersion is the schema version of the checkpointed state.
const stateVersion = 1

// turnNode is the node name recorded on each checkpoint.
const turnNode = "turn"

// MaxNameLen bounds a thread name.
const MaxNameLen = 200

// ErrBadName: a thread name is empty, too long or has control characters.
var ErrBadName = errors.New("bad thread name")

// Options tune a Store; the zero value uses the defaults.
type Options struct {
	// MaxTurns bounds the turns a conversation keeps (oldest dropped).
	MaxTurns int
	// KeepLast is how many checkpoints of each thread survive an append.
	KeepLast int
	// Prefix is put before each thread name in the checkpoint store, so
	// that several stores (e.g. PostgreSQL collections) can share one table.
	Prefix string
}

// Store keeps conversations in a CheckpointStore. It is safe for
// concurrent use; concurrent appends to one thread are serialised by the
// checkpoint store's conflict detection.
type Store struct {
	cp   graph.CheckpointStore
	opts Options
}

// New returns a Store over cp.
func New(cp graph.CheckpointStore, opts Options) *Store {
	if opts.MaxTurns <= 0 {
		opts.MaxTurns = DefaultMaxTurns
	}
	if opts.KeepLast <= 0 {
		opts.KeepLast = DefaultKeepLast
	}
	return &Store{cp: cp, opts: opts}
}

// state is what each checkpoint holds.
type state struct {
	Turns []turn `json:"turns"`
}

type turn struct {
	Query  string    `json:"query"`
	Answer string    `json:"answer"`
	At     time.Time `json:"at,omitzero"`
}

// CheckName reports whether name can name a thread.
func CheckName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("%w: a thread needs a name, e.g. --thread backups", ErrBadName)
	case len(name) > MaxNameLen:
		return fmt.Errorf("%w: %q… is longer than %d bytes", ErrBadName, name[:20], MaxNameLen)
	case strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }):
		return fmt.Errorf("%w: %q has control characters", ErrBadName, name)
	}
	return nil
}

func (s *Store) key(name string) string { return s.opts.Prefix + name }

// load returns the thread's latest checkpoint (Seq 0 when it has none)
// and its conversation.
func (s *Store) load(ctx context.Context, name string) (graph.Checkpoint, state, error) {
	var st state
	if err := CheckName(name); err != nil {
		return graph.Checkpoint{}, st, err
	}
	c, err := s.cp.Get(ctx, s.key(name), 0)
	if errors.Is(err, graph.ErrNoCheckpoint) {
		return graph.Checkpoint{}, st, nil
	}
	if err != nil {
		return c, st, fmt.Errorf("conversation %q: %w", name, err)
	}
	if c.Version > stateVersion {
		return c, st, fmt.Errorf("conversation %q was written by a newer graphrag (state version %d, this one reads %d): %w",
			name, c.Version, stateVersion, graph.ErrStateVersion)
	}
	if err := json.Unmarshal(c.State, &st); err != nil {
		return c, st, fmt.Errorf("conversation %q: decode checkpoint %d: %w; delete the thread to start it again", name, c.Seq, err)
	}
	return c, st, nil
}

// History returns the thread's turns, oldest first; none for a thread
// that does not exist yet.
func (s *Store) History(ctx context.Context, name string) ([]graphrag.Turn, error) {
	_, st, err := s.load(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(st.Turns) == 0 {
		return nil, nil
	}
	out := make([]graphrag.Turn, len(st.Turns))
	for i, t := range st.Turns {
		out[i] = graphrag.Turn{Query: t.Query, Answer: t.Answer}
	}
	return out, nil
}

// Append adds t to the thread (creating it) and prunes the thread's older
// checkpoints.
func (s *Store) Append(ctx context.Context, name string, t graphrag.Turn) error {
	for attempt := 1; ; attempt++ {
		err := s.appendOnce(ctx, name, t)
		if err == nil || !errors.Is(err, graph.ErrCheckpointConflict) || attempt == appendAttempts {
			if err != nil {
				return fmt.Errorf("conversation %q: save the turn: %w", name, err)
			}
			break
		}
	}
	if _, err := s.cp.Prune(ctx, s.key(name), graph.Retention{KeepLast: s.opts.KeepLast}); err != nil {
		return fmt.Errorf("conversation %q: prune old checkpoints: %w", name, err)
	}
	return nil
}

func (s *Store) appendOnce(ctx context.Context, name string, t graphrag.Turn) error {
	last, st, err := s.load(ctx, name)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	st.Turns = append(st.Turns, turn{Query: t.Query, Answer: t.Answer, At: now})
	if n := len(st.Turns) - s.opts.MaxTurns; n > 0 {
		st.Turns = st.Turns[n:]
	}
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return s.cp.Put(ctx, graph.Checkpoint{
		Thread: s.key(name), Seq: last.Seq + 1, Parent: last.Seq, Step: 1,
		Node: turnNode, Next: graph.END, Version: stateVersion, State: data, Created: now,
	})
}

// Delete forgets the thread.
func (s *Store) Delete(ctx context.Context, name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	if err := s.cp.Delete(ctx, s.key(name)); err != nil {
		return fmt.Errorf("conversation %q: delete: %w", name, err)
	}
	return nil
}
