package graph

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

type counter struct {
	N    int
	Path []string
}

func step(name string) NodeFunc[counter] {
	return func(_ context.Context, s counter) (counter, error) {
		s.N++
		s.Path = append(s.Path, name)
		return s, nil
	}
}

// loopUntil routes back to again until N reaches n, then to END.
func loopUntil(n int, again string) RouterFunc[counter] {
	return func(_ context.Context, s counter) (Decision, error) {
		if s.N < n {
			return Decision{To: again, Reason: fmt.Sprintf("n=%d < %d", s.N, n)}, nil
		}
		return Decision{To: END, Reason: "done"}, nil
	}
}

// loopGraph is a → b → c, c ⇢ a | END, looping until N reaches n.
func loopGraph(t testing.TB, n int, opts ...CompileOption) *Runnable[counter] {
	t.Helper()
	g := NewStateGraph[counter]()
	g.AddNode("a", step("a"))
	g.AddNode("b", step("b"))
	g.AddNode("c", step("c"))
	g.SetEntryPoint("a")
	g.AddEdge("a", "b")
	g.AddEdge("b", "c")
	g.AddConditionalEdges("c", loopUntil(n, "a"), "a", END)
	r, err := g.Compile(opts...)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return r
}

func noop(_ context.Context, s counter) (counter, error) { return s, nil }

func toEnd(context.Context, counter) (Decision, error) { return Decision{To: END}, nil }

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name  string
		build func(g *StateGraph[counter])
		want  error
		names string // must appear in the message
	}{
		{"no entry point", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddEdge("a", END)
		}, ErrNoEntryPoint, "SetEntryPoint"},
		{"unknown entry point", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddEdge("a", END)
			g.SetEntryPoint("zz")
		}, ErrUnknownNode, `"zz"`},
		{"edge to unknown node", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.SetEntryPoint("a")
			g.AddEdge("a", "ghost")
		}, ErrUnknownNode, `"ghost"`},
		{"edge from unknown node", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.SetEntryPoint("a")
			g.AddEdge("a", END)
			g.AddEdge("ghost", END)
		}, ErrUnknownNode, `"ghost"`},
		{"unknown conditional target", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.SetEntryPoint("a")
			g.AddConditionalEdges("a", toEnd, END, "ghost")
		}, ErrUnknownNode, `target "ghost"`},
		{"no conditional targets", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.SetEntryPoint("a")
			g.AddConditionalEdges("a", toEnd)
		}, ErrUndeclaredTarget, `"a"`},
		{"duplicate node", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddNode("a", noop)
		}, ErrDuplicateNode, `"a"`},
		{"node named END", func(g *StateGraph[counter]) { g.AddNode(END, noop) }, ErrReservedName, END},
		{"node named START", func(g *StateGraph[counter]) { g.AddNode(START, noop) }, ErrReservedName, START},
		{"empty name", func(g *StateGraph[counter]) { g.AddNode("", noop) }, ErrReservedName, `AddNode("")`},
		{"nil node", func(g *StateGraph[counter]) { g.AddNode("a", nil) }, ErrNilFunc, `"a"`},
		{"nil router", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddConditionalEdges("a", nil, END)
		}, ErrNilFunc, `"a"`},
		{"edge out of END", func(g *StateGraph[counter]) { g.AddEdge(END, "a") }, ErrReservedName, END},
		{"edge into START", func(g *StateGraph[counter]) { g.AddEdge("a", START) }, ErrReservedName, START},
		{"two static edges", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddNode("b", noop)
			g.AddEdge("a", "b")
			g.AddEdge("a", END)
		}, ErrEdgeConflict, `"a"`},
		{"static then conditional", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddEdge("a", END)
			g.AddConditionalEdges("a", toEnd, END)
		}, ErrEdgeConflict, `"a"`},
		{"conditional then static", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddConditionalEdges("a", toEnd, END)
			g.AddEdge("a", END)
		}, ErrEdgeConflict, `"a"`},
		{"conditional twice", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddConditionalEdges("a", toEnd, END)
			g.AddConditionalEdges("a", toEnd, END)
		}, ErrEdgeConflict, `"a"`},
		{"entry point set twice", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddNode("b", noop)
			g.SetEntryPoint("a")
			g.AddEdge(START, "b")
		}, ErrEdgeConflict, `"b"`},
		{"label on missing edge", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.SetEntryPoint("a")
			g.AddEdge("a", END)
			g.SetEdgeLabel("a", "b", "x")
		}, ErrUnknownEdge, `"a", "b"`},
		{"unreachable node", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddNode("island", noop)
			g.SetEntryPoint("a")
			g.AddEdge("a", END)
			g.AddEdge("island", END)
		}, ErrUnreachable, `"island"`},
		{"node without outgoing edge", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddNode("b", noop)
			g.SetEntryPoint("a")
			g.AddConditionalEdges("a", toEnd, "b", END)
		}, ErrDeadEnd, `node "b" has no outgoing edge`},
		{"loop that never reaches END", func(g *StateGraph[counter]) {
			g.AddNode("a", noop)
			g.AddNode("b", noop)
			g.AddNode("c", noop)
			g.SetEntryPoint("a")
			g.AddConditionalEdges("a", toEnd, "b", END)
			g.AddEdge("b", "c")
			g.AddEdge("c", "b")
		}, ErrDeadEnd, `node "b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewStateGraph[counter]()
			tt.build(g)
			r, err := g.Compile()
			if !errors.Is(err, tt.want) {
				t.Fatalf("Compile error = %v, want errors.Is %v", err, tt.want)
			}
			if r != nil {
				t.Errorf("Compile returned a Runnable with an error")
			}
			if !strings.Contains(err.Error(), tt.names) {
				t.Errorf("error %q does not mention %s", err, tt.names)
			}
		})
	}
}

func TestCompileReportsEveryProblem(t *testing.T) {
	g := NewStateGraph[counter]()
	g.AddNode("a", noop)
	g.AddNode("island", noop)
	g.AddNode("sink", noop)
	g.SetEntryPoint("a")
	g.AddConditionalEdges("a", toEnd, "sink", END)
	g.AddEdge("island", END)
	_, err := g.Compile()
	if !errors.Is(err, ErrUnreachable) || !errors.Is(err, ErrDeadEnd) {
		t.Fatalf("error = %v, want both ErrUnreachable and ErrDeadEnd", err)
	}
	for _, s := range []string{`"island"`, `"sink"`} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %s", err, s)
		}
	}
}

func TestBuilderKeepsFirstError(t *testing.T) {
	g := NewStateGraph[counter]()
	g.AddNode("a", noop)
	g.AddNode("a", noop) // first mistake
	g.AddNode(END, noop) // second
	_, err := g.Compile()
	if !errors.Is(err, ErrDuplicateNode) || errors.Is(err, ErrReservedName) {
		t.Fatalf("error = %v, want only the first mistake (duplicate node)", err)
	}
}

func TestInvoke(t *testing.T) {
	tests := []struct {
		name     string
		until    int
		wantN    int
		wantPath string
	}{
		{"one pass", 0, 3, "a b c"},
		{"two passes", 4, 6, "a b c a b c"},
		{"three passes", 9, 9, "a b c a b c a b c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := loopGraph(t, tt.until)
			s, err := r.Invoke(context.Background(), counter{})
			if err != nil {
				t.Fatal(err)
			}
			if s.N != tt.wantN || strings.Join(s.Path, " ") != tt.wantPath {
				t.Errorf("state = %+v, want N=%d path %q", s, tt.wantN, tt.wantPath)
			}
		})
	}
}

func TestStartEdgeIsEntryPoint(t *testing.T) {
	g := NewStateGraph[counter]()
	g.AddNode("only", step("only"))
	g.AddEdge(START, "only")
	g.AddEdge("only", END)
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), counter{})
	if err != nil || s.N != 1 {
		t.Fatalf("Invoke = %+v, %v; want N=1", s, err)
	}
}

func TestMaxSteps(t *testing.T) {
	tests := []struct {
		name     string
		compile  []CompileOption
		run      []RunOption
		wantErr  bool
		wantLast int
	}{
		{"default limit is enough", nil, nil, false, 12},
		{"compile limit too low", []CompileOption{WithMaxSteps(7)}, nil, true, 7},
		{"run limit overrides compile limit", []CompileOption{WithMaxSteps(7)}, []RunOption{WithRunMaxSteps(12)}, false, 12},
		{"run limit too low", nil, []RunOption{WithRunMaxSteps(5)}, true, 5},
		{"exact limit", []CompileOption{WithMaxSteps(12)}, nil, false, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := loopGraph(t, 12, tt.compile...)
			s, err := r.Invoke(context.Background(), counter{}, tt.run...)
			if tt.wantErr != errors.Is(err, ErrMaxSteps) {
				t.Fatalf("error = %v, want ErrMaxSteps: %v", err, tt.wantErr)
			}
			if s.N != tt.wantLast {
				t.Errorf("returned state N=%d, want the last state N=%d", s.N, tt.wantLast)
			}
		})
	}
}

func TestContextCancelledBetweenSteps(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	g := NewStateGraph[counter]()
	g.AddNode("a", step("a"))
	g.AddNode("stop", func(_ context.Context, s counter) (counter, error) {
		cancel() // the node finishes; the run must stop before the next step
		s.N++
		return s, nil
	})
	g.AddNode("never", func(context.Context, counter) (counter, error) {
		t.Error("node ran after cancellation")
		return counter{}, nil
	})
	g.SetEntryPoint("a")
	g.AddEdge("a", "stop")
	g.AddEdge("stop", "never")
	g.AddEdge("never", END)
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(ctx, counter{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if !strings.Contains(err.Error(), `"never"`) || s.N != 2 {
		t.Errorf("got %v with N=%d; want an error naming the next node and the last state N=2", err, s.N)
	}
}

func TestNodeFailures(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		fn      NodeFunc[counter]
		router  RouterFunc[counter]
		wantIs  error
		wantMsg string
		wantN   int // last good state
	}{
		{"node error", func(context.Context, counter) (counter, error) { return counter{N: 99}, boom }, nil, boom, "boom", 1},
		{"node panic", func(context.Context, counter) (counter, error) { panic("kaput") }, nil, ErrPanic, "kaput", 1},
		{"node panics with error", func(context.Context, counter) (counter, error) { panic(boom) }, nil, boom, "boom", 1},
		{"router error", step("b"), func(context.Context, counter) (Decision, error) { return Decision{}, boom }, boom, "router: boom", 2},
		{"router panic", step("b"), func(context.Context, counter) (Decision, error) { panic("lost") }, ErrPanic, "lost", 2},
		{"undeclared target", step("b"), func(context.Context, counter) (Decision, error) { return Decision{To: "elsewhere"}, nil },
			ErrUndeclaredTarget, `router answered "elsewhere"`, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewStateGraph[counter]()
			g.AddNode("a", step("a"))
			g.AddNode("b", tt.fn)
			g.SetEntryPoint("a")
			g.AddEdge("a", "b")
			if tt.router != nil {
				g.AddConditionalEdges("b", tt.router, END)
			} else {
				g.AddEdge("b", END)
			}
			r, err := g.Compile()
			if err != nil {
				t.Fatal(err)
			}
			s, err := r.Invoke(context.Background(), counter{})
			var ne *NodeError
			if !errors.As(err, &ne) {
				t.Fatalf("error = %v (%T), want *NodeError", err, err)
			}
			if ne.Node != "b" || ne.Step != 2 {
				t.Errorf("NodeError{Node: %q, Step: %d}, want b at step 2", ne.Node, ne.Step)
			}
			if !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v is not %v", err, tt.wantIs)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) || !strings.Contains(err.Error(), `"b"`) {
				t.Errorf("error %q should name the node and contain %q", err, tt.wantMsg)
			}
			if s.N != tt.wantN {
				t.Errorf("returned state N=%d, want last good state N=%d", s.N, tt.wantN)
			}
		})
	}
}

func TestPanicErrorCarriesStack(t *testing.T) {
	g := NewStateGraph[counter]()
	g.AddNode("a", func(context.Context, counter) (counter, error) { panic("x") })
	g.SetEntryPoint("a")
	g.AddEdge("a", END)
	r, _ := g.Compile()
	_, err := r.Invoke(context.Background(), counter{})
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Value != "x" || !strings.Contains(string(pe.Stack), "graph_test.go") {
		t.Fatalf("error = %v, want a *PanicError with value and stack", err)
	}
}

func TestCompiledGraphIsIsolatedFromBuilder(t *testing.T) {
	g := NewStateGraph[counter]()
	g.AddNode("a", step("a"))
	g.AddNode("b", step("b"))
	targets := []string{"b", END}
	g.SetEntryPoint("a")
	g.AddConditionalEdges("a", func(context.Context, counter) (Decision, error) { return Decision{To: "b"}, nil }, targets...)
	g.AddEdge("b", END)
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	before := r.Mermaid()
	targets[0] = "zzz" // caller's slice
	g.AddNode("c", step("c"))
	g.SetEdgeLabel("a", "b", "changed")
	nodes := r.Nodes()
	nodes[0] = "mutated"
	edges := r.Edges()
	edges[0].To = "mutated"
	if got := r.Mermaid(); got != before {
		t.Errorf("Runnable changed after the builder or returned slices did:\n%s\nwant\n%s", got, before)
	}
	if s, err := r.Invoke(context.Background(), counter{}); err != nil || s.N != 2 {
		t.Errorf("Invoke = %+v, %v", s, err)
	}
}

func TestConcurrentInvoke(t *testing.T) {
	r := loopGraph(t, 12)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var opts []RunOption
			tr := NewTrace()
			if i%2 == 0 {
				opts = append(opts, WithObserver(tr.Observe))
			}
			s, err := r.Invoke(context.Background(), counter{}, opts...)
			if err == nil && s.N != 12 {
				err = fmt.Errorf("N=%d", s.N)
			}
			if err == nil && i%2 == 0 && tr.NodeCount("a") != 4 {
				err = fmt.Errorf("trace counted a %d times", tr.NodeCount("a"))
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestManyTargetsUseLookupTable(t *testing.T) {
	g := NewStateGraph[counter]()
	var targets []string
	for i := range 12 {
		name := fmt.Sprintf("t%02d", i)
		targets = append(targets, name)
		g.AddNode(name, step(name))
		g.AddEdge(name, END)
	}
	g.AddNode("pick", noop)
	g.SetEntryPoint("pick")
	g.AddConditionalEdges("pick", func(context.Context, counter) (Decision, error) { return Decision{To: "t07"}, nil }, targets...)
	r, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Invoke(context.Background(), counter{})
	if err != nil || strings.Join(s.Path, " ") != "t07" {
		t.Fatalf("Invoke = %+v, %v; want path t07", s, err)
	}
}
