package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMain lets a test re-run this binary as graphrag itself (the load
// benchmark serves from a child process, so that its memory is the
// server's alone).
func TestMain(m *testing.M) {
	if os.Getenv(envRunAsGraphrag) == "1" {
		main()
	}
	os.Exit(m.Run())
}

const envRunAsGraphrag = "GRAPHRAG_TEST_RUN_AS_MAIN"

// BenchmarkServeLoad is the serve load benchmark: the bundled dev corpus
// (5,038 passages) ingested into a SQLite store, `graphrag serve` with its
// defaults (8 workers, a queue of 256 waiting at most 30 s, no language
// model: extractive answers) in a child process, and 200 clients sending 3
// questions each at once, JSON, NDJSON and SSE in turn. It fails on any
// error or 429, and reports latency percentiles and the server's peak and
// final resident memory (VmHWM, VmRSS; Linux). One round per b.N:
//
//	go test ./cmd/graphrag -run '^$' -bench ServeLoad -benchtime 1x
func BenchmarkServeLoad(b *testing.B) {
	const clients, perClient = 200, 3
	home := b.TempDir()
	env := map[string]string{"HOME": home, "XDG_DATA_HOME": filepath.Join(home, "data"), "XDG_CONFIG_HOME": filepath.Join(home, "config")}
	corpus, titles := unpackCorpus(b, filepath.Join(home, "corpus.jsonl"))
	var out, errb strings.Builder
	if code := Run(context.Background(), []string{"ingest", corpus}, stdio{in: strings.NewReader(""), out: &out, err: &errb}, func(k string) string { return env[k] }); code != 0 {
		b.Fatalf("ingest: exit %d: %s", code, errb.String())
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(os.Args[0], "serve", "--addr", addr)
	cmd.Env = append(os.Environ(), envRunAsGraphrag+"=1")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var serverLog strings.Builder
	cmd.Stderr = &serverLog
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()
	base := "http://" + addr
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: 3 * time.Minute}
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := client.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			b.Fatalf("server not ready after a minute: %v\n%s", err, serverLog.String())
		}
		time.Sleep(50 * time.Millisecond)
	}

	modes := []string{"json", "ndjson", "sse"}
	for b.Loop() {
		var (
			mu        sync.Mutex
			latencies []time.Duration
			failures  []string
			shed      int
			wg        sync.WaitGroup
			gate      = make(chan struct{})
		)
		start := time.Now()
		for c := range clients {
			wg.Go(func() {
				<-gate
				for i := range perClient {
					q := fmt.Sprintf("What is known about %s?", titles[(c*perClient+i)%len(titles)])
					t0 := time.Now()
					status, err := serveQuery(client, base, q, modes[(c+i)%len(modes)])
					d := time.Since(t0)
					mu.Lock()
					latencies = append(latencies, d)
					if status == http.StatusTooManyRequests {
						shed++
					} else if err != nil {
						failures = append(failures, err.Error())
					}
					mu.Unlock()
				}
			})
		}
		close(gate)
		wg.Wait()
		wall := time.Since(start)
		slices.Sort(latencies)
		pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
		peak, rss := procMemory(cmd.Process.Pid, "VmHWM"), procMemory(cmd.Process.Pid, "VmRSS")
		b.ReportMetric(float64(pct(0.50).Milliseconds()), "p50-ms")
		b.ReportMetric(float64(pct(0.95).Milliseconds()), "p95-ms")
		b.ReportMetric(float64(pct(0.99).Milliseconds()), "p99-ms")
		b.ReportMetric(float64(len(latencies))/wall.Seconds(), "queries/s")
		b.ReportMetric(float64(len(failures)), "errors")
		b.ReportMetric(float64(shed), "429s")
		b.ReportMetric(peak, "server-peak-RSS-MiB")
		b.ReportMetric(rss, "server-RSS-MiB")
		b.Logf("%d queries from %d clients in %v: p50 %v, p95 %v, p99 %v, max %v; %d errors, %d answered 429; server RSS peak %.0f MiB, now %.0f MiB",
			len(latencies), clients, wall.Round(time.Millisecond), pct(0.5).Round(time.Millisecond), pct(0.95).Round(time.Millisecond),
			pct(0.99).Round(time.Millisecond), latencies[len(latencies)-1].Round(time.Millisecond), len(failures), shed, peak, rss)
		if len(failures) > 0 || shed > 0 {
			first := ""
			if len(failures) > 0 {
				first = failures[0]
			}
			b.Fatalf("%d errors and %d 429s out of %d queries; first error: %s", len(failures), shed, len(latencies), first)
		}
	}
	if resp, err := client.Get(base + "/metrics"); err == nil {
		m, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, ln := range strings.Split(string(m), "\n") {
			if strings.HasPrefix(ln, "graphrag_query_queue_wait_seconds_sum") || strings.HasPrefix(ln, "graphrag_query_queue_wait_seconds_count") ||
				strings.HasPrefix(ln, "graphrag_query_rejected_total") || strings.HasPrefix(ln, "go_goroutines") {
				b.Log(ln)
			}
		}
	}
}

// unpackCorpus writes the bundled dev corpus as plain JSONL and returns its
// path and its passages' titles.
func unpackCorpus(b *testing.B, dst string) (string, []string) {
	b.Helper()
	f, err := os.Open("../../evals/datasets/rag_corpus.jsonl.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		b.Fatal(err)
	}
	var titles []string
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var row struct {
			Title string `json:"title"`
		}
		if json.Unmarshal(sc.Bytes(), &row) == nil && row.Title != "" {
			titles = append(titles, row.Title)
		}
	}
	return dst, titles
}

// serveQuery sends one question and checks that an answer came back.
func serveQuery(c *http.Client, base, q, mode string) (int, error) {
	body, _ := json.Marshal(map[string]string{"query": q, "stream": mode})
	resp, err := c.Post(base+"/v1/query", "application/json", strings.NewReader(string(body)))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode != 200 {
		return resp.StatusCode, fmt.Errorf("status %d: %s", resp.StatusCode, data)
	}
	if mode != "json" && !strings.Contains(string(data), `"type":"result"`) {
		return resp.StatusCode, fmt.Errorf("%s stream without a result: %.300s", mode, data)
	}
	if mode == "json" && !strings.Contains(string(data), `"answer"`) {
		return resp.StatusCode, fmt.Errorf("no answer: %.300s", data)
	}
	return resp.StatusCode, nil
}

// procMemory reads a memory figure of a process from /proc, in MiB (0
// where /proc is not there).
func procMemory(pid int, field string) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, ln := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(ln, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
