package server

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// serve runs s on a loopback listener until the returned cancel is called;
// wait returns Serve's error.
func serve(t *testing.T, s *Server) (url string, cancel context.CancelFunc, wait func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ctx, ln) }()
	t.Cleanup(cancel)
	return "http://" + ln.Addr().String(), cancel, func() error {
		select {
		case err := <-errc:
			return err
		case <-time.After(20 * time.Second):
			t.Fatal("Serve did not return")
			return nil
		}
	}
}

func postQuery(ctx context.Context, url, body string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", url+"/v1/query", strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return http.DefaultTransport.RoundTrip(req)
}

func TestGracefulShutdownFinishesInFlight(t *testing.T) {
	f := newFake()
	f.tokens, f.tokenDelay = 5, 40*time.Millisecond
	s := newTestServer(t, f, Config{ShutdownTimeout: 20 * time.Second})
	url, stop, wait := serve(t, s)

	resp, err := postQuery(context.Background(), url, `{"query": "q", "stream": "ndjson"}`)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	waitFor(t, func() bool { return strings.Contains(string(s.metrics.render()), "graphrag_queries_in_flight 1") })
	stop()

	evs := readNDJSON(t, resp.Body)
	if last := evs[len(evs)-1]; last.Type != "result" || last.Result.Answer != "tok0 tok1 tok2 tok3 tok4 [1]" {
		t.Fatalf("the in-flight query did not finish: last event %+v", last)
	}
	if err := wait(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := postQuery(context.Background(), url, `{"query": "q"}`); err == nil {
		t.Fatal("a new request was served after shutdown")
	}
}

func TestShutdownDeadlineCutsOffRuns(t *testing.T) {
	f := newFake()
	f.block = true
	s := newTestServer(t, f, Config{ShutdownTimeout: 50 * time.Millisecond})
	url, stop, wait := serve(t, s)
	go func() {
		resp, err := postQuery(context.Background(), url, `{"query": "q"}`)
		if err == nil {
			resp.Body.Close()
		}
	}()
	<-f.started
	stop()
	err := wait()
	if err == nil || !strings.Contains(err.Error(), "did not finish within 50ms") {
		t.Fatalf("Serve returned %v, want a shutdown deadline error", err)
	}
	select {
	case <-f.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the cut-off run was not cancelled")
	}
}

func TestListenAndServeBusyAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	s := newTestServer(t, newFake(), Config{Addr: ln.Addr().String()})
	err = s.ListenAndServe(context.Background())
	if err == nil || !strings.Contains(err.Error(), "listen on "+ln.Addr().String()) {
		t.Fatalf("ListenAndServe on a busy address: %v", err)
	}
}

func TestNewDefaults(t *testing.T) {
	if _, err := New(Config{}); err != ErrNoRunner {
		t.Fatalf("New without a runner: %v", err)
	}
	s := newTestServer(t, newFake(), Config{})
	c := s.cfg
	if c.Addr != "127.0.0.1:8080" || c.MaxBodyBytes != 1<<20 || c.Timeout != 2*time.Minute || c.MaxConcurrent != 8 ||
		c.QueueLength != 256 || c.QueueWait != 30*time.Second ||
		c.ShutdownTimeout != 30*time.Second || c.Logger == nil || c.Diagram == nil || len(c.AllowedHosts) != 3 {
		t.Fatalf("defaults %+v", c)
	}
}
