package graph

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// describe renders an event compactly for comparisons.
func describe(e Event) string {
	switch e.Kind {
	case EventDecision:
		return fmt.Sprintf("%s %d %s->%s (%s)", e.Kind, e.Step, e.Node, e.To, e.Reason)
	case EventCustom:
		return fmt.Sprintf("%s %d %s %s=%v", e.Kind, e.Step, e.Node, e.Name, e.Payload)
	case EventError:
		return fmt.Sprintf("%s %d %s", e.Kind, e.Step, e.Node)
	case EventRunEnd:
		return fmt.Sprintf("%s err=%v", e.Kind, e.Err != nil)
	}
	return fmt.Sprintf("%s %d %s", e.Kind, e.Step, e.Node)
}

func emitting(name string) NodeFunc[counter] {
	return func(ctx context.Context, s counter) (counter, error) {
		s.N++
		Emit(ctx, "token", name)
		return s, nil
	}
}

func eventGraph(t *testing.T) *Runnable[counter] {
	t.Helper()
	g := NewStateGraph[counter]()
	g.AddNode("a", emitting("a"))
	g.AddNode("b", step("b"))
	g.SetEntryPoint("a")
	g.AddEdge("a", "b")
	g.AddConditionalEdges("b", loopUntil(4, "a"), "a", END)
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var wantEvents = []string{
	"run_start 0 __start__",
	"node_start 1 a",
	"custom 1 a token=a",
	"node_end 1 a",
	"node_start 2 b",
	"node_end 2 b",
	"decision 2 b->a (n=2 < 4)",
	"node_start 3 a",
	"custom 3 a token=a",
	"node_end 3 a",
	"node_start 4 b",
	"node_end 4 b",
	"decision 4 b->__end__ (done)",
	"run_end err=false",
}

func TestObserverSeesEveryEventInOrder(t *testing.T) {
	r := eventGraph(t)
	var got []string
	var last Event
	s, err := r.Invoke(context.Background(), counter{}, WithObserver(func(e Event) {
		got = append(got, describe(e))
		if e.Time.IsZero() {
			t.Errorf("%s has no time", e.Kind)
		}
		last = e
	}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "\n") != strings.Join(wantEvents, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantEvents, "\n"))
	}
	if final, ok := last.Payload.(counter); !ok || final.N != s.N {
		t.Errorf("RunEnd payload = %#v, want the final state %+v", last.Payload, s)
	}
}

func TestSeveralObserversAddUp(t *testing.T) {
	r := eventGraph(t)
	var n1, n2 int
	_, err := r.Invoke(context.Background(), counter{}, WithObserver(func(Event) { n1++ }), WithObserver(func(Event) { n2++ }))
	if err != nil || n1 != len(wantEvents) || n2 != len(wantEvents) {
		t.Fatalf("observers saw %d and %d events (err %v), want %d each", n1, n2, err, len(wantEvents))
	}
}

func TestNodeEndDuration(t *testing.T) {
	g := NewStateGraph[counter]()
	g.AddNode("slow", func(_ context.Context, s counter) (counter, error) {
		time.Sleep(5 * time.Millisecond)
		return s, nil
	})
	g.SetEntryPoint("slow")
	g.AddEdge("slow", END)
	r, _ := g.Compile()
	var d time.Duration
	r.Invoke(context.Background(), counter{}, WithObserver(func(e Event) {
		if e.Kind == EventNodeEnd {
			d = e.Duration
		}
	}))
	if d < 5*time.Millisecond {
		t.Errorf("NodeEnd duration = %v, want ≥ 5ms", d)
	}
}

func TestStreamYieldsEvents(t *testing.T) {
	r := eventGraph(t)
	var got []string
	for e, err := range r.Stream(context.Background(), counter{}) {
		if err != nil {
			t.Fatalf("unexpected error at %s: %v", e.Kind, err)
		}
		got = append(got, describe(e))
	}
	if strings.Join(got, "\n") != strings.Join(wantEvents, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantEvents, "\n"))
	}
}

func TestStreamReportsFailure(t *testing.T) {
	boom := errors.New("boom")
	g := NewStateGraph[counter]()
	g.AddNode("a", step("a"))
	g.AddNode("b", func(context.Context, counter) (counter, error) { return counter{}, boom })
	g.SetEntryPoint("a")
	g.AddEdge("a", "b")
	g.AddEdge("b", END)
	r, _ := g.Compile()
	var got []string
	var runErr error
	var final Event
	for e, err := range r.Stream(context.Background(), counter{}) {
		got = append(got, describe(e))
		if e.Kind == EventNodeEnd && e.Node == "b" && !errors.Is(e.Err, boom) {
			t.Errorf("NodeEnd of the failed node has Err %v, want boom", e.Err)
		}
		if err != nil {
			runErr = err
		}
		final = e
	}
	want := "run_start 0 __start__|node_start 1 a|node_end 1 a|node_start 2 b|node_end 2 b|error 2 b|run_end err=true"
	if strings.Join(got, "|") != want {
		t.Errorf("events %s\nwant   %s", strings.Join(got, "|"), want)
	}
	if !errors.Is(runErr, boom) || !errors.Is(final.Err, boom) {
		t.Errorf("stream error = %v, RunEnd.Err = %v; want boom", runErr, final.Err)
	}
	if s, _ := final.Payload.(counter); s.N != 1 {
		t.Errorf("RunEnd payload %+v, want last good state N=1", final.Payload)
	}
}

func TestStreamBreakCancelsRun(t *testing.T) {
	tests := []struct {
		name    string
		breakAt string // describe() prefix of the event to stop at
	}{
		{"at run start", "run_start"},
		{"at a node start", "node_start 3"},
		{"inside a node, on a custom event", "custom 1"},
		{"at a decision", "decision"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ran []string
			var mu sync.Mutex
			var sawCancel bool
			g := NewStateGraph[counter]()
			g.AddNode("a", func(ctx context.Context, s counter) (counter, error) {
				mu.Lock()
				ran = append(ran, "a")
				mu.Unlock()
				Emit(ctx, "token", "x")
				if ctx.Err() != nil {
					sawCancel = true
					return s, ctx.Err()
				}
				s.N++
				return s, nil
			})
			g.AddNode("b", step("b"))
			g.SetEntryPoint("a")
			g.AddEdge("a", "b")
			g.AddConditionalEdges("b", loopUntil(100, "a"), "a", END)
			r, _ := g.Compile(WithMaxSteps(1000))
			var after int
			stopped := false
			for e := range r.Stream(context.Background(), counter{}) {
				if stopped {
					after++
				}
				if strings.HasPrefix(describe(e), tt.breakAt) {
					stopped = true
					break
				}
			}
			if !stopped || after != 0 {
				t.Fatalf("stopped=%v, events after break=%d", stopped, after)
			}
			if len(ran) > 2 {
				t.Errorf("node a ran %d times after the consumer stopped early", len(ran))
			}
			if tt.breakAt == "custom 1" && !sawCancel {
				t.Errorf("the node did not see its context cancelled after the consumer broke out")
			}
		})
	}
}

func TestStreamSlowConsumer(t *testing.T) {
	r := eventGraph(t)
	var n int
	for e, err := range r.Stream(context.Background(), counter{}) {
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
		n++
		if e.Kind == EventRunEnd && e.Payload.(counter).N != 4 {
			t.Errorf("final state %+v", e.Payload)
		}
	}
	if n != len(wantEvents) {
		t.Errorf("got %d events, want %d", n, len(wantEvents))
	}
}

func TestStreamConsumerPanicPropagates(t *testing.T) {
	r := eventGraph(t)
	for _, at := range []EventKind{EventCustom, EventNodeStart} {
		t.Run(at.String(), func(t *testing.T) {
			defer func() {
				if v := recover(); v != "consumer bug" {
					t.Fatalf("recovered %v, want the consumer's own panic", v)
				}
			}()
			for e := range r.Stream(context.Background(), counter{}) {
				if e.Kind == at {
					panic("consumer bug")
				}
			}
			t.Fatal("loop finished without panic")
		})
	}
}

func TestObserverPanicIsNotRecovered(t *testing.T) {
	r := eventGraph(t)
	defer func() {
		if v := recover(); v != "observer bug" {
			t.Fatalf("recovered %v, want the observer's panic", v)
		}
	}()
	r.Invoke(context.Background(), counter{}, WithObserver(func(e Event) {
		if e.Kind == EventCustom {
			panic("observer bug")
		}
	}))
	t.Fatal("Invoke returned")
}

func TestEmitWithoutObserverIsNoop(t *testing.T) {
	Emit(context.Background(), "token", "x") // must not panic
	r := eventGraph(t)
	if s, err := r.Invoke(context.Background(), counter{}); err != nil || s.N != 4 {
		t.Fatalf("Invoke = %+v, %v", s, err)
	}
}

func TestEmitFromNodeGoroutines(t *testing.T) {
	var leaked chan struct{}
	runEnded := make(chan struct{})
	g := NewStateGraph[counter]()
	g.AddNode("fan", func(ctx context.Context, s counter) (counter, error) {
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				Emit(ctx, "part", i)
			}()
		}
		wg.Wait()
		leaked = make(chan struct{})
		go func() { // outlives the run: its event must be dropped
			defer close(leaked)
			<-runEnded
			Emit(ctx, "late", nil)
		}()
		return s, nil
	})
	g.SetEntryPoint("fan")
	g.AddEdge("fan", END)
	r, _ := g.Compile()
	var mu sync.Mutex
	counts := map[string]int{}
	_, err := r.Invoke(context.Background(), counter{}, WithObserver(func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		if e.Kind == EventRunEnd {
			close(runEnded)
		}
		if e.Kind == EventCustom {
			counts[e.Name]++
			if e.Node != "fan" || e.Step != 1 {
				t.Errorf("custom event tagged %s step %d", e.Node, e.Step)
			}
		}
	}))
	<-leaked
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if counts["part"] != 8 || counts["late"] != 0 {
		t.Errorf("custom events %v, want 8 parts and no late event", counts)
	}
}

func TestErrorEventForEngineStops(t *testing.T) {
	r := loopGraph(t, 100, WithMaxSteps(4))
	var errEv Event
	_, err := r.Invoke(context.Background(), counter{}, WithObserver(func(e Event) {
		if e.Kind == EventError {
			errEv = e
		}
	}))
	if !errors.Is(err, ErrMaxSteps) || !errors.Is(errEv.Err, ErrMaxSteps) || errEv.Step != 5 || errEv.Node != "b" {
		t.Fatalf("err %v, error event %+v; want ErrMaxSteps at step 5 before node b", err, errEv)
	}
}

func TestEventKindString(t *testing.T) {
	for k := EventRunStart; k <= EventRunEnd; k++ {
		if s := k.String(); strings.HasPrefix(s, "EventKind") {
			t.Errorf("kind %d has no name", k)
		}
		b, _ := k.MarshalText()
		if string(b) != k.String() {
			t.Errorf("MarshalText = %s", b)
		}
	}
	if EventKind(99).String() != "EventKind(99)" {
		t.Errorf("unknown kind renders as %q", EventKind(99).String())
	}
}

func TestTrace(t *testing.T) {
	r := loopGraph(t, 6)
	tr := NewTrace()
	for range 2 {
		if _, err := r.Invoke(context.Background(), counter{}, WithObserver(tr.Observe)); err != nil {
			t.Fatal(err)
		}
	}
	checks := []struct {
		name      string
		got, want int
	}{
		{"runs", tr.Runs(), 2},
		{"START", tr.NodeCount(START), 2},
		{"a", tr.NodeCount("a"), 4},
		{"END", tr.NodeCount(END), 2},
		{"START->a", tr.EdgeCount(START, "a"), 2},
		{"c->a", tr.EdgeCount("c", "a"), 2},
		{"c->END", tr.EdgeCount("c", END), 2},
		{"a->c", tr.EdgeCount("a", "c"), 0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if p := strings.Join(tr.Path(), " "); p != "a b c a b c" {
		t.Errorf("Path = %q", p)
	}
}

func TestTraceOfFailedRunDoesNotReachEnd(t *testing.T) {
	r := loopGraph(t, 100, WithMaxSteps(4))
	tr := NewTrace()
	r.Invoke(context.Background(), counter{}, WithObserver(tr.Observe))
	if tr.NodeCount(END) != 0 || tr.NodeCount("a") != 2 {
		t.Errorf("END=%d a=%d, want END=0 a=2", tr.NodeCount(END), tr.NodeCount("a"))
	}
}

func TestFinalState(t *testing.T) {
	r := eventGraph(t)
	tests := []struct {
		name   string
		event  Event
		wantOK bool
	}{
		{"run end", Event{Kind: EventRunEnd, Payload: counter{N: 4}}, true},
		{"other event", Event{Kind: EventCustom, Payload: counter{N: 4}}, false},
		{"other type", Event{Kind: EventRunEnd, Payload: "x"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := FinalState[counter](tt.event)
			if ok != tt.wantOK || (ok && s.N != 4) {
				t.Errorf("FinalState = %+v, %v; want ok=%v", s, ok, tt.wantOK)
			}
		})
	}
	var got counter
	for e := range r.Stream(context.Background(), counter{}) {
		if s, ok := FinalState[counter](e); ok {
			got = s
		}
	}
	if got.N != 4 {
		t.Errorf("final state from Stream = %+v, want N=4", got)
	}
}
