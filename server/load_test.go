package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoadLoopback runs 200 clients at once against a real listener on
// loopback, with the default workers and queue, each sending 3 queries (JSON, NDJSON and SSE in turn) to a fake
// graph that plans for 5 ms and streams 20 tokens 1 ms apart, like a small
// local model. Every query must succeed with a complete answer (none shed:
// the queue holds the burst); latency
// percentiles are logged; the heap must stay bounded during the run and
// return near where it was after it, with no goroutines left behind.
//
//	go test ./server -run TestLoadLoopback -v
func TestLoadLoopback(t *testing.T) {
	const (
		clients   = 200
		perClient = 3
	)
	f := newFake()
	f.tokens, f.tokenDelay, f.routeDelay = 20, time.Millisecond, 5*time.Millisecond
	wantAnswer := ""
	for i := range f.tokens {
		wantAnswer += fmt.Sprintf("tok%d ", i)
	}
	wantAnswer += "[1]"

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	goroutinesBefore := runtime.NumGoroutine()

	s := newTestServer(t, f, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	url := "http://" + ln.Addr().String() + "/v1/query"

	tr := &http.Transport{MaxIdleConnsPerHost: clients, DisableCompression: true}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}

	// Sample the heap while the load runs.
	var peak atomic.Uint64
	sampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-sampling:
				return
			case <-tick.C:
			}
		}
	}()

	var (
		mu        sync.Mutex
		latencies []time.Duration
		failures  []string
		wg        sync.WaitGroup
		gate      = make(chan struct{})
	)
	modes := []string{"json", "ndjson", "sse"}
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate // start together
			for i := range perClient {
				mode := modes[(c+i)%len(modes)]
				t0 := time.Now()
				err := loadQuery(client, url, mode, fmt.Sprintf("question %d.%d", c, i), wantAnswer)
				d := time.Since(t0)
				mu.Lock()
				latencies = append(latencies, d)
				if err != nil {
					failures = append(failures, fmt.Sprintf("client %d query %d (%s): %v", c, i, mode, err))
				}
				mu.Unlock()
			}
		}()
	}
	close(gate)
	wg.Wait()
	wall := time.Since(start)
	close(sampling)
	<-sampled

	stop()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	tr.CloseIdleConnections()

	if len(failures) > 0 {
		t.Fatalf("%d of %d queries failed; first: %s", len(failures), clients*perClient, failures[0])
	}
	if n := f.runs.Load(); n != clients*perClient {
		t.Fatalf("%d runs, want %d", n, clients*perClient)
	}
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	t.Logf("%d queries from %d concurrent clients in %v (%.0f queries/s): p50 %v, p95 %v, p99 %v, max %v",
		len(latencies), clients, wall.Round(time.Millisecond), float64(len(latencies))/wall.Seconds(),
		pct(0.50).Round(100*time.Microsecond), pct(0.95).Round(100*time.Microsecond),
		pct(0.99).Round(100*time.Microsecond), latencies[len(latencies)-1].Round(100*time.Microsecond))

	// Memory: a generous ceiling, far above what 200 small streams need,
	// that still catches per-query leaks or unbounded buffering.
	const peakCeiling, retainedCeiling = 256 << 20, 32 << 20
	waitFor(t, func() bool { return runtime.NumGoroutine() <= goroutinesBefore+5 })
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	retained := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("heap: %.1f MiB before, peak %.1f MiB during, %.1f MiB after (retained %+.1f MiB); goroutines %d before, %d after",
		mib(before.HeapAlloc), mib(peak.Load()), mib(after.HeapAlloc), float64(retained)/(1<<20), goroutinesBefore, runtime.NumGoroutine())
	if peak.Load() > peakCeiling {
		t.Errorf("peak heap %.1f MiB over the %d MiB ceiling", mib(peak.Load()), peakCeiling>>20)
	}
	if retained > retainedCeiling {
		t.Errorf("heap grew by %.1f MiB over the run, ceiling %d MiB", float64(retained)/(1<<20), retainedCeiling>>20)
	}
	m := parseExposition(t, string(s.metrics.render()))
	if got := m[`graphrag_queries_total{outcome="ok"}`]; got != clients*perClient {
		t.Errorf("metrics count %v ok queries", got)
	}
	if got := m[`graphrag_queries_in_flight`]; got != 0 {
		t.Errorf("in flight after the run: %v", got)
	}
	t.Logf("queue: %v queries waited for a worker, %.2f s on average",
		m[`graphrag_query_queue_wait_seconds_count`], m[`graphrag_query_queue_wait_seconds_sum`]/max(m[`graphrag_query_queue_wait_seconds_count`], 1))
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// loadQuery sends one query and checks that the answer came back whole.
func loadQuery(c *http.Client, url, mode, q, wantAnswer string) error {
	body := fmt.Sprintf(`{"query": %q, "stream": %q}`, q, mode)
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 {
		return fmt.Errorf("status %d: %s", resp.StatusCode, data)
	}
	var res QueryResponse
	switch mode {
	case "json":
		err = json.Unmarshal(data, &res)
	default:
		// The last line (NDJSON) or last data line (SSE) is the result.
		text := strings.TrimSpace(string(data))
		last := text[strings.LastIndexByte(text, '\n')+1:]
		last = strings.TrimPrefix(last, "data: ")
		var e Event
		if err = json.Unmarshal([]byte(last), &e); err == nil {
			if e.Type != "result" || e.Result == nil {
				return fmt.Errorf("stream ended with %q: %+v", e.Type, e.Error)
			}
			if n := strings.Count(text, `"type":"token"`); n != 20 {
				return fmt.Errorf("%d tokens streamed, want 20", n)
			}
			res = *e.Result
		}
	}
	if err != nil {
		return fmt.Errorf("decode %s response: %w", mode, err)
	}
	if res.Answer != wantAnswer {
		return fmt.Errorf("answer %q", res.Answer)
	}
	return nil
}

// BenchmarkQuery measures the server's own cost per query (decode, run a
// three-node graph with three tokens, encode) through the handler,
// without a network.
//
//	go test ./server -run '^$' -bench Query -benchmem
func BenchmarkQuery(b *testing.B) {
	for _, mode := range []string{"json", "ndjson", "sse"} {
		b.Run(mode, func(b *testing.B) {
			s := newTestServer(b, newFake(), Config{})
			h := s.Handler()
			body := `{"query": "when are invoices due?", "stream": "` + mode + `"}`
			b.ReportAllocs()
			for b.Loop() {
				if w := do(h, "POST", "/v1/query", body); w.Code != 200 {
					b.Fatal(w.Code, w.Body)
				}
			}
		})
	}
}
