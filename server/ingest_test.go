package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// recordingIngester records the paths it was asked to ingest.
type recordingIngester struct {
	mu    sync.Mutex
	calls [][]string
	block chan struct{} // when set, Ingest waits for it to close
}

func (r *recordingIngester) ingest(ctx context.Context, paths []string) (any, error) {
	r.mu.Lock()
	r.calls = append(r.calls, paths)
	r.mu.Unlock()
	if r.block != nil {
		select {
		case <-r.block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return map[string]int{"files": len(paths), "chunks": 7}, nil
}

func TestIngest(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "docs")
	other := filepath.Join(base, "private")
	for _, d := range []string{filepath.Join(root, "notes"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(other, "secret.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "notes"), filepath.Join(root, "inside")); err != nil {
		t.Fatal(err)
	}
	// A root reached through a symlink still contains its own files.
	linkedRoot := filepath.Join(base, "linked")
	if err := os.Symlink(root, linkedRoot); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		roots  []string
		body   string
		status int
		code   string
		paths  []string // passed to the ingester on success
	}{
		{"a directory inside", []string{root}, `{"paths": ["` + root + `/notes"]}`, 200, "", []string{root + "/notes"}},
		{"the root itself, uncleaned", []string{root}, `{"paths": ["` + root + `/notes/.."]}`, 200, "", []string{root}},
		{"no paths means every root", []string{root, other}, `{}`, 200, "", []string{root, other}},
		{"symlink staying inside", []string{root}, `{"paths": ["` + root + `/inside"]}`, 200, "", []string{root + "/inside"}},
		{"root given through a symlink", []string{linkedRoot}, `{"paths": ["` + linkedRoot + `/notes"]}`, 200, "", []string{linkedRoot + "/notes"}},
		{"outside", []string{root}, `{"paths": ["` + other + `"]}`, 403, "forbidden", nil},
		{"dot-dot escape", []string{root}, `{"paths": ["` + root + `/../private"]}`, 403, "forbidden", nil},
		{"sibling with a common prefix", []string{root}, `{"paths": ["` + root + `-other"]}`, 403, "forbidden", nil},
		{"symlink leaving the root", []string{root}, `{"paths": ["` + root + `/escape"]}`, 403, "forbidden", nil},
		{"file behind a leaving symlink", []string{root}, `{"paths": ["` + root + `/escape/secret.txt"]}`, 403, "forbidden", nil},
		{"missing file behind a leaving symlink", []string{root}, `{"paths": ["` + root + `/escape/nothing.txt"]}`, 403, "forbidden", nil},
		{"outside and missing says forbidden, not missing", []string{root}, `{"paths": ["/no/such/dir"]}`, 403, "forbidden", nil},
		{"missing inside", []string{root}, `{"paths": ["` + root + `/nope"]}`, 404, "not_found", nil},
		{"relative", []string{root}, `{"paths": ["docs"]}`, 400, "bad_request", nil},
		{"no roots configured", nil, `{"paths": ["` + root + `"]}`, 403, "forbidden", nil},
		{"unknown field", []string{root}, `{"path": "x"}`, 400, "bad_json", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recordingIngester{}
			s := newTestServer(t, newFake(), Config{Ingest: rec.ingest, IngestRoots: tt.roots})
			w := do(s.Handler(), "POST", "/v1/ingest", tt.body)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if tt.status != 200 {
				e := errorOf(t, w.Body.Bytes())
				if e.Code != tt.code {
					t.Errorf("code %q, want %q: %s", e.Code, tt.code, e.Message)
				}
				if tt.code == "forbidden" && tt.roots != nil && !strings.Contains(e.Message, "outside the directories") {
					t.Errorf("message does not say why: %s", e.Message)
				}
				if len(rec.calls) != 0 {
					t.Errorf("ingester called with %v", rec.calls)
				}
				return
			}
			var resp struct {
				Paths   []string       `json:"paths"`
				Summary map[string]int `json:"summary"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil {
				t.Fatal(err)
			}
			if len(rec.calls) != 1 || !slices.Equal(rec.calls[0], tt.paths) || !slices.Equal(resp.Paths, tt.paths) {
				t.Errorf("ingested %v, answered %v; want %v", rec.calls, resp.Paths, tt.paths)
			}
			if resp.Summary["chunks"] != 7 {
				t.Errorf("summary %v", resp.Summary)
			}
		})
	}

	t.Run("not configured", func(t *testing.T) {
		s := newTestServer(t, newFake(), Config{IngestRoots: []string{root}})
		w := do(s.Handler(), "POST", "/v1/ingest", `{}`)
		if e := errorOf(t, w.Body.Bytes()); w.Code != 501 || e.Code != "not_configured" {
			t.Fatalf("%d %+v", w.Code, e)
		}
	})

	t.Run("one ingest at a time", func(t *testing.T) {
		rec := &recordingIngester{block: make(chan struct{})}
		s := newTestServer(t, newFake(), Config{Ingest: rec.ingest, IngestRoots: []string{root}})
		done := make(chan int)
		go func() { done <- do(s.Handler(), "POST", "/v1/ingest", `{}`).Code }()
		waitFor(t, func() bool { rec.mu.Lock(); defer rec.mu.Unlock(); return len(rec.calls) == 1 })
		w := do(s.Handler(), "POST", "/v1/ingest", `{}`)
		if e := errorOf(t, w.Body.Bytes()); w.Code != 429 || e.Code != "too_many_requests" || w.Header().Get("Retry-After") == "" {
			t.Fatalf("%d %+v", w.Code, e)
		}
		close(rec.block)
		if code := <-done; code != 200 {
			t.Fatalf("first ingest: %d", code)
		}
	})

	t.Run("relative root refused by New", func(t *testing.T) {
		if _, err := New(Config{Runner: newFake().graph(t), IngestRoots: []string{"docs"}}); err == nil {
			t.Fatal("New accepted a relative ingest root")
		}
	})
}
