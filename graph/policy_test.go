package graph

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestMaxStepsNamesTheLoop(t *testing.T) {
	// a → b → c ⇢ a loops forever; on a limit the router's edge c -> a
	// ties with a -> b and b -> c and wins, being the one that decides.
	r := loopGraph(t, 1000, WithMaxSteps(10))
	_, err := r.Invoke(context.Background(), counter{})
	var me *MaxStepsError
	if !errors.As(err, &me) || !errors.Is(err, ErrMaxSteps) {
		t.Fatalf("err = %v, want a *MaxStepsError", err)
	}
	if me.Loop.From != "c" || me.Loop.To != "a" || me.Count != 3 || me.Next != "b" {
		t.Errorf("loop %s -> %s x%d, next %q; want c -> a x3, next b", me.Loop.From, me.Loop.To, me.Count, me.Next)
	}
	if !strings.Contains(err.Error(), "c -> a") || !strings.Contains(err.Error(), `router of "c"`) {
		t.Errorf("message %q does not name the loop", err)
	}

	// A self-loop inside a longer path: the repeated edge is named, not
	// the edge into the loop.
	g := NewStateGraph[counter]()
	g.AddNode("start", noop)
	g.AddNode("poll", noop)
	g.SetEntryPoint("start")
	g.AddEdge("start", "poll")
	g.AddConditionalEdges("poll", func(context.Context, counter) (Decision, error) { return Decision{To: "poll"}, nil }, "poll", END)
	r2, _ := g.Compile(WithMaxSteps(6))
	_, err = r2.Invoke(context.Background(), counter{})
	if !errors.As(err, &me) || me.Loop.From != "poll" || me.Loop.To != "poll" || me.Count != 4 {
		t.Fatalf("err = %v, want the loop poll -> poll", err)
	}
}

func TestRetryRetryableErrors(t *testing.T) {
	attempts := 0
	var retries []int
	g := NewStateGraph[counter]()
	g.AddNode("flaky", func(_ context.Context, s counter) (counter, error) {
		attempts++
		if attempts < 3 {
			return s, Retryable(errors.New("server busy"))
		}
		s.N = attempts
		return s, nil
	}, WithRetry(RetryPolicy{MaxAttempts: 4, Backoff: time.Microsecond}))
	strictCalls := 0
	g.AddNode("strict", func(_ context.Context, s counter) (counter, error) {
		strictCalls++
		if len(s.Path) > 0 {
			return s, errors.New("bad input")
		}
		return s, nil
	}, WithRetry(RetryPolicy{MaxAttempts: 4, Backoff: time.Microsecond}))
	g.SetEntryPoint("flaky")
	g.AddEdge("flaky", "strict")
	g.AddEdge("strict", END)
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), counter{}, WithObserver(func(e Event) {
		if e.Kind == EventRetry {
			retries = append(retries, e.Attempt)
		}
	}))
	if err != nil || s.N != 3 || len(retries) != 2 {
		t.Fatalf("state %+v, err %v, retries %v; want success on attempt 3 after 2 retries", s, err, retries)
	}

	// A non-retryable error fails at once; a retryable one gives up after
	// MaxAttempts and says so.
	attempts, strictCalls = 0, 0
	_, err = r.Invoke(context.Background(), counter{Path: []string{"x"}})
	if err == nil || strictCalls != 1 {
		t.Fatalf("err %v after %d calls of strict, want one: its error is not retryable", err, strictCalls)
	}
	g2 := NewStateGraph[counter]()
	g2.AddNode("down", func(_ context.Context, s counter) (counter, error) {
		attempts++
		return s, Retryable(errors.New("server down"))
	}, WithRetry(RetryPolicy{MaxAttempts: 3, Backoff: time.Microsecond, MaxBackoff: 2 * time.Microsecond}))
	g2.SetEntryPoint("down")
	g2.AddEdge("down", END)
	r2, _ := g2.Compile()
	attempts = 0
	_, err = r2.Invoke(context.Background(), counter{})
	if !IsRetryable(err) || attempts != 3 || !strings.Contains(err.Error(), "attempt 3 of 3") {
		t.Fatalf("err %v after %d attempts, want 3", err, attempts)
	}
}

func TestNodeTimeout(t *testing.T) {
	calls := 0
	g := NewStateGraph[counter]()
	g.AddNode("slow", func(ctx context.Context, s counter) (counter, error) {
		calls++
		if calls == 1 {
			<-ctx.Done() // hangs until its timeout cancels it
			return s, ctx.Err()
		}
		return s, nil
	}, WithTimeout(time.Millisecond), WithRetry(RetryPolicy{MaxAttempts: 2}))
	g.SetEntryPoint("slow")
	g.AddEdge("slow", END)
	r, _ := g.Compile()
	if _, err := r.Invoke(context.Background(), counter{}); err != nil || calls != 2 {
		t.Fatalf("err %v after %d calls; a timed-out attempt should be retried", err, calls)
	}
	g = NewStateGraph[counter]()
	g.AddNode("slow", func(ctx context.Context, s counter) (counter, error) {
		<-ctx.Done()
		return s, ctx.Err()
	}, WithTimeout(time.Millisecond))
	g.SetEntryPoint("slow")
	g.AddEdge("slow", END)
	r, _ = g.Compile()
	_, err := r.Invoke(context.Background(), counter{})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timed out after 1ms") {
		t.Fatalf("err = %v, want a timeout", err)
	}
}

func TestSubgraphEventsReachParent(t *testing.T) {
	inner := NewStateGraph[string]()
	inner.AddNode("write", func(ctx context.Context, s string) (string, error) {
		for _, tok := range []string{"Hel", "lo"} {
			Emit(ctx, "token", tok)
			s += tok
		}
		return s, nil
	})
	inner.SetEntryPoint("write")
	inner.AddEdge("write", END)
	child, err := inner.Compile()
	if err != nil {
		t.Fatal(err)
	}
	g := NewStateGraph[counter]()
	AddSubgraph(g, "writer", child,
		func(c counter) string { return strings.Join(c.Path, "") },
		func(c counter, s string) counter { c.Path = []string{s}; c.N++; return c })
	g.SetEntryPoint("writer")
	g.AddEdge("writer", END)
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	s, err := r.Invoke(context.Background(), counter{}, WithObserver(func(e Event) {
		switch e.Kind {
		case EventCustom:
			seen = append(seen, e.Subgraph+"/"+e.Node+":"+e.Payload.(string))
		case EventNodeStart:
			seen = append(seen, e.Subgraph+"/"+e.Node)
		}
	}))
	if err != nil || s.Path[0] != "Hello" || s.N != 1 {
		t.Fatalf("state %+v, %v", s, err)
	}
	if got := strings.Join(seen, " "); got != "/writer writer/write writer/write:Hel writer/write:lo" {
		t.Errorf("events %q", got)
	}
}

func TestInterruptInsideSubgraph(t *testing.T) {
	inner := NewStateGraph[trail]()
	inner.AddNode("confirm", func(ctx context.Context, s trail) (trail, error) {
		v, err := Interrupt[string](ctx, "ok?")
		if err != nil {
			return s, err
		}
		s.Ask = v
		return s, nil
	})
	inner.SetEntryPoint("confirm")
	inner.AddEdge("confirm", END)
	child, _ := inner.Compile()
	g := NewStateGraph[trail]()
	AddSubgraph(g, "sub", child, nil, nil)
	g.SetEntryPoint("sub")
	g.AddEdge("sub", END)
	r, err := g.Compile(WithCheckpointer(NewMemorySaver()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Invoke(context.Background(), trail{}, WithThread("t"))
	var in *Interrupted
	if !errors.As(err, &in) || in.Node != "sub" || in.Payload != "ok?" {
		t.Fatalf("err = %v, want a pause at the subgraph node", err)
	}
	s, err := r.Invoke(context.Background(), trail{}, Resume(in.Token, "fine"))
	if err != nil || s.Ask != "fine" {
		t.Fatalf("resumed %+v, %v", s, err)
	}
}
