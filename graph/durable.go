package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// durable is the checkpointing side of a run with a thread.
type durable struct {
	cp     Checkpointer
	thread string
	seq    int64  // the thread's latest checkpoint
	parent int64  // the checkpoint the next one follows
	node   string // the last node completed

	skipBefore int // node whose before-interrupt this resumed run skips once; -1 for none
	resumeNode int // node whose Interrupt call receives the resume value; -1 for none
	resume     any
}

// begin loads the thread's checkpoint and says where the run starts and
// with which state.
func (r *Runnable[S]) begin(ctx context.Context, s S, cfg *runConfig) (*durable, position, S, error) {
	start := position{cur: r.entry}
	if r.checkpointer == nil {
		return nil, start, s, fmt.Errorf("graph: WithThread(%q): %w; compile the graph WithCheckpointer", cfg.thread, ErrNoCheckpointer)
	}
	d := &durable{cp: r.checkpointer, thread: cfg.thread, skipBefore: -1, resumeNode: -1}
	latest, err := d.cp.Get(ctx, cfg.thread, 0)
	if errors.Is(err, ErrNoCheckpoint) {
		if cfg.fromSeq != 0 || cfg.hasResume {
			return nil, start, s, fmt.Errorf("graph: thread %q has no checkpoint to resume: %w", cfg.thread, err)
		}
		return d, start, s, nil
	}
	if err != nil {
		return nil, start, s, fmt.Errorf("graph: load thread %q: %w", cfg.thread, err)
	}
	from := latest
	if cfg.fromSeq != 0 && cfg.fromSeq != latest.Seq {
		if cfg.strictFrom {
			return nil, start, s, fmt.Errorf("graph: resume token for checkpoint %d of thread %q, whose latest is now %d (resumed already?); to go back on purpose use WithCheckpoint: %w",
				cfg.fromSeq, cfg.thread, latest.Seq, ErrStaleResume)
		}
		if from, err = d.cp.Get(ctx, cfg.thread, cfg.fromSeq); err != nil {
			return nil, start, s, fmt.Errorf("graph: load thread %q: %w", cfg.thread, err)
		}
	}
	d.seq, d.parent = latest.Seq, from.Seq
	if from.Done() {
		if cfg.fromSeq != 0 || cfg.hasResume {
			return nil, start, s, fmt.Errorf("graph: checkpoint %d of thread %q ended its run; there is nothing to resume: %w", from.Seq, cfg.thread, ErrNoCheckpoint)
		}
		return d, start, s, nil // a new run in the thread
	}
	st, err := r.decodeState(from)
	if err != nil {
		return nil, start, s, err
	}
	d.node = from.Node
	pos := position{cur: r.entry, step: from.Step}
	switch {
	case from.Next != "":
		i, ok := r.index[from.Next]
		if !ok {
			return nil, start, s, fmt.Errorf("graph: checkpoint %d of thread %q resumes at node %q, which this graph does not have: %w", from.Seq, cfg.thread, from.Next, ErrUnknownNode)
		}
		pos.cur = i
	case from.Node != "":
		i, ok := r.index[from.Node]
		if !ok || r.nodes[i].fanout == nil && r.nodes[i].sender == nil {
			return nil, start, s, fmt.Errorf("graph: checkpoint %d of thread %q resumes after node %q, which this graph does not have as a fan-out: %w", from.Seq, cfg.thread, from.Node, ErrUnknownNode)
		}
		pos.cur, pos.after = i, true
	}
	if pi := from.Interrupt; pi != nil {
		switch pi.When {
		case InterruptBefore:
			d.skipBefore = pos.cur
		case InterruptInside:
			if cfg.hasResume {
				if i, ok := r.index[pi.Node]; ok {
					d.resumeNode, d.resume = i, cfg.resume
				}
			}
		}
	}
	return d, pos, st, nil
}

// nodeContext hands the resume value to the node that interrupted.
func (d *durable) nodeContext(ctx context.Context, node int) context.Context {
	if node != d.resumeNode {
		return ctx
	}
	d.resumeNode = -1
	return context.WithValue(ctx, resumeKey{}, &resumeSlot{value: d.resume})
}

// save appends a checkpoint after step: node completed (or the checkpoint
// node of a pause) and next to run.
func (d *durable) save(ctx context.Context, enc func() (json.RawMessage, error), version, step int, node, next string, pi *PendingInterrupt, sc *scope) error {
	data, err := enc()
	if err != nil {
		return &stepError{step: step, node: node, err: err}
	}
	c := Checkpoint{
		Thread: d.thread, Seq: d.seq + 1, Parent: d.parent, Step: step, Node: node, Next: next,
		Version: version, State: data, Interrupt: pi, Created: time.Now().UTC(),
	}
	if err := d.cp.Put(ctx, c); err != nil {
		return &stepError{step: step, node: node, err: fmt.Errorf("graph: save checkpoint %d of thread %q after step %d: %w", c.Seq, d.thread, step, err)}
	}
	d.seq, d.parent, d.node = c.Seq, c.Seq, node
	if sc != nil {
		c.State = nil
		sc.send(Event{Kind: EventCheckpoint, Step: step, Node: node, Payload: c, Time: c.Created})
	}
	return nil
}

// pause saves the checkpoint a run pauses at and returns its *Interrupted.
// The checkpoint keeps the state before the interrupted node (or fan-out),
// so resuming runs it again.
func (d *durable) pause(ctx context.Context, enc func() (json.RawMessage, error), version, step int, cpNode, next, node string, when InterruptWhen, payload any, sc *scope) error {
	pi := &PendingInterrupt{Node: node, When: when}
	if payload != nil {
		raw, err := json.Marshal(payload)
		if err != nil {
			return &NodeError{Node: node, Step: step + 1, Err: fmt.Errorf("graph: encode the Interrupt payload as JSON: %w", err)}
		}
		pi.Payload = raw
	}
	if err := d.save(ctx, enc, version, step, cpNode, next, pi, sc); err != nil {
		return err
	}
	return d.interrupted(node, when, payload, step+1)
}

func (d *durable) interrupted(node string, when InterruptWhen, payload any, step int) *Interrupted {
	return &Interrupted{
		Thread: d.thread, Checkpoint: d.seq, Node: node, When: when, Payload: payload,
		Token: makeToken(d.thread, d.seq), step: step,
	}
}
