package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/graphrag/graphrag"
)

// Defaults for SearxNGOptions fields left zero.
const (
	DefaultTimeout    = 10 * time.Second
	DefaultMaxBytes   = 4 << 20
	DefaultMaxPages   = 2
	DefaultK          = 5
	MaxK              = 50
	maxSnippetRunes   = 1200
	defaultUserAgent  = "graphrag (+https://github.com/graphrag/graphrag)"
	enableJSONSnippet = "search:\n  formats:\n    - html\n    - json"
)

// SearxNGOptions tune requests to a SearxNG instance. The zero value is
// usable.
type SearxNGOptions struct {
	// Timeout bounds each HTTP request (DefaultTimeout when <= 0).
	Timeout time.Duration
	// MaxBytes bounds each response body (DefaultMaxBytes when <= 0).
	MaxBytes int64
	// MaxPages bounds how many result pages one search fetches to reach k
	// (DefaultMaxPages when <= 0).
	MaxPages int
	// Categories (e.g. "general", "news", "science") and Engines narrow the
	// search; empty means the instance's defaults.
	Categories []string
	Engines    []string
	// Language is a language code such as "en" or "all"; "" is the
	// instance's default.
	Language string
	// SafeSearch is "", "off", "moderate" or "strict".
	SafeSearch string
	// TimeRange is "", "day", "week", "month" or "year".
	TimeRange string
	// UserAgent is sent with each request.
	UserAgent string
}

// SearxNG searches through a SearxNG instance's JSON API.
type SearxNG struct {
	base   *url.URL
	client *http.Client
	opts   SearxNGOptions
}

var _ Searcher = (*SearxNG)(nil)

// NewSearxNG returns a provider for the SearxNG instance at baseURL (for
// example "http://localhost:8888", or one with a path prefix such as
// "https://example.org/searx"). client may be nil: a client of the
// package's own (never http.DefaultClient) is used. No request is made.
func NewSearxNG(baseURL string, client *http.Client, opts SearxNGOptions) (*SearxNG, error) {
	if strings.TrimSpace(baseURL) == "" {
		return nil, fmt.Errorf("web: %w: no SearxNG URL given; run SearxNG (docker compose --profile web up -d) and give its URL, e.g. http://localhost:8888", graphrag.ErrNotConfigured)
	}
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil {
		return nil, fmt.Errorf("web: SearxNG URL %q: %w", baseURL, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("web: SearxNG URL %q: %w: it must start with http:// or https://", baseURL, graphrag.ErrInvalidQuery)
	case u.Host == "" || u.Hostname() == "":
		return nil, fmt.Errorf("web: SearxNG URL %q: %w: it has no host", baseURL, graphrag.ErrInvalidQuery)
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return nil, fmt.Errorf("web: SearxNG URL %q: %w: give the instance's base URL without a query or fragment", baseURL, graphrag.ErrInvalidQuery)
	case u.User != nil:
		return nil, fmt.Errorf("web: SearxNG URL %q: %w: credentials in the URL are not supported; use a client with an authenticating transport", baseURL, graphrag.ErrInvalidQuery)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	switch opts.SafeSearch {
	case "", "off", "moderate", "strict":
	default:
		return nil, fmt.Errorf("web: safe search %q: %w: use off, moderate or strict", opts.SafeSearch, graphrag.ErrInvalidQuery)
	}
	switch opts.TimeRange {
	case "", "day", "week", "month", "year":
	default:
		return nil, fmt.Errorf("web: time range %q: %w: use day, week, month or year", opts.TimeRange, graphrag.ErrInvalidQuery)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxPages <= 0 {
		opts.MaxPages = DefaultMaxPages
	}
	if opts.UserAgent == "" {
		opts.UserAgent = defaultUserAgent
	}
	if client == nil {
		client = &http.Client{}
	}
	return &SearxNG{base: u, client: client, opts: opts}, nil
}

// BaseURL is the instance's base URL as used for requests.
func (s *SearxNG) BaseURL() string { return s.base.String() }

// searxResponse is the part of SearxNG's JSON answer graphrag reads.
type searxResponse struct {
	Query   string        `json:"query"`
	Results []searxResult `json:"results"`
	// UnresponsiveEngines is a list of [engine, reason] pairs.
	UnresponsiveEngines [][]string `json:"unresponsive_engines"`
}

type searxResult struct {
	URL           string   `json:"url"`
	Title         string   `json:"title"`
	Content       string   `json:"content"`
	Engine        string   `json:"engine"`
	Engines       []string `json:"engines"`
	Score         float64  `json:"score"`
	Category      string   `json:"category"`
	PublishedDate *string  `json:"publishedDate"`
}

// SearchWeb returns up to k results (DefaultK when k <= 0, at most MaxK),
// fetching further pages while the first ones come short. Results with a
// URL that is not http(s), and repeats of a URL, are dropped. When a later
// page fails after earlier ones gave results, those results are returned.
func (s *SearxNG) SearchWeb(ctx context.Context, query string, k int) ([]graphrag.Hit, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return nil, fmt.Errorf("web: %w: empty query", graphrag.ErrInvalidQuery)
	}
	if k <= 0 {
		k = DefaultK
	}
	k = min(k, MaxK)
	var hits []graphrag.Hit
	seen := map[string]bool{}
	for page := 1; page <= s.opts.MaxPages && len(hits) < k; page++ {
		resp, err := s.fetch(ctx, query, page)
		if err != nil {
			if len(hits) > 0 && ctx.Err() == nil {
				break
			}
			return nil, err
		}
		added := 0
		for _, r := range resp.Results {
			h, key, ok := toHit(r)
			if !ok || seen[key] {
				continue
			}
			seen[key] = true
			hits = append(hits, h)
			added++
			if len(hits) == k {
				break
			}
		}
		if page == 1 && len(resp.Results) == 0 && len(resp.UnresponsiveEngines) > 0 {
			return nil, fmt.Errorf("web: SearxNG at %s: %w: every engine failed (%s); check the instance's logs or enable other engines", s.base, ErrUnavailable, engineFailures(resp.UnresponsiveEngines))
		}
		if added == 0 {
			break
		}
	}
	for i := range hits {
		hits[i].Score = 1 / float64(i+1)
	}
	return hits, nil
}

// fetch gets one page of results.
func (s *SearxNG) fetch(ctx context.Context, query string, page int) (*searxResponse, error) {
	q := url.Values{}
	q.Set("q", query)
	q.Set("format", "json")
	if page > 1 {
		q.Set("pageno", strconv.Itoa(page))
	}
	if len(s.opts.Categories) > 0 {
		q.Set("categories", strings.Join(s.opts.Categories, ","))
	}
	if len(s.opts.Engines) > 0 {
		q.Set("engines", strings.Join(s.opts.Engines, ","))
	}
	if s.opts.Language != "" {
		q.Set("language", s.opts.Language)
	}
	if v, ok := map[string]string{"off": "0", "moderate": "1", "strict": "2"}[s.opts.SafeSearch]; ok {
		q.Set("safesearch", v)
	}
	if s.opts.TimeRange != "" {
		q.Set("time_range", s.opts.TimeRange)
	}
	u := *s.base
	u.Path += "/search"
	u.RawQuery = q.Encode()

	rctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("web: build request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", s.opts.UserAgent)
	res, err := s.client.Do(req)
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("web: SearxNG at %s did not answer within %s (check that it is running, or raise the timeout): %w: %w", s.base, s.opts.Timeout, ErrUnavailable, err)
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("web: search %q: %w", query, ctx.Err())
		}
		return nil, fmt.Errorf("web: cannot reach SearxNG at %s (is it running? docker compose --profile web up -d): %w: %w", s.base, ErrUnavailable, err)
	}
	defer res.Body.Close()
	body, err := readLimited(res.Body, s.opts.MaxBytes)
	if err != nil {
		if errors.Is(err, ErrResponseTooLarge) {
			return nil, fmt.Errorf("web: SearxNG at %s: %w: over %d bytes", s.base, err, s.opts.MaxBytes)
		}
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("web: SearxNG at %s did not finish answering within %s: %w: %w", s.base, s.opts.Timeout, ErrUnavailable, err)
		}
		return nil, fmt.Errorf("web: read SearxNG response: %w", err)
	}
	switch {
	case res.StatusCode == http.StatusForbidden:
		return nil, fmt.Errorf("web: SearxNG at %s answered 403 Forbidden to format=json: %w. Add json to the formats in its settings.yml (/etc/searxng/settings.yml in the container; check that the file you edit is the one mounted there):\n\n%s\n\nthen restart SearxNG", s.base, ErrJSONDisabled, enableJSONSnippet)
	case res.StatusCode == http.StatusTooManyRequests:
		return nil, fmt.Errorf("web: SearxNG at %s answered 429 Too Many Requests: %w; for a private instance set \"limiter: false\" under \"server:\" in its settings.yml, or search less often", s.base, ErrRateLimited)
	case res.StatusCode < 200 || res.StatusCode > 299:
		return nil, fmt.Errorf("web: SearxNG at %s answered %s: %w: %s", s.base, res.Status, ErrBadStatus, excerpt(body))
	}
	if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt == "text/html" {
		return nil, fmt.Errorf("web: %s answered HTML instead of JSON: %w; is it the base URL of a SearxNG instance?", s.base, ErrBadResponse)
	}
	var out searxResponse
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("web: SearxNG at %s: %w: %v (body starts %s)", s.base, ErrBadResponse, err, excerpt(body))
	}
	return &out, nil
}

// readLimited reads at most limit bytes, failing with ErrResponseTooLarge
// beyond.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > limit {
		return nil, ErrResponseTooLarge
	}
	return body, nil
}

// toHit turns a result into a hit; ok is false for results without a usable
// http(s) URL. key identifies the URL for de-duplication.
func toHit(r searxResult) (graphrag.Hit, string, bool) {
	u, err := url.Parse(strings.TrimSpace(r.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return graphrag.Hit{}, "", false
	}
	link := u.String()
	key := strings.ToLower(u.Host) + strings.TrimSuffix(u.EscapedPath(), "/") + "?" + u.RawQuery
	title := cleanText(r.Title, 300)
	text := cleanText(r.Content, maxSnippetRunes)
	if text == "" {
		text = title
	}
	if title == "" {
		title = u.Host
	}
	h := graphrag.Hit{
		Chunk:  graphrag.Chunk{ID: graphrag.ChunkID(link, 0), DocID: link, Text: text},
		Source: graphrag.Source{DocID: link, URL: link, Title: title, Type: "web"},
	}
	if r.PublishedDate != nil {
		h.Source.ModTime = parseDate(*r.PublishedDate)
	}
	return h, key, true
}

var (
	tagRe   = regexp.MustCompile(`<[^>]*>`)
	spaceRe = regexp.MustCompile(`\s+`)
)

// cleanText strips tags, unescapes entities, collapses white space and
// truncates to max runes.
func cleanText(s string, max int) string {
	s = tagRe.ReplaceAllString(s, " ")
	s = html.UnescapeString(s)
	s = strings.ToValidUTF8(s, "")
	s = strings.TrimSpace(spaceRe.ReplaceAllString(s, " "))
	if utf8.RuneCountInString(s) > max {
		r := []rune(s)
		s = strings.TrimSpace(string(r[:max])) + "…"
	}
	return s
}

func parseDate(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

func engineFailures(pairs [][]string) string {
	var parts []string
	for _, p := range pairs {
		switch len(p) {
		case 0:
		case 1:
			parts = append(parts, p[0])
		default:
			parts = append(parts, p[0]+": "+p[1])
		}
		if len(parts) == 5 {
			parts = append(parts, "…")
			break
		}
	}
	return strings.Join(parts, "; ")
}

// excerpt is the start of a body, safe to put in an error.
func excerpt(b []byte) string {
	s := cleanText(string(b[:min(len(b), 400)]), 160)
	if s == "" {
		return "(empty body)"
	}
	return strconv.Quote(s)
}
