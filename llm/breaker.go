package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// errSkipped is the cause of a call the circuit breaker refused.
var errSkipped = errors.New("skipped")

// breaker is a circuit breaker for one model server, shared by every role
// (planner, grader, rewriter, judge, writer, embedder) that talks to it.
//
// A call that fails with ErrUnreachable (connection refused or reset, no
// such host, the connection lost mid-answer), after its own retries,
// opens the breaker: for the cooldown every further call to the server
// fails at once with an *Error of kind ErrUnreachable, so a run whose
// model server is down pays the retries once instead of once per role and
// falls back to its deterministic path in microseconds. After the cooldown
// one call is let through as a probe (half-open) while the others still
// fail fast; if the probe reaches the server (any HTTP answer, even an
// error status) the breaker closes, if not it opens for another cooldown.
//
// Timeouts and 5xx/429 responses do not open it: a timeout is a slow server
// (a large prompt on a CPU, a model still loading) that may answer the next,
// smaller call, and a 5xx is a server that is up. Both are already bounded
// by the per-call timeout and retries. A probe that times out or is
// cancelled proves nothing: the next call probes again.
type breaker struct {
	server   string
	cooldown time.Duration
	now      func() time.Time

	mu      sync.Mutex
	open    bool      // the last call that ended found the server unreachable
	since   time.Time // when the breaker (re)opened
	probing bool      // the half-open probe is in flight
}

// serverKey names the server a spec's calls go to: its base URL.
func serverKey(s Spec) string { return strings.TrimRight(s.BaseURL, "/") }

// breakers hands out one breaker per server.
type breakers struct {
	cooldown time.Duration // <0: none
	mu       sync.Mutex
	now      func() time.Time
	m        map[string]*breaker
}

func newBreakers(cooldown time.Duration) *breakers {
	return &breakers{cooldown: cooldown, now: time.Now, m: map[string]*breaker{}}
}

// get returns the breaker of spec's server, or nil when breakers are off.
func (bs *breakers) get(spec Spec) *breaker {
	if bs == nil || bs.cooldown < 0 {
		return nil
	}
	k := serverKey(spec)
	bs.mu.Lock()
	defer bs.mu.Unlock()
	b := bs.m[k]
	if b == nil {
		b = &breaker{server: k, cooldown: bs.cooldown, now: bs.now}
		bs.m[k] = b
	}
	return b
}

// setClock replaces the clock of every breaker, present and future (tests).
func (bs *breakers) setClock(now func() time.Time) {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	for _, b := range bs.m {
		b.mu.Lock()
		b.now = now
		b.mu.Unlock()
	}
	bs.now = now
}

// allow says whether a call may go ahead. probe is true for the one call
// let through after the cooldown. A refused call gets err, the cause to
// put in its *Error. A nil breaker allows everything.
func (b *breaker) allow() (probe bool, err error) {
	if b == nil {
		return false, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.open {
		return false, nil
	}
	ago := b.now().Sub(b.since)
	if ago >= b.cooldown && !b.probing {
		b.probing = true
		return true, nil
	}
	return false, fmt.Errorf("%w: %s was unreachable %ds ago", errSkipped, b.server, int(ago.Round(time.Second)/time.Second))
}

// done records how a call that allow let through ended: kind is nil on
// success, else the *Error's Kind.
func (b *breaker) done(probe bool, kind error) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case errors.Is(kind, ErrUnreachable):
		b.open, b.since, b.probing = true, b.now(), false
	case errors.Is(kind, ErrTimeout), errors.Is(kind, context.Canceled):
		if probe {
			b.probing = false
		}
	default: // the server answered
		b.open, b.probing = false, false
	}
}
