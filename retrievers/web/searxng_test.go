package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
)

// webSearcher is nodes.WebSearcher, restated so this test does not depend
// on the nodes package compiling.
type webSearcher interface {
	SearchWeb(ctx context.Context, query string, k int) ([]graphrag.Hit, error)
}

var _ webSearcher = (*SearxNG)(nil)

// searx is a fake SearxNG: pages of results in its JSON format.
type searx struct {
	pages    [][]map[string]any
	requests atomic.Int32
	last     atomic.Value // url.Values of the last request
	header   atomic.Value // http.Header of the last request
}

func (s *searx) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	s.last.Store(r.URL.Query())
	s.header.Store(r.Header.Clone())
	if r.URL.Path != "/search" && !strings.HasSuffix(r.URL.Path, "/search") {
		http.NotFound(w, r)
		return
	}
	if r.URL.Query().Get("format") != "json" {
		http.Error(w, "html", http.StatusOK)
		return
	}
	page := 1
	if p := r.URL.Query().Get("pageno"); p != "" {
		page, _ = strconv.Atoi(p)
	}
	var results []map[string]any
	if page-1 < len(s.pages) {
		results = s.pages[page-1]
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"query":                r.URL.Query().Get("q"),
		"number_of_results":    0,
		"results":              results,
		"answers":              []any{},
		"corrections":          []any{},
		"infoboxes":            []any{},
		"suggestions":          []any{"related"},
		"unresponsive_engines": []any{},
	})
}

func result(i int) map[string]any {
	return map[string]any{
		"url":           fmt.Sprintf("https://example.org/page/%d", i),
		"title":         fmt.Sprintf("Page %d", i),
		"content":       fmt.Sprintf("Snippet number %d.", i),
		"engine":        "duckduckgo",
		"engines":       []string{"duckduckgo", "brave"},
		"score":         float64(10 - i),
		"category":      "general",
		"publishedDate": nil,
		"parsed_url":    []string{"https", "example.org", fmt.Sprintf("/page/%d", i), "", "", ""},
		"template":      "default.html",
		"positions":     []int{i},
	}
}

func newFake(t *testing.T, pages ...[]map[string]any) (*searx, *SearxNG) {
	t.Helper()
	fake := &searx{pages: pages}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	s, err := NewSearxNG(srv.URL, srv.Client(), SearxNGOptions{Language: "en", Categories: []string{"general", "news"}})
	if err != nil {
		t.Fatal(err)
	}
	return fake, s
}

func TestSearxNGResults(t *testing.T) {
	page1 := []map[string]any{result(1), result(2), result(3)}
	page2 := []map[string]any{result(4), result(5)}
	tests := []struct {
		name      string
		k         int
		wantURLs  int
		wantPages int32
	}{
		{name: "k within the first page", k: 2, wantURLs: 2, wantPages: 1},
		{name: "k needs a second page", k: 4, wantURLs: 4, wantPages: 2},
		{name: "stops at max pages", k: 50, wantURLs: 5, wantPages: 2},
		{name: "default k", k: 0, wantURLs: 5, wantPages: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake, s := newFake(t, page1, page2)
			hits, err := s.SearchWeb(context.Background(), "  go generics  ", tc.k)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != tc.wantURLs {
				t.Fatalf("%d hits, want %d", len(hits), tc.wantURLs)
			}
			if got := fake.requests.Load(); got != tc.wantPages {
				t.Errorf("%d requests, want %d", got, tc.wantPages)
			}
			for i, h := range hits {
				want := fmt.Sprintf("https://example.org/page/%d", i+1)
				if h.Source.URL != want || h.Source.DocID != want || h.Chunk.DocID != want {
					t.Errorf("hit %d url %q, want %q", i, h.Source.URL, want)
				}
				if h.Source.Title != fmt.Sprintf("Page %d", i+1) || h.Chunk.Text != fmt.Sprintf("Snippet number %d.", i+1) || h.Source.Type != "web" {
					t.Errorf("hit %d: %+v", i, h)
				}
				if want := 1 / float64(i+1); h.Score != want {
					t.Errorf("hit %d score %v, want %v", i, h.Score, want)
				}
			}
		})
	}
	t.Run("request parameters and headers", func(t *testing.T) {
		fake, s := newFake(t, page1)
		if _, err := s.SearchWeb(context.Background(), "café & co", 1); err != nil {
			t.Fatal(err)
		}
		q := fake.last.Load().(interface{ Get(string) string })
		for key, want := range map[string]string{"q": "café & co", "format": "json", "language": "en", "categories": "general,news"} {
			if got := q.Get(key); got != want {
				t.Errorf("%s = %q, want %q", key, got, want)
			}
		}
		h := fake.header.Load().(http.Header)
		if h.Get("Accept") != "application/json" || h.Get("User-Agent") == "" {
			t.Errorf("headers %v", h)
		}
	})
}

func TestSearxNGCleansResults(t *testing.T) {
	long := strings.Repeat("word ", 1000)
	_, s := newFake(t, []map[string]any{
		{"url": "javascript:alert(1)", "title": "evil", "content": "x"},
		{"url": "/relative/path", "title": "relative", "content": "x"},
		{"url": "ftp://example.org/file", "title": "ftp", "content": "x"},
		{"url": "https://example.org/a", "title": "<b>Fish &amp; Chips</b>", "content": "Best  <em>fish</em>\n&quot;ever&quot;", "publishedDate": "2026-11-01T10:00:00"},
		{"url": "https://EXAMPLE.org/a/", "title": "duplicate", "content": "same page"},
		{"url": "https://example.org/b", "title": "", "content": long},
		{"url": "https://example.org/c", "title": "Only a title", "content": ""},
	})
	hits, err := s.SearchWeb(context.Background(), "fish", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 {
		t.Fatalf("%d hits, want 3: %+v", len(hits), hits)
	}
	if h := hits[0]; h.Source.Title != "Fish & Chips" || h.Chunk.Text != `Best fish "ever"` {
		t.Errorf("not cleaned: title %q text %q", h.Source.Title, h.Chunk.Text)
	}
	if want := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC); !hits[0].Source.ModTime.Equal(want) {
		t.Errorf("published %v, want %v", hits[0].Source.ModTime, want)
	}
	if h := hits[1]; h.Source.Title != "example.org" || len([]rune(h.Chunk.Text)) > maxSnippetRunes+1 || !strings.HasSuffix(h.Chunk.Text, "…") {
		t.Errorf("long snippet: title %q, %d runes", h.Source.Title, len([]rune(h.Chunk.Text)))
	}
	if h := hits[2]; h.Chunk.Text != "Only a title" {
		t.Errorf("empty snippet should fall back to the title, got %q", h.Chunk.Text)
	}
}

func TestSearxNGErrors(t *testing.T) {
	tests := []struct {
		name     string
		handler  http.HandlerFunc
		opts     SearxNGOptions
		wantErr  []error
		wantText []string
	}{
		{
			name: "json format disabled",
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "403 Forbidden", http.StatusForbidden)
			},
			wantErr:  []error{ErrJSONDisabled},
			wantText: []string{"settings.yml", "formats:", "- json", "restart"},
		},
		{
			name: "rate limited",
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
			},
			wantErr:  []error{ErrRateLimited},
			wantText: []string{"limiter: false"},
		},
		{
			name: "server error",
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "boom", http.StatusBadGateway)
			},
			wantErr:  []error{ErrBadStatus},
			wantText: []string{"502", "boom"},
		},
		{
			name: "malformed json",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"results": [{"url": "https://x.org", "title": `)
			},
			wantErr: []error{ErrBadResponse},
		},
		{
			name: "wrong json shape",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"results": "none"}`)
			},
			wantErr: []error{ErrBadResponse},
		},
		{
			name: "html instead of json",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, "<!doctype html><title>not searx</title>")
			},
			wantErr:  []error{ErrBadResponse},
			wantText: []string{"HTML instead of JSON"},
		},
		{
			name: "huge body",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"results": [{"url": "https://x.org", "content": "`)
				chunk := strings.Repeat("a", 64<<10)
				for i := 0; i < 64; i++ { // 4 MiB, over the 1 MiB limit
					if _, err := fmt.Fprint(w, chunk); err != nil {
						return
					}
				}
				fmt.Fprint(w, `"}]}`)
			},
			opts:    SearxNGOptions{MaxBytes: 1 << 20},
			wantErr: []error{ErrResponseTooLarge},
		},
		{
			name: "timeout",
			handler: func(w http.ResponseWriter, r *http.Request) {
				<-r.Context().Done()
			},
			opts:     SearxNGOptions{Timeout: 50 * time.Millisecond},
			wantErr:  []error{ErrUnavailable, context.DeadlineExceeded},
			wantText: []string{"did not answer within 50ms"},
		},
		{
			name: "every engine failed",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"query": "x", "results": [], "unresponsive_engines": [["google", "timeout"], ["brave", "HTTP error"]]}`)
			},
			wantErr:  []error{ErrUnavailable},
			wantText: []string{"google: timeout", "brave: HTTP error"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			s, err := NewSearxNG(srv.URL, srv.Client(), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			hits, err := s.SearchWeb(context.Background(), "query", 5)
			if err == nil {
				t.Fatalf("no error; hits %+v", hits)
			}
			for _, want := range tc.wantErr {
				if !errors.Is(err, want) {
					t.Errorf("err = %v, want it to match %v", err, want)
				}
			}
			for _, want := range tc.wantText {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

func TestSearxNGNoResults(t *testing.T) {
	_, s := newFake(t)
	hits, err := s.SearchWeb(context.Background(), "nothing at all", 5)
	if err != nil || len(hits) != 0 {
		t.Fatalf("hits %v, err %v: want none and no error", hits, err)
	}
}

func TestSearxNGLaterPageFailureKeepsResults(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) > 1 {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"results": []map[string]any{result(1)}})
	}))
	defer srv.Close()
	s, err := NewSearxNG(srv.URL, nil, SearxNGOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := s.SearchWeb(context.Background(), "q", 5)
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits %d, err %v: want the first page's hit", len(hits), err)
	}
}

func TestSearxNGCancel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer srv.Close()
	s, err := NewSearxNG(srv.URL, srv.Client(), SearxNGOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, err = s.SearchWeb(ctx, "q", 5)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want context.Canceled only", err)
	}
}

func TestSearxNGUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	s, err := NewSearxNG(base, nil, SearxNGOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.SearchWeb(context.Background(), "q", 5)
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "is it running") {
		t.Fatalf("err = %v", err)
	}
}

func TestNewSearxNG(t *testing.T) {
	tests := []struct {
		name     string
		base     string
		opts     SearxNGOptions
		wantErr  error
		wantBase string
	}{
		{name: "empty", base: "", wantErr: graphrag.ErrNotConfigured},
		{name: "no scheme", base: "localhost:8888", wantErr: graphrag.ErrInvalidQuery},
		{name: "ftp", base: "ftp://example.org", wantErr: graphrag.ErrInvalidQuery},
		{name: "file", base: "file:///etc/passwd", wantErr: graphrag.ErrInvalidQuery},
		{name: "no host", base: "http://", wantErr: graphrag.ErrInvalidQuery},
		{name: "query", base: "http://localhost:8888/?q=x", wantErr: graphrag.ErrInvalidQuery},
		{name: "fragment", base: "http://localhost:8888/#x", wantErr: graphrag.ErrInvalidQuery},
		{name: "credentials", base: "http://user:pw@localhost:8888", wantErr: graphrag.ErrInvalidQuery},
		{name: "bad safe search", base: "http://localhost:8888", opts: SearxNGOptions{SafeSearch: "max"}, wantErr: graphrag.ErrInvalidQuery},
		{name: "bad time range", base: "http://localhost:8888", opts: SearxNGOptions{TimeRange: "decade"}, wantErr: graphrag.ErrInvalidQuery},
		{name: "plain", base: "http://localhost:8888", wantBase: "http://localhost:8888"},
		{name: "trailing slash", base: " http://localhost:8888/ ", wantBase: "http://localhost:8888"},
		{name: "path prefix", base: "https://example.org/searx/", wantBase: "https://example.org/searx"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSearxNG(tc.base, nil, tc.opts)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.BaseURL() != tc.wantBase {
				t.Errorf("BaseURL() = %q, want %q", s.BaseURL(), tc.wantBase)
			}
		})
	}
	t.Run("path prefix is kept in requests", func(t *testing.T) {
		fake := &searx{pages: [][]map[string]any{{result(1)}}}
		mux := http.NewServeMux()
		mux.Handle("/searx/search", fake)
		srv := httptest.NewServer(mux)
		defer srv.Close()
		s, err := NewSearxNG(srv.URL+"/searx/", srv.Client(), SearxNGOptions{})
		if err != nil {
			t.Fatal(err)
		}
		hits, err := s.SearchWeb(context.Background(), "q", 1)
		if err != nil || len(hits) != 1 {
			t.Fatalf("hits %v err %v", hits, err)
		}
	})
	t.Run("empty query", func(t *testing.T) {
		s, _ := NewSearxNG("http://localhost:8888", nil, SearxNGOptions{})
		if _, err := s.SearchWeb(context.Background(), "  ", 5); !errors.Is(err, graphrag.ErrInvalidQuery) {
			t.Fatalf("err = %v", err)
		}
	})
}
