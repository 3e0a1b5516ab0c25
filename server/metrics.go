package server

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/graphrag/graphrag"
)

// queryBuckets are the upper bounds, in seconds, of the query duration
// histogram: local models answer in seconds, not milliseconds.
var queryBuckets = []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120}

// waitBuckets are the upper bounds, in seconds, of the queue wait
// histogram: from "a worker was free" to the default 30 s bound.
var waitBuckets = []float64{0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}

// knownPaths bounds the path label's values.
var knownPaths = []string{"/v1/query", "/v1/ingest", "/v1/graph", "/healthz", "/readyz", "/metrics"}

type requestKey struct {
	path string
	code int
}

// metrics are the server's counters, rendered in the Prometheus text
// exposition format by hand (no client library).
type metrics struct {
	mu               sync.Mutex
	requests         map[requestKey]uint64
	outcomes         map[string]uint64
	routes           map[[2]string]uint64 // route, decider
	buckets          []uint64             // per bucket, not cumulative; last is +Inf
	durSum           float64
	durCount         uint64
	inFlight         int64
	llmCalls         uint64
	promptTokens     uint64
	completionTokens uint64
	fallbacks        uint64

	workers, queueCap int
	queued            int
	waits             []uint64 // like buckets, over waitBuckets
	waitSum           float64
	waitCount         uint64
	rejected          map[string]uint64 // by reason: full, wait

	pausedGauge func() int // the paused queries (nil: runs cannot pause)
}

func newMetrics() *metrics {
	return &metrics{
		requests: make(map[requestKey]uint64),
		outcomes: make(map[string]uint64),
		routes:   make(map[[2]string]uint64),
		buckets:  make([]uint64, len(queryBuckets)+1),
		waits:    make([]uint64, len(waitBuckets)+1),
		rejected: map[string]uint64{"full": 0, "wait": 0},
	}
}

func (m *metrics) request(path string, code int) {
	if !slices.Contains(knownPaths, path) {
		path = "other"
	}
	m.mu.Lock()
	m.requests[requestKey{path, code}]++
	m.mu.Unlock()
}

func (m *metrics) queryStarted() {
	m.mu.Lock()
	m.inFlight++
	m.mu.Unlock()
}

func (m *metrics) queryDone(outcome string, d time.Duration) {
	sec := d.Seconds()
	i, _ := slices.BinarySearch(queryBuckets, sec)
	m.mu.Lock()
	m.inFlight--
	m.outcomes[outcome]++
	m.buckets[i]++
	m.durSum += sec
	m.durCount++
	m.mu.Unlock()
}

func (m *metrics) queueConfig(workers, capacity int) {
	m.mu.Lock()
	m.workers, m.queueCap = workers, capacity
	m.mu.Unlock()
}

func (m *metrics) queueDepth(n int) {
	m.mu.Lock()
	m.queued = n
	m.mu.Unlock()
}

// queueWaited records how long an admitted query waited for its worker.
func (m *metrics) queueWaited(d time.Duration) {
	sec := d.Seconds()
	i, _ := slices.BinarySearch(waitBuckets, sec)
	m.mu.Lock()
	m.waits[i]++
	m.waitSum += sec
	m.waitCount++
	m.mu.Unlock()
}

func (m *metrics) queueRejected(reason string) {
	m.mu.Lock()
	m.rejected[reason]++
	m.mu.Unlock()
}

// meanQueryDuration is the mean run time of the queries so far (one second
// before any has finished).
func (m *metrics) meanQueryDuration() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.durCount == 0 {
		return time.Second
	}
	return time.Duration(m.durSum / float64(m.durCount) * float64(time.Second))
}

func (m *metrics) usage(u map[string]graphrag.Usage) {
	m.mu.Lock()
	for _, v := range u {
		m.llmCalls += uint64(max(v.Calls, 0))
		m.promptTokens += uint64(max(v.PromptTokens, 0))
		m.completionTokens += uint64(max(v.CompletionTokens, 0))
	}
	m.mu.Unlock()
}

// route counts a finished query's route and the decider that chose it.
func (m *metrics) route(route, by string) {
	if route == "" {
		route = "none"
	}
	if by == "" {
		by = "none"
	}
	m.mu.Lock()
	m.routes[[2]string{route, by}]++
	m.mu.Unlock()
}

func (m *metrics) fallback(n int) {
	if n <= 0 {
		return
	}
	m.mu.Lock()
	m.fallbacks += uint64(n)
	m.mu.Unlock()
}

// render writes every metric, sorted, in the text exposition format 0.0.4.
func (m *metrics) render() []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b bytes.Buffer
	head := func(name, typ, help string) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}

	head("graphrag_http_requests_total", "counter", "HTTP requests by path and status code.")
	keys := slices.SortedFunc(maps.Keys(m.requests), func(a, b requestKey) int {
		if a.path != b.path {
			if a.path < b.path {
				return -1
			}
			return 1
		}
		return a.code - b.code
	})
	for _, k := range keys {
		fmt.Fprintf(&b, "graphrag_http_requests_total{path=%s,code=\"%d\"} %d\n", labelValue(k.path), k.code, m.requests[k])
	}

	head("graphrag_queries_total", "counter", "Queries run (HTTP and stdio) by outcome: ok, error, timeout, canceled, interrupted (paused to ask).")
	for _, o := range slices.Sorted(maps.Keys(m.outcomes)) {
		fmt.Fprintf(&b, "graphrag_queries_total{outcome=%s} %d\n", labelValue(o), m.outcomes[o])
	}

	head("graphrag_routes_total", "counter", "Finished queries by route and by the decider that chose it (rules, learned, probe, llm, ...).")
	routes := slices.SortedFunc(maps.Keys(m.routes), func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	for _, k := range routes {
		fmt.Fprintf(&b, "graphrag_routes_total{route=%s,by=%s} %d\n", labelValue(k[0]), labelValue(k[1]), m.routes[k])
	}

	head("graphrag_query_duration_seconds", "histogram", "Time to run a query through the graph.")
	histogram(&b, "graphrag_query_duration_seconds", queryBuckets, m.buckets, m.durSum, m.durCount)

	head("graphrag_queries_in_flight", "gauge", "Queries running now.")
	fmt.Fprintf(&b, "graphrag_queries_in_flight %d\n", m.inFlight)

	head("graphrag_query_workers", "gauge", "Queries that may run at once (--max-concurrent).")
	fmt.Fprintf(&b, "graphrag_query_workers %d\n", m.workers)
	head("graphrag_query_queue_capacity", "gauge", "Queries that may wait for a worker (--queue).")
	fmt.Fprintf(&b, "graphrag_query_queue_capacity %d\n", m.queueCap)
	head("graphrag_query_queue_depth", "gauge", "Queries waiting for a worker now.")
	fmt.Fprintf(&b, "graphrag_query_queue_depth %d\n", m.queued)
	head("graphrag_query_queue_wait_seconds", "histogram", "Time an admitted query waited for a worker.")
	histogram(&b, "graphrag_query_queue_wait_seconds", waitBuckets, m.waits, m.waitSum, m.waitCount)
	head("graphrag_query_rejected_total", "counter", "Queries answered 429 by reason: full (the queue was full) or wait (it waited past --queue-wait).")
	for _, r := range slices.Sorted(maps.Keys(m.rejected)) {
		fmt.Fprintf(&b, "graphrag_query_rejected_total{reason=%s} %d\n", labelValue(r), m.rejected[r])
	}
	if m.pausedGauge != nil {
		head("graphrag_queries_paused", "gauge", "Queries paused, waiting for an answer (--confirm-web).")
		fmt.Fprintf(&b, "graphrag_queries_paused %d\n", m.pausedGauge())
	}
	head("go_goroutines", "gauge", "Number of goroutines that currently exist.")
	fmt.Fprintf(&b, "go_goroutines %d\n", runtime.NumGoroutine())

	head("graphrag_llm_calls_total", "counter", "Language-model calls made by finished queries.")
	fmt.Fprintf(&b, "graphrag_llm_calls_total %d\n", m.llmCalls)
	head("graphrag_llm_tokens_total", "counter", "Language-model tokens used by finished queries, by kind.")
	fmt.Fprintf(&b, "graphrag_llm_tokens_total{kind=\"completion\"} %d\n", m.completionTokens)
	fmt.Fprintf(&b, "graphrag_llm_tokens_total{kind=\"prompt\"} %d\n", m.promptTokens)

	head("graphrag_fallbacks_total", "counter", "Fallbacks that fired during queries (custom \"fallback\" events).")
	fmt.Fprintf(&b, "graphrag_fallbacks_total %d\n", m.fallbacks)
	return b.Bytes()
}

// histogram writes a histogram's cumulative buckets, sum and count;
// counts holds one count per bound, then +Inf, not cumulative.
func histogram(b *bytes.Buffer, name string, bounds []float64, counts []uint64, sum float64, n uint64) {
	var cum uint64
	for i, le := range bounds {
		cum += counts[i]
		fmt.Fprintf(b, "%s_bucket{le=%q} %d\n", name, formatFloat(le), cum)
	}
	cum += counts[len(bounds)]
	fmt.Fprintf(b, "%s_bucket{le=\"+Inf\"} %d\n", name, cum)
	fmt.Fprintf(b, "%s_sum %s\n", name, formatFloat(sum))
	fmt.Fprintf(b, "%s_count %d\n", name, n)
}

// labelValue quotes a label value as the exposition format wants:
// backslash, double quote and newline escaped, nothing else.
func labelValue(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(v) + `"`
}

func formatFloat(f float64) string {
	if math.IsInf(f, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, _ = w.Write(s.metrics.render())
}

// statusWriter records the status a handler answers with. Unwrap lets
// http.ResponseController reach the underlying writer to flush.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
