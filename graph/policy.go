package graph

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// NodeOption sets a node's policy: how long it may run and whether a
// failure is retried.
type NodeOption func(*nodePolicy)

type nodePolicy struct {
	timeout time.Duration
	retry   RetryPolicy
}

// WithTimeout gives each run of the node (each attempt, under a retry
// policy) at most d: its ctx is cancelled after d, and the node's error
// then reads "timed out". The node must honour ctx; a timed-out attempt is
// retryable.
func WithTimeout(d time.Duration) NodeOption {
	return func(p *nodePolicy) { p.timeout = d }
}

// RetryPolicy says how often a node that fails with a retryable error
// (Retryable) runs again, waiting Backoff, then twice as long each time,
// up to MaxBackoff.
type RetryPolicy struct {
	MaxAttempts int           // runs in all, the first included; below 2 means no retry
	Backoff     time.Duration // wait before the second attempt
	MaxBackoff  time.Duration // cap on the wait (0: no cap)
}

// WithRetry retries the node under p.
func WithRetry(p RetryPolicy) NodeOption {
	return func(np *nodePolicy) { np.retry = p }
}

// retryableError marks an error worth retrying.
type retryableError struct{ err error }

func (e *retryableError) Error() string { return e.err.Error() }
func (e *retryableError) Unwrap() error { return e.err }

// Retryable marks err as transient (a timeout, a busy server): a node
// with a retry policy runs again when it returns such an error. Other
// errors fail the run at once. Retryable(nil) is nil.
func Retryable(err error) error {
	if err == nil {
		return nil
	}
	return &retryableError{err: err}
}

// IsRetryable reports whether err, or an error it wraps, was marked with
// Retryable or is a node timeout.
func IsRetryable(err error) bool {
	var re *retryableError
	if errors.As(err, &re) {
		return true
	}
	var te *timeoutError
	return errors.As(err, &te)
}

// timeoutError is a node attempt that ran out of its WithTimeout.
type timeoutError struct {
	after time.Duration
	err   error
}

func (e *timeoutError) Error() string {
	return fmt.Sprintf("timed out after %s: %v", e.after, e.err)
}
func (e *timeoutError) Unwrap() error { return e.err }

// withPolicy wraps fn in its policy. Nodes without one run unwrapped, so
// the policy costs nothing when unused.
func withPolicy[S any](fn NodeFunc[S], p nodePolicy) NodeFunc[S] {
	if p.timeout > 0 {
		fn = withTimeout(fn, p.timeout)
	}
	if p.retry.MaxAttempts > 1 {
		fn = withRetry(fn, p.retry)
	}
	return fn
}

func withTimeout[S any](fn NodeFunc[S], d time.Duration) NodeFunc[S] {
	return func(ctx context.Context, s S) (S, error) {
		tctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		out, err := fn(tctx, s)
		if err != nil && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) {
			err = &timeoutError{after: d, err: err}
		}
		return out, err
	}
}

func withRetry[S any](fn NodeFunc[S], p RetryPolicy) NodeFunc[S] {
	return func(ctx context.Context, s S) (S, error) {
		wait := p.Backoff
		for attempt := 1; ; attempt++ {
			out, err := fn(ctx, s)
			if err == nil || attempt >= p.MaxAttempts || !IsRetryable(err) || errors.Is(err, ErrInterrupted) {
				if err != nil && attempt > 1 {
					err = fmt.Errorf("attempt %d of %d: %w", attempt, p.MaxAttempts, err)
				}
				return out, err
			}
			if sc, _ := ctx.Value(emitterKey{}).(*scope); sc != nil {
				sc.em.mu.Lock()
				sc.em.deliver(Event{Kind: EventRetry, Step: sc.step, Node: sc.node, Subgraph: sc.path, Err: err, Duration: wait, Attempt: attempt, Time: time.Now()})
				sc.em.mu.Unlock()
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return s, fmt.Errorf("attempt %d of %d: %w (retry abandoned: %w)", attempt, p.MaxAttempts, err, ctx.Err())
			case <-t.C:
			}
			wait *= 2
			if p.MaxBackoff > 0 && wait > p.MaxBackoff {
				wait = p.MaxBackoff
			}
		}
	}
}
