package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
)

// The Authorization scheme is case-insensitive (RFC 9110 §11.1).
func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	s := newTestServer(t, newFake(), Config{Token: "s3cret"})
	for _, auth := range []string{"Bearer s3cret", "bearer s3cret", "BEARER s3cret", "  Bearer   s3cret  "} {
		if w := do(s.Handler(), "GET", "/v1/graph", "", "Authorization", auth); w.Code != 200 {
			t.Errorf("Authorization %q: status %d: %s", auth, w.Code, w.Body)
		}
	}
	for _, auth := range []string{"bearer nope", "Bearers3cret", "Basic s3cret", "s3cret"} {
		if w := do(s.Handler(), "GET", "/v1/graph", "", "Authorization", auth); w.Code != 401 {
			t.Errorf("Authorization %q: status %d, want 401", auth, w.Code)
		}
	}
}

// An oversized question is refused with 400 before it takes a worker.
func TestOversizedQueryIsRefused(t *testing.T) {
	f := newFake()
	s := newTestServer(t, f, Config{})
	words := strings.Repeat("why ", nodes.MaxQueryWords+1)
	long := strings.Repeat("x", nodes.MaxQueryBytes+1)
	for name, body := range map[string]string{
		"words":            fmt.Sprintf(`{"query": %q}`, words),
		"bytes":            fmt.Sprintf(`{"query": %q}`, long),
		"history question": fmt.Sprintf(`{"query": "and then?", "history": [{"query": %q, "answer": "a"}]}`, words),
	} {
		t.Run(name, func(t *testing.T) {
			w := do(s.Handler(), "POST", "/v1/query", body)
			e := errorOf(t, w.Body.Bytes())
			if w.Code != 400 || e.Code != "invalid_query" || !strings.Contains(e.Message, "ask a shorter question") {
				t.Fatalf("status %d %+v", w.Code, e)
			}
		})
	}
	if n := f.runs.Load(); n != 0 {
		t.Errorf("%d runs started for refused queries", n)
	}
}

// A store or model that cannot be reached is 503 with Retry-After, in JSON
// and as a stream's final error, not 500 node_failed.
func TestUnavailableStoreIs503(t *testing.T) {
	f := newFake()
	f.fail = fmt.Errorf("pgvector: search in collection %q: %w: connection refused", "default", graphrag.ErrUnavailable)
	s := newTestServer(t, f, Config{})
	w := do(s.Handler(), "POST", "/v1/query", `{"query": "q"}`)
	if e := errorOf(t, w.Body.Bytes()); w.Code != 503 || e.Code != "unavailable" || w.Header().Get("Retry-After") == "" {
		t.Fatalf("status %d Retry-After %q %+v", w.Code, w.Header().Get("Retry-After"), e)
	}
	w = do(s.Handler(), "POST", "/v1/query", `{"query": "q", "stream": "ndjson"}`)
	evs := readNDJSON(t, w.Body)
	if last := evs[len(evs)-1]; last.Type != "error" || last.Error.Code != "unavailable" {
		t.Fatalf("last event %+v", last)
	}
}

// /readyz needs no token, so it must not tell who the store's database,
// user and host are; an authenticated caller sees the reason.
func TestReadyzHidesStoreDetailsFromAnonymousCallers(t *testing.T) {
	down := errors.New(`failed to connect to user=alice database=payroll: db.internal:5432: dial tcp: connection refused`)
	s := newTestServer(t, newFake(), Config{Token: "s3cret", Ready: func(context.Context) error { return down }})
	w := do(s.Handler(), "GET", "/readyz", "")
	if w.Code != 503 {
		t.Fatalf("status %d", w.Code)
	}
	for _, secret := range []string{"alice", "payroll", "db.internal", "5432"} {
		if strings.Contains(w.Body.String(), secret) {
			t.Errorf("anonymous /readyz reveals %q: %s", secret, w.Body)
		}
	}
	w = do(s.Handler(), "GET", "/readyz", "", "Authorization", "Bearer s3cret")
	if w.Code != 503 || !strings.Contains(w.Body.String(), "db.internal") {
		t.Errorf("authenticated /readyz: %d %s: want the reason", w.Code, w.Body)
	}
}

// A NUL in an ingest path is reported as such.
func TestIngestPathWithNUL(t *testing.T) {
	root := t.TempDir()
	rec := &recordingIngester{}
	s := newTestServer(t, newFake(), Config{Ingest: rec.ingest, IngestRoots: []string{root}})
	body := `{"paths": ["` + root + `/a\u0000b.txt"]}`
	w := do(s.Handler(), "POST", "/v1/ingest", body)
	e := errorOf(t, w.Body.Bytes())
	if w.Code != 400 || !strings.Contains(e.Message, "NUL") || strings.Contains(e.Message, "absolute") {
		t.Fatalf("status %d %+v", w.Code, e)
	}
}
