package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// closedAddr returns an address nothing listens on: a listener's, closed.
func closedAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// switchTransport counts the attempts that reach the network and, while
// down, sends them to a closed port (a real "connection refused").
type switchTransport struct {
	base     http.RoundTripper
	closed   string
	down     atomic.Bool
	attempts atomic.Int32
}

func (s *switchTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	s.attempts.Add(1)
	if s.down.Load() {
		r = r.Clone(r.Context())
		r.URL.Host = s.closed
	}
	return s.base.RoundTrip(r)
}

func newSwitch(t testing.TB) *switchTransport {
	return &switchTransport{base: http.DefaultTransport.(*http.Transport).Clone(), closed: closedAddr(t)}
}

// roleCalls runs each role once; the results are the roles' errors.
func roleCalls(m *llm.Models) map[string]func() error {
	ctx := context.Background()
	hits := []graphrag.Hit{hit("a.txt", "The total of INV-7 is 1,240 EUR.")}
	return map[string]func() error{
		"plan":  func() error { _, err := m.Planner().Plan(ctx, "total of INV-7?", nil); return err },
		"grade": func() error { _, err := m.Grader().Grade(ctx, "total of INV-7?", hits); return err },
		"write": func() error {
			_, err := m.Writer().Write(ctx, graphrag.WriteRequest{Query: "total of INV-7?", Hits: hits}, nil)
			return err
		},
	}
}

// TestBreakerClosedPort: with nothing listening, the first role pays the
// retries; the next roles fail without touching the network, with an
// error that says why, until the cooldown ends.
func TestBreakerClosedPort(t *testing.T) {
	for _, backend := range []string{"ollama:qwen2.5:3b@http://%s", "openai:http://%s/v1#qwen"} {
		t.Run(strings.SplitN(backend, ":", 2)[0], func(t *testing.T) {
			addr := closedAddr(t)
			spec, err := llm.ParseSpec(fmt.Sprintf(backend, addr))
			if err != nil {
				t.Fatal(err)
			}
			sw := &switchTransport{base: http.DefaultTransport.(*http.Transport).Clone(), closed: addr}
			m, err := llm.New(context.Background(), llm.Config{Router: spec, Retries: 2, Backoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}, &http.Client{Transport: sw})
			if err != nil {
				t.Fatal(err)
			}
			clock := newFakeClock()
			llm.SetClock(m, clock.Now)
			calls := roleCalls(m)

			start := time.Now()
			err = calls["plan"]()
			first := time.Since(start)
			if !errors.Is(err, llm.ErrUnreachable) || strings.Contains(err.Error(), "skipped") {
				t.Fatalf("first call: %v, want a real ErrUnreachable", err)
			}
			if got := sw.attempts.Load(); got != 3 {
				t.Fatalf("first call made %d attempts, want 3 (1 + 2 retries)", got)
			}
			clock.Advance(4 * time.Second)
			for _, role := range []string{"grade", "write"} {
				start := time.Now()
				err := calls[role]()
				t.Logf("%s skipped in %v (first call %v)", role, time.Since(start), first)
				if !errors.Is(err, llm.ErrUnreachable) {
					t.Fatalf("%s: %v, want ErrUnreachable", role, err)
				}
				want := "skipped: " + strings.TrimSuffix(spec.BaseURL, "/")
				if !strings.Contains(err.Error(), want+" was unreachable 4s ago") {
					t.Errorf("%s: %q does not say %q", role, err, want+" was unreachable 4s ago")
				}
				var e *llm.Error
				if !errors.As(err, &e) || e.Op != role || e.Usage.Calls != 0 {
					t.Errorf("%s: %#v, want an *llm.Error for %s counting no call", role, err, role)
				}
				if llm.Reason(err) != "unreachable" {
					t.Errorf("Reason = %q", llm.Reason(err))
				}
			}
			if got := sw.attempts.Load(); got != 3 {
				t.Errorf("skipped calls reached the network: %d attempts in all, want 3", got)
			}
		})
	}
}

// TestBreakerCooldown walks the breaker through open, half-open and
// closed with an injected clock.
func TestBreakerCooldown(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Text(goodPlan))
	sw := newSwitch(t)
	sw.down.Store(true)
	cfg := testConfig(t, srv)
	cfg.UnreachableCooldown = 30 * time.Second
	m, err := llm.New(context.Background(), cfg, &http.Client{Transport: sw})
	if err != nil {
		t.Fatal(err)
	}
	clock := newFakeClock()
	llm.SetClock(m, clock.Now)
	plan := roleCalls(m)["plan"]

	steps := []struct {
		name     string
		advance  time.Duration
		down     bool
		want     error // nil: success
		skipped  bool
		attempts int32 // network attempts the step makes
	}{
		{"server down: the call finds out", 0, true, llm.ErrUnreachable, false, 3},
		{"open: skipped", time.Second, true, llm.ErrUnreachable, true, 0},
		{"server back, still cooling down", 28 * time.Second, false, llm.ErrUnreachable, true, 0},
		{"half-open probe fails: reopens", time.Second, true, llm.ErrUnreachable, false, 3},
		{"reopened: skipped again", 29 * time.Second, false, llm.ErrUnreachable, true, 0},
		{"half-open probe succeeds: closes", time.Second, false, nil, false, 1},
		{"closed", 0, false, nil, false, 1},
		{"down again: the call finds out", 0, true, llm.ErrUnreachable, false, 3},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			clock.Advance(st.advance)
			sw.down.Store(st.down)
			before := sw.attempts.Load()
			err := plan()
			if st.want == nil && err != nil {
				t.Fatalf("err = %v, want success", err)
			}
			if st.want != nil && !errors.Is(err, st.want) {
				t.Fatalf("err = %v, want %v", err, st.want)
			}
			if got := err != nil && strings.Contains(err.Error(), "skipped:"); got != st.skipped {
				t.Errorf("skipped = %v, want %v (%v)", got, st.skipped, err)
			}
			if got := sw.attempts.Load() - before; got != st.attempts {
				t.Errorf("%d network attempts, want %d", got, st.attempts)
			}
		})
	}
}

// TestBreakerHalfOpenOneProbe: while the probe is in flight, other calls
// are still skipped; its success closes the breaker for them.
func TestBreakerHalfOpenOneProbe(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv := llmtest.NewOllama(t, func(r llmtest.Request) llmtest.Reply {
		once.Do(func() { close(started); <-release })
		return llmtest.Reply{Text: goodPlan}
	})
	sw := newSwitch(t)
	sw.down.Store(true)
	m, err := llm.New(context.Background(), testConfig(t, srv), &http.Client{Transport: sw})
	if err != nil {
		t.Fatal(err)
	}
	clock := newFakeClock()
	llm.SetClock(m, clock.Now)
	calls := roleCalls(m)
	if err := calls["plan"](); !errors.Is(err, llm.ErrUnreachable) {
		t.Fatalf("err = %v", err)
	}
	sw.down.Store(false)
	clock.Advance(31 * time.Second)
	probe := make(chan error, 1)
	go func() { probe <- calls["plan"]() }()
	<-started
	if err := calls["grade"](); err == nil || !strings.Contains(err.Error(), "skipped: ") || !strings.Contains(err.Error(), "31s ago") {
		t.Errorf("call during the probe: %v, want skipped", err)
	}
	close(release)
	if err := <-probe; err != nil {
		t.Fatalf("probe: %v", err)
	}
	if err := calls["plan"](); err != nil {
		t.Errorf("after the probe: %v", err)
	}
}

// TestBreakerIgnores: timeouts, server errors and bad output do not open
// the breaker: the server answered, or may answer the next call.
func TestBreakerIgnores(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
		want  error
	}{
		{"timeout", llmtest.Reply{Hang: true}, llm.ErrTimeout},
		{"500", llmtest.Reply{Status: 500, Error: "CUDA out of memory"}, llm.ErrServer},
		{"429", llmtest.Reply{Status: 429, Error: "busy", RetryAfter: "0"}, llm.ErrServer},
		{"bad output", llmtest.Reply{Text: "no idea"}, llm.ErrBadOutput},
		{"model missing", llmtest.Reply{Status: 404, Error: `model "qwen2.5:3b" not found, try pulling it first`}, llm.ErrModelMissing},
	}
	for _, p := range protocols {
		for _, tt := range tests {
			t.Run(p.name+"/"+tt.name, func(t *testing.T) {
				srv := p.start(t, llmtest.Script(tt.reply))
				m := newModels(t, srv, func(c *llm.Config) { c.Timeout = 100 * time.Millisecond })
				plan := roleCalls(m)["plan"]
				for i := range 3 {
					err := plan()
					if !errors.Is(err, tt.want) || strings.Contains(err.Error(), "skipped") {
						t.Fatalf("call %d: %v, want %v, not skipped", i, err, tt.want)
					}
				}
			})
		}
	}
}

// TestBreakerPerServer: a router on a dead server does not stop a writer
// on a live one; roles on the same server share one breaker.
func TestBreakerPerServer(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Text("The total is 1,240 EUR [1]."))
	cfg := testConfig(t, srv)
	var err error
	if cfg.Router, err = llm.ParseSpec("ollama:qwen2.5:3b@http://" + closedAddr(t)); err != nil {
		t.Fatal(err)
	}
	if cfg.Writer, err = llm.ParseSpec(srv.Spec("qwen2.5:7b")); err != nil {
		t.Fatal(err)
	}
	m, err := llm.New(context.Background(), cfg, &http.Client{})
	if err != nil {
		t.Fatal(err)
	}
	calls := roleCalls(m)
	if err := calls["plan"](); !errors.Is(err, llm.ErrUnreachable) || strings.Contains(err.Error(), "skipped") {
		t.Fatalf("plan: %v", err)
	}
	if err := calls["grade"](); err == nil || !strings.Contains(err.Error(), "skipped") {
		t.Errorf("grade on the same server: %v, want skipped", err)
	}
	if err := calls["write"](); err != nil {
		t.Errorf("write on another server: %v", err)
	}
}

// TestBreakerOff: a negative cooldown turns the breaker off.
func TestBreakerOff(t *testing.T) {
	srv := llmtest.NewOllama(t, nil)
	sw := newSwitch(t)
	sw.down.Store(true)
	cfg := testConfig(t, srv)
	cfg.UnreachableCooldown = -1
	m, err := llm.New(context.Background(), cfg, &http.Client{Transport: sw})
	if err != nil {
		t.Fatal(err)
	}
	plan := roleCalls(m)["plan"]
	for range 2 {
		if err := plan(); !errors.Is(err, llm.ErrUnreachable) || strings.Contains(err.Error(), "skipped") {
			t.Fatalf("err = %v", err)
		}
	}
	if got := sw.attempts.Load(); got != 6 {
		t.Errorf("%d attempts, want 6: both calls should try", got)
	}
}

// TestBreakerEmbedder: the embedder stops calling a dead server too.
func TestBreakerEmbedder(t *testing.T) {
	srv := llmtest.NewOllama(t, nil)
	sw := newSwitch(t)
	cfg := testConfig(t, srv)
	cfg.EmbedDimension = 8
	e, err := llm.NewEmbedder(context.Background(), cfg.Router, cfg, &http.Client{Transport: sw})
	if err != nil {
		t.Fatal(err)
	}
	clock := newFakeClock()
	llm.SetEmbedderClock(e, clock.Now)
	sw.down.Store(true)
	ctx := context.Background()
	if _, err := e.Embed(ctx, []string{"a"}); !errors.Is(err, llm.ErrUnreachable) {
		t.Fatalf("err = %v", err)
	}
	if _, err := e.Embed(ctx, []string{"a"}); err == nil || !strings.Contains(err.Error(), "skipped") {
		t.Fatalf("second: %v, want skipped", err)
	}
	if got := sw.attempts.Load(); got != 3 {
		t.Errorf("%d attempts, want 3", got)
	}
	sw.down.Store(false)
	clock.Advance(30 * time.Second)
	if _, err := e.Embed(ctx, []string{"a"}); err != nil {
		t.Fatalf("after the cooldown: %v", err)
	}
}

// TestBreakerConcurrent: many calls at once on a dead server all fail
// with ErrUnreachable (race detector food).
func TestBreakerConcurrent(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Text(goodPlan))
	sw := newSwitch(t)
	sw.down.Store(true)
	m, err := llm.New(context.Background(), testConfig(t, srv), &http.Client{Transport: sw})
	if err != nil {
		t.Fatal(err)
	}
	calls := roleCalls(m)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			role := []string{"plan", "grade", "write"}[i%3]
			if err := calls[role](); !errors.Is(err, llm.ErrUnreachable) {
				t.Errorf("%s: %v", role, err)
			}
		})
	}
	wg.Wait()
}

// BenchmarkBreakerSkip: what a call to a server known to be down costs.
func BenchmarkBreakerSkip(b *testing.B) {
	spec, _ := llm.ParseSpec("ollama:qwen2.5:3b@http://" + closedAddr(b))
	m, err := llm.New(context.Background(), llm.Config{Router: spec, Retries: -1}, &http.Client{})
	if err != nil {
		b.Fatal(err)
	}
	plan := roleCalls(m)["plan"]
	if err := plan(); !errors.Is(err, llm.ErrUnreachable) {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := plan(); err == nil {
			b.Fatal("no error")
		}
	}
}
