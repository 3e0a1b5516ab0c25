package server

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// queue admits queries to the workers: a request takes a free worker at
// once, or waits in a bounded queue for one, as nginx's limit_req burst and
// Envoy's pending-request limit do. It is shed (429 with Retry-After) only
// when the queue is full or its wait passes the bound. Waiters are served
// in arrival order: a freed worker slot goes to the longest waiter (Go
// hands a channel's freed buffer slot to its first blocked sender).
type queue struct {
	workers chan struct{}
	maxLen  int
	maxWait time.Duration
	metrics *metrics

	mu      sync.Mutex
	waiting int
}

func newQueue(workers, maxLen int, maxWait time.Duration, m *metrics) *queue {
	q := &queue{workers: make(chan struct{}, workers), maxLen: maxLen, maxWait: maxWait, metrics: m}
	m.queueConfig(workers, maxLen)
	return q
}

// acquire takes a worker slot, waiting in the queue for at most maxWait.
// It returns the function that gives the slot back, or a 429 *apiError
// (queue full, or waited too long), or the context's error when the
// client goes away while it waits.
func (q *queue) acquire(ctx context.Context) (release func(), err error) {
	release = func() { <-q.workers }
	select {
	case q.workers <- struct{}{}:
		q.metrics.queueWaited(0)
		return release, nil
	default:
	}
	q.mu.Lock()
	if q.waiting >= q.maxLen {
		depth := q.waiting
		q.mu.Unlock()
		q.metrics.queueRejected("full")
		return nil, q.busy("the server's query queue is full", depth)
	}
	q.waiting++
	q.metrics.queueDepth(q.waiting)
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		q.waiting--
		q.metrics.queueDepth(q.waiting)
		q.mu.Unlock()
	}()

	start := time.Now()
	timer := time.NewTimer(q.maxWait)
	defer timer.Stop()
	select {
	case q.workers <- struct{}{}:
		q.metrics.queueWaited(time.Since(start))
		return release, nil
	case <-timer.C:
		q.metrics.queueRejected("wait")
		q.mu.Lock()
		depth := q.waiting
		q.mu.Unlock()
		return nil, q.busy("the query waited "+q.maxWait.String()+" for a worker", depth)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// busy is the 429 a shed request gets. Its Retry-After estimates when a
// place will be free: the queue ahead of it, drained by the workers at the
// mean query duration so far, within [1 s, maxWait].
func (q *queue) busy(why string, depth int) *apiError {
	ahead := float64(depth+1) / float64(cap(q.workers))
	wait := time.Duration(ahead * float64(q.metrics.meanQueryDuration()))
	secs := int(math.Ceil(min(wait, q.maxWait).Seconds()))
	e := newError(http.StatusTooManyRequests, "too_many_requests",
		why+"; retry in a moment, or raise the server's --max-concurrent or --queue")
	e.retryAfter = strconv.Itoa(max(secs, 1))
	return e
}
