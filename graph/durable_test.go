package graph

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// trail is the state of the durability tests: the nodes that ran, in order.
type trail struct {
	Ran []string
	Ask string `json:",omitempty"`
}

func visit(name string) NodeFunc[trail] {
	return func(_ context.Context, s trail) (trail, error) {
		s.Ran = append(slices.Clip(s.Ran), name)
		return s, nil
	}
}

// lineGraph is a → b → c → END with the given compile options; fail, when
// set, makes node b fail while it returns true.
func lineGraph(t *testing.T, fail func() bool, opts ...CompileOption) *Runnable[trail] {
	t.Helper()
	g := NewStateGraph[trail]()
	g.AddNode("a", visit("a"))
	g.AddNode("b", func(ctx context.Context, s trail) (trail, error) {
		if fail != nil && fail() {
			return s, errors.New("b is down")
		}
		return visit("b")(ctx, s)
	})
	g.AddNode("c", visit("c"))
	g.SetEntryPoint("a")
	g.AddEdge("a", "b")
	g.AddEdge("b", "c")
	g.AddEdge("c", END)
	r, err := g.Compile(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestResumeAfterFailure(t *testing.T) {
	ctx := context.Background()
	cp := NewMemorySaver()
	down := true
	r := lineGraph(t, func() bool { return down }, WithCheckpointer(cp))

	_, err := r.Invoke(ctx, trail{}, WithThread("t1"))
	var nerr *NodeError
	if !errors.As(err, &nerr) || nerr.Node != "b" {
		t.Fatalf("first run: %v, want b's failure", err)
	}
	down = false
	s, err := r.Invoke(ctx, trail{Ran: []string{"ignored"}}, WithThread("t1"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Ran, " "); got != "a b c" {
		t.Errorf("resumed run visited %q, want a run that skips the completed a: \"a b c\"", got)
	}
	list, _ := cp.List(ctx, "t1")
	var pos []string
	for _, c := range list {
		pos = append(pos, c.Node+">"+c.Next)
	}
	if got := strings.Join(pos, " "); got != "a>b b>c c>__end__" {
		t.Errorf("checkpoints %q", got)
	}
	if list[2].Step != 3 || list[2].Parent != 2 {
		t.Errorf("last checkpoint step %d parent %d, want 3 and 2", list[2].Step, list[2].Parent)
	}

	// The thread's run is over: the next Invoke starts a new run from the
	// state it is given, appending to the history.
	s, err = r.Invoke(ctx, trail{Ran: []string{"turn2"}}, WithThread("t1"))
	if err != nil || strings.Join(s.Ran, " ") != "turn2 a b c" {
		t.Fatalf("second run = %v, %v", s.Ran, err)
	}
	if list, _ := cp.List(ctx, "t1"); len(list) != 6 || list[3].Step != 1 || list[3].Parent != 3 {
		t.Errorf("second run's checkpoints: %+v", list[3:])
	}
}

func TestThreadNeedsCheckpointer(t *testing.T) {
	r := lineGraph(t, nil)
	if _, err := r.Invoke(context.Background(), trail{}, WithThread("t")); !errors.Is(err, ErrNoCheckpointer) {
		t.Fatalf("err = %v, want ErrNoCheckpointer", err)
	}
}

func TestInterruptBeforeAndAfter(t *testing.T) {
	ctx := context.Background()
	r := lineGraph(t, nil, WithCheckpointer(NewMemorySaver()), WithInterruptBefore("b"), WithInterruptAfter("c"))
	s, err := r.Invoke(ctx, trail{}, WithThread("t"))
	var in *Interrupted
	if !errors.As(err, &in) || in.Node != "b" || in.When != InterruptBefore {
		t.Fatalf("err = %v, want a pause before b", err)
	}
	if strings.Join(s.Ran, " ") != "a" {
		t.Errorf("state at the pause: %v", s.Ran)
	}
	// Resuming runs b (no second pause before it) and pauses after c... but
	// c routes to END, so there is nothing left to confirm and the run ends.
	s, err = r.Invoke(ctx, trail{}, Resume(in.Token, nil))
	if err != nil || strings.Join(s.Ran, " ") != "a b c" {
		t.Fatalf("resumed: %v, %v", s.Ran, err)
	}
	if _, err := r.Invoke(ctx, trail{}, Resume(in.Token, nil)); !errors.Is(err, ErrStaleResume) && !errors.Is(err, ErrNoCheckpoint) {
		t.Errorf("reusing a token: %v, want ErrStaleResume", err)
	}

	r = lineGraph(t, nil, WithCheckpointer(NewMemorySaver()), WithInterruptAfter("a"))
	_, err = r.Invoke(ctx, trail{}, WithThread("t"))
	if !errors.As(err, &in) || in.Node != "a" || in.When != InterruptAfter {
		t.Fatalf("err = %v, want a pause after a", err)
	}
	s, err = r.Invoke(ctx, trail{}, WithThread("t"))
	if err != nil || strings.Join(s.Ran, " ") != "a b c" {
		t.Fatalf("resumed after a: %v, %v", s.Ran, err)
	}
}

func TestInterruptWithoutThreadFails(t *testing.T) {
	r := lineGraph(t, nil, WithInterruptBefore("b"))
	if _, err := r.Invoke(context.Background(), trail{}); !errors.Is(err, ErrNoCheckpointer) {
		t.Fatalf("err = %v, want ErrNoCheckpointer", err)
	}
}

// askGraph: draft → confirm (asks with Interrupt) → send.
func askGraph(t *testing.T, cp Checkpointer, confirmRuns *int) *Runnable[trail] {
	t.Helper()
	g := NewStateGraph[trail]()
	g.AddNode("draft", visit("draft"))
	g.AddNode("confirm", func(ctx context.Context, s trail) (trail, error) {
		*confirmRuns++
		answer, err := Interrupt[string](ctx, map[string]string{"question": "send it?"})
		if err != nil {
			return s, err
		}
		s.Ask = answer
		return visit("confirm")(ctx, s)
	})
	g.AddNode("send", visit("send"))
	g.SetEntryPoint("draft")
	g.AddEdge("draft", "confirm")
	g.AddEdge("confirm", "send")
	g.AddEdge("send", END)
	r, err := g.Compile(WithCheckpointer(cp))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestInterruptInsideNode(t *testing.T) {
	ctx := context.Background()
	cp := NewMemorySaver()
	runs := 0
	r := askGraph(t, cp, &runs)
	var events []EventKind
	_, err := r.Invoke(ctx, trail{}, WithThread("chat"), WithObserver(func(e Event) { events = append(events, e.Kind) }))
	var in *Interrupted
	if !errors.As(err, &in) || in.When != InterruptInside || in.Node != "confirm" {
		t.Fatalf("err = %v, want a pause inside confirm", err)
	}
	if p, _ := in.Payload.(map[string]string); p["question"] != "send it?" {
		t.Errorf("payload %v", in.Payload)
	}
	if !slices.Contains(events, EventInterrupt) || slices.Contains(events, EventError) {
		t.Errorf("events %v: want an interrupt event and no error event", events)
	}
	// A restarted process sees the pending question in the checkpoint.
	_, c, err := r.State(ctx, "chat", 0)
	if err != nil || c.Interrupt == nil || string(c.Interrupt.Payload) != `{"question":"send it?"}` {
		t.Fatalf("latest checkpoint %+v, %v", c, err)
	}
	// The answer may come back as JSON (from HTTP or stdio).
	s, err := r.Invoke(ctx, trail{}, Resume(in.Token, json.RawMessage(`"yes"`)))
	if err != nil {
		t.Fatal(err)
	}
	if s.Ask != "yes" || strings.Join(s.Ran, " ") != "draft confirm send" || runs != 2 {
		t.Errorf("resumed: %+v after %d runs of confirm", s, runs)
	}
}

func TestTimeTravel(t *testing.T) {
	ctx := context.Background()
	cp := NewMemorySaver()
	r := lineGraph(t, nil, WithCheckpointer(cp))
	if _, err := r.Invoke(ctx, trail{}, WithThread("t")); err != nil {
		t.Fatal(err)
	}
	// Back to checkpoint 1 (after a): b and c run again.
	s, err := r.Invoke(ctx, trail{}, WithThread("t"), WithCheckpoint(1))
	if err != nil || strings.Join(s.Ran, " ") != "a b c" {
		t.Fatalf("replay from 1: %v, %v", s.Ran, err)
	}
	list, _ := cp.List(ctx, "t")
	if len(list) != 5 || list[3].Parent != 1 || list[3].Node != "b" {
		t.Fatalf("history after the replay: %+v", list)
	}
	// Edit the state at checkpoint 1 and resume from the edit.
	c, err := r.UpdateState(ctx, "t", 1, trail{Ran: []string{"edited"}})
	if err != nil || c.Seq != 6 || c.Parent != 1 || c.Next != "b" {
		t.Fatalf("UpdateState = %+v, %v", c, err)
	}
	s, err = r.Invoke(ctx, trail{}, WithThread("t"))
	if err != nil || strings.Join(s.Ran, " ") != "edited b c" {
		t.Fatalf("resume from the edit: %v, %v", s.Ran, err)
	}
}

// TestOldCheckpointLoads resumes from a checkpoint written by the previous
// version of a program, whose state called the trail "Visited".
func TestOldCheckpointLoads(t *testing.T) {
	raw, err := os.ReadFile("testdata/checkpoint_v1.json")
	if err != nil {
		t.Fatal(err)
	}
	var old Checkpoint
	if err := json.Unmarshal(raw, &old); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	migrate := func(from int, state json.RawMessage) (json.RawMessage, error) {
		if from != 1 {
			return nil, errors.New("unknown version")
		}
		var v1 struct{ Visited []string }
		if err := json.Unmarshal(state, &v1); err != nil {
			return nil, err
		}
		return json.Marshal(trail{Ran: v1.Visited})
	}
	t.Run("with a migration", func(t *testing.T) {
		cp := NewMemorySaver()
		if err := cp.Put(ctx, old); err != nil {
			t.Fatal(err)
		}
		r := lineGraph(t, nil, WithCheckpointer(cp), WithStateVersion(2, migrate))
		s, err := r.Invoke(ctx, trail{}, WithThread(old.Thread))
		if err != nil || strings.Join(s.Ran, " ") != "a b c" {
			t.Fatalf("resume from v1: %v, %v", s.Ran, err)
		}
		if c, _ := cp.Get(ctx, old.Thread, 0); c.Version != 2 {
			t.Errorf("new checkpoints written at version %d, want 2", c.Version)
		}
	})
	t.Run("without one", func(t *testing.T) {
		cp := NewMemorySaver()
		_ = cp.Put(ctx, old)
		r := lineGraph(t, nil, WithCheckpointer(cp), WithStateVersion(2, nil))
		if _, err := r.Invoke(ctx, trail{}, WithThread(old.Thread)); !errors.Is(err, ErrStateVersion) {
			t.Fatalf("err = %v, want ErrStateVersion", err)
		}
	})
	t.Run("from the future", func(t *testing.T) {
		cp := NewMemorySaver()
		_ = cp.Put(ctx, old)
		r := lineGraph(t, nil, WithCheckpointer(cp), WithStateVersion(1, nil))
		future := old
		future.Seq, future.Version = 2, 7
		_ = cp.Put(ctx, future)
		if _, err := r.Invoke(ctx, trail{}, WithThread(old.Thread)); !errors.Is(err, ErrStateVersion) {
			t.Fatalf("err = %v, want ErrStateVersion", err)
		}
	})
}

func TestRetentionBoundsThread(t *testing.T) {
	ctx := context.Background()
	cp := NewMemorySaver()
	r := lineGraph(t, nil, WithCheckpointer(cp), WithRetention(Retention{KeepLast: 4}))
	for range 5 {
		if _, err := r.Invoke(ctx, trail{}, WithThread("t")); err != nil {
			t.Fatal(err)
		}
	}
	list, _ := cp.List(ctx, "t")
	if len(list) != 4 || list[3].Seq != 15 {
		t.Fatalf("thread holds %d checkpoints (latest %d), want the newest 4 of 15", len(list), list[len(list)-1].Seq)
	}
}

func TestConcurrentRunsOfOneThreadConflict(t *testing.T) {
	ctx := context.Background()
	cp := NewMemorySaver()
	r := lineGraph(t, nil, WithCheckpointer(cp))
	// Another process wrote checkpoint 1 of the thread after this run read it empty.
	racer := conflictSaver{MemorySaver: cp}
	r.checkpointer = racer
	if _, err := r.Invoke(ctx, trail{}, WithThread("t")); !errors.Is(err, ErrCheckpointConflict) {
		t.Fatalf("err = %v, want ErrCheckpointConflict", err)
	}
}

type conflictSaver struct{ *MemorySaver }

func (c conflictSaver) Get(ctx context.Context, thread string, seq int64) (Checkpoint, error) {
	cp, err := c.MemorySaver.Get(ctx, thread, seq)
	if errors.Is(err, ErrNoCheckpoint) {
		_ = c.MemorySaver.Put(ctx, Checkpoint{Thread: thread, Seq: 1, Next: END, State: json.RawMessage(`{}`), Version: 1})
	}
	return cp, err
}

func TestStreamWithThreadReportsCheckpoints(t *testing.T) {
	r := lineGraph(t, nil, WithCheckpointer(NewMemorySaver()), WithInterruptBefore("c"))
	var kinds []string
	for e, err := range r.Stream(context.Background(), trail{}, WithThread("s")) {
		if err != nil {
			t.Fatalf("yielded error %v", err)
		}
		switch e.Kind {
		case EventCheckpoint:
			c := e.Payload.(Checkpoint)
			if c.State != nil {
				t.Errorf("checkpoint event carries the state")
			}
			kinds = append(kinds, "cp:"+c.Node+">"+c.Next)
		case EventInterrupt:
			kinds = append(kinds, "interrupt:"+e.Payload.(*Interrupted).Node)
		case EventRunEnd:
			if !errors.Is(e.Err, ErrInterrupted) {
				t.Errorf("run end err %v, want the interrupt", e.Err)
			}
		}
	}
	if got := strings.Join(kinds, " "); got != "cp:a>b cp:b>c cp:b>c interrupt:c" {
		t.Errorf("events %q", got)
	}
}
