package graph

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// A Checkpoint is a run's position and state after a step, saved so that
// the run can resume there: after a crash, after an interrupt, or on
// purpose from an earlier point of the thread (time travel).
//
// A thread's checkpoints form an append-only log numbered by Seq (1, 2, ...);
// its latest checkpoint is the one with the highest Seq. A run resumed from
// an earlier checkpoint appends after the latest one, with Parent pointing
// at where it branched off.
type Checkpoint struct {
	Thread string `json:"thread"`
	Seq    int64  `json:"seq"`
	Parent int64  `json:"parent,omitempty"` // the checkpoint this one follows; 0 for a thread's first
	Step   int    `json:"step"`             // node runs in the thread's current run so far
	// Node is the node that just completed ("" before the first step).
	Node string `json:"node,omitempty"`
	// Next is the node to run next: END when the run is over, "" when the
	// edges of Node are still to be taken (a fan-out that had not run).
	Next string `json:"next,omitempty"`
	// Version is the state's schema version (WithStateVersion) and State
	// the state, as JSON.
	Version int             `json:"version"`
	State   json.RawMessage `json:"state"`
	// Interrupt is set when the run paused at this checkpoint.
	Interrupt *PendingInterrupt `json:"interrupt,omitempty"`
	Created   time.Time         `json:"created"`
}

// Done reports whether the run that wrote c reached END.
func (c Checkpoint) Done() bool { return c.Next == END }

// PendingInterrupt records why a run paused at a checkpoint, so that a
// process restarted later can still show the question it was asking.
type PendingInterrupt struct {
	Node    string          `json:"node"`
	When    InterruptWhen   `json:"when"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// Checkpointer stores checkpoints. The engine calls Put after every step
// of a run that has a thread (WithThread), and Get to resume. Implementations
// live outside this package (graph/checkpoint/sqlite,
// graph/checkpoint/postgres) except the in-memory MemorySaver.
type Checkpointer interface {
	// Put stores c. It fails with an error wrapping ErrCheckpointConflict
	// when the thread already has a checkpoint numbered c.Seq: another run
	// of the same thread got there first.
	Put(ctx context.Context, c Checkpoint) error
	// Get returns checkpoint seq of thread, or the thread's latest when seq
	// is 0. It fails with an error wrapping ErrNoCheckpoint when there is
	// none.
	Get(ctx context.Context, thread string, seq int64) (Checkpoint, error)
	// List returns the thread's checkpoints, oldest first.
	List(ctx context.Context, thread string) ([]Checkpoint, error)
}

// CheckpointStore is a Checkpointer whose history can be deleted and
// pruned. Every implementation in this module is one; WithRetention uses
// Prune when the Checkpointer has it.
type CheckpointStore interface {
	Checkpointer
	// Delete removes every checkpoint of thread.
	Delete(ctx context.Context, thread string) error
	// Prune removes the checkpoints of thread (of every thread when thread
	// is "") that r says to drop, and returns how many it removed.
	Prune(ctx context.Context, thread string, r Retention) (int64, error)
}

// Retention says which checkpoints Prune drops. A thread's latest
// checkpoint is always kept, so a thread can still resume.
type Retention struct {
	// KeepLast keeps the newest KeepLast checkpoints of each thread
	// (0: no limit by count).
	KeepLast int
	// MaxAge drops checkpoints older than MaxAge (0: no limit by age).
	MaxAge time.Duration
}

// Drops reports whether r drops checkpoint c, given how many newer
// checkpoints its thread has (0 for the latest) and the time now.
// Checkpointer implementations use it to implement Prune in memory, or
// mirror it in SQL.
func (r Retention) Drops(c Checkpoint, newer int, now time.Time) bool {
	if newer == 0 {
		return false
	}
	if r.KeepLast > 0 && newer >= r.KeepLast {
		return true
	}
	return r.MaxAge > 0 && c.Created.Before(now.Add(-r.MaxAge))
}

// Errors of checkpointers and durable runs.
var (
	// ErrNoCheckpoint: the thread has no checkpoint (with that number).
	ErrNoCheckpoint = errors.New("no checkpoint")
	// ErrCheckpointConflict: two runs of one thread wrote the same
	// checkpoint number; run one thread at a time.
	ErrCheckpointConflict = errors.New("checkpoint conflict")
	// ErrStateVersion: a checkpoint's state has a schema version this
	// graph cannot read (newer than its own, or older without a migration).
	ErrStateVersion = errors.New("unsupported state version")
	// ErrNoCheckpointer: a run asked for a thread, or a node interrupted,
	// but the graph was compiled without WithCheckpointer.
	ErrNoCheckpointer = errors.New("no checkpointer")
)

// MigrateFunc upgrades a checkpoint's state, written at schema version
// from, to the graph's current version. It is called once per load with
// the stored JSON and returns the JSON of the current version.
type MigrateFunc func(from int, state json.RawMessage) (json.RawMessage, error)

// WithCheckpointer makes runs with a thread (WithThread) durable: a
// checkpoint is saved after every step, and a run of a thread whose latest
// checkpoint is unfinished resumes from it.
func WithCheckpointer(cp Checkpointer) CompileOption {
	return func(c *compileConfig) { c.checkpointer = cp }
}

// WithStateVersion sets the schema version written with every checkpoint
// (default 1) and how to read checkpoints written by older versions. Bump
// the version when the state's JSON changes incompatibly (a field renamed
// or retyped) and give migrate the conversion; added fields need no bump.
func WithStateVersion(version int, migrate MigrateFunc) CompileOption {
	return func(c *compileConfig) {
		if version > 0 {
			c.stateVersion = version
			c.migrate = migrate
		}
	}
}

// WithRetention prunes a thread's checkpoints at the end of each of its
// runs (when the Checkpointer is a CheckpointStore), so that its history
// stays bounded.
func WithRetention(r Retention) CompileOption {
	return func(c *compileConfig) { c.retention = r }
}

// encodeState and decodeState convert a state to and from its checkpoint
// form.
func (r *Runnable[S]) encodeState(s S) (json.RawMessage, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("graph: encode state as JSON for the checkpoint: %w (checkpointed states must be JSON-serialisable)", err)
	}
	return b, nil
}

func (r *Runnable[S]) decodeState(c Checkpoint) (S, error) {
	var s S
	data := c.State
	switch {
	case c.Version > r.stateVersion:
		return s, fmt.Errorf("graph: checkpoint %s#%d has state version %d, newer than this graph's %d (written by a newer program?): %w",
			c.Thread, c.Seq, c.Version, r.stateVersion, ErrStateVersion)
	case c.Version < r.stateVersion:
		if r.migrate == nil {
			return s, fmt.Errorf("graph: checkpoint %s#%d has state version %d and this graph expects %d; give WithStateVersion a migration: %w",
				c.Thread, c.Seq, c.Version, r.stateVersion, ErrStateVersion)
		}
		var err error
		if data, err = r.migrate(c.Version, data); err != nil {
			return s, fmt.Errorf("graph: migrate checkpoint %s#%d from state version %d to %d: %w", c.Thread, c.Seq, c.Version, r.stateVersion, err)
		}
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("graph: decode the state of checkpoint %s#%d: %w", c.Thread, c.Seq, err)
	}
	return s, nil
}

// State returns the state of thread's latest checkpoint, or of checkpoint
// seq when seq is not 0, with the checkpoint itself (its State field
// holds the stored JSON). It is how a caller reads a conversation's
// state before its next turn, or inspects where a paused run stopped.
func (r *Runnable[S]) State(ctx context.Context, thread string, seq int64) (S, Checkpoint, error) {
	var zero S
	if r.checkpointer == nil {
		return zero, Checkpoint{}, fmt.Errorf("graph: State(%q): %w; compile with WithCheckpointer", thread, ErrNoCheckpointer)
	}
	c, err := r.checkpointer.Get(ctx, thread, seq)
	if err != nil {
		return zero, Checkpoint{}, err
	}
	s, err := r.decodeState(c)
	return s, c, err
}

// UpdateState appends to thread a copy of checkpoint seq (0: the latest)
// with its state replaced by s, and returns it. The next run of the thread
// resumes from there: this is how a run is resumed from an earlier point
// with an edited state (time travel). A pending interrupt is kept, so a run
// paused before a node resumes at that node with the edited state.
func (r *Runnable[S]) UpdateState(ctx context.Context, thread string, seq int64, s S) (Checkpoint, error) {
	if r.checkpointer == nil {
		return Checkpoint{}, fmt.Errorf("graph: UpdateState(%q): %w; compile with WithCheckpointer", thread, ErrNoCheckpointer)
	}
	from, err := r.checkpointer.Get(ctx, thread, seq)
	if err != nil {
		return Checkpoint{}, err
	}
	latest := from
	if seq != 0 {
		if latest, err = r.checkpointer.Get(ctx, thread, 0); err != nil {
			return Checkpoint{}, err
		}
	}
	data, err := r.encodeState(s)
	if err != nil {
		return Checkpoint{}, err
	}
	c := from
	c.Seq, c.Parent = latest.Seq+1, from.Seq
	c.Version, c.State, c.Created = r.stateVersion, data, time.Now()
	if err := r.checkpointer.Put(ctx, c); err != nil {
		return Checkpoint{}, fmt.Errorf("graph: UpdateState(%q): %w", thread, err)
	}
	return c, nil
}

// MemorySaver is a CheckpointStore in memory: for tests, examples and
// short-lived processes. It keeps checkpoints as their JSON, like the
// durable stores, so a run behaves the same on all of them. It is safe for
// concurrent use.
type MemorySaver struct {
	mu      sync.Mutex
	threads map[string][]Checkpoint // by Seq ascending
}

var _ CheckpointStore = (*MemorySaver)(nil)

// NewMemorySaver returns an empty MemorySaver.
func NewMemorySaver() *MemorySaver {
	return &MemorySaver{threads: make(map[string][]Checkpoint)}
}

// Put implements Checkpointer.
func (m *MemorySaver) Put(_ context.Context, c Checkpoint) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	cs := m.threads[c.Thread]
	i, found := slices.BinarySearchFunc(cs, c.Seq, func(x Checkpoint, seq int64) int { return cmp.Compare(x.Seq, seq) })
	if found {
		return fmt.Errorf("graph: checkpoint %s#%d already exists: %w", c.Thread, c.Seq, ErrCheckpointConflict)
	}
	c.State = slices.Clone(c.State)
	m.threads[c.Thread] = slices.Insert(cs, i, c)
	return nil
}

// Get implements Checkpointer.
func (m *MemorySaver) Get(_ context.Context, thread string, seq int64) (Checkpoint, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cs := m.threads[thread]
	if len(cs) == 0 {
		return Checkpoint{}, fmt.Errorf("graph: thread %q: %w", thread, ErrNoCheckpoint)
	}
	i := len(cs) - 1
	if seq != 0 {
		var found bool
		if i, found = slices.BinarySearchFunc(cs, seq, func(x Checkpoint, seq int64) int { return cmp.Compare(x.Seq, seq) }); !found {
			return Checkpoint{}, fmt.Errorf("graph: checkpoint %s#%d: %w", thread, seq, ErrNoCheckpoint)
		}
	}
	c := cs[i]
	c.State = slices.Clone(c.State) // the caller may keep or change it
	return c, nil
}

// List implements Checkpointer.
func (m *MemorySaver) List(_ context.Context, thread string) ([]Checkpoint, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.threads[thread]), nil
}

// Delete implements CheckpointStore.
func (m *MemorySaver) Delete(_ context.Context, thread string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.threads, thread)
	return nil
}

// Prune implements CheckpointStore.
func (m *MemorySaver) Prune(_ context.Context, thread string, r Retention) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	var n int64
	for t, cs := range m.threads {
		if thread != "" && t != thread {
			continue
		}
		kept := cs[:0]
		for i, c := range cs {
			if r.Drops(c, len(cs)-1-i, now) {
				n++
				continue
			}
			kept = append(kept, c)
		}
		clear(cs[len(kept):])
		m.threads[t] = kept
	}
	return n, nil
}
