package server

import (
	"bufio"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// parseExposition checks every line of a Prometheus text exposition and
// returns the samples by their full name with labels.
func parseExposition(t *testing.T, text string) map[string]float64 {
	t.Helper()
	sample := regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (\S+)$`)
	comment := regexp.MustCompile(`^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$`)
	out := map[string]float64{}
	typed := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		ln := sc.Text()
		if strings.HasPrefix(ln, "#") {
			m := comment.FindStringSubmatch(ln)
			if m == nil {
				t.Fatalf("bad comment line %q", ln)
			}
			if m[1] == "TYPE" {
				if _, dup := typed[m[2]]; dup {
					t.Fatalf("TYPE twice for %s", m[2])
				}
				typed[m[2]] = m[3]
			}
			continue
		}
		m := sample.FindStringSubmatch(ln)
		if m == nil {
			t.Fatalf("bad sample line %q", ln)
		}
		family := m[1]
		for _, suf := range []string{"_bucket", "_sum", "_count"} {
			if f, ok := strings.CutSuffix(family, suf); ok && typed[f] == "histogram" {
				family = f
			}
		}
		if typed[family] == "" {
			t.Fatalf("sample %q before its TYPE", ln)
		}
		v, err := strconv.ParseFloat(m[len(m)-1], 64)
		if err != nil {
			t.Fatalf("bad value in %q", ln)
		}
		key := m[1] + m[2]
		if _, dup := out[key]; dup {
			t.Fatalf("sample %s twice", key)
		}
		out[key] = v
	}
	return out
}

func TestMetrics(t *testing.T) {
	f := newFake()
	f.fallback = true
	s := newTestServer(t, f, Config{Token: "t"})
	h := s.Handler()
	auth := []string{"Authorization", "Bearer t"}
	for range 3 {
		do(h, "POST", "/v1/query", `{"query": "q"}`, auth...)
	}
	do(h, "POST", "/v1/query", `{"query": "q", "stream": "ndjson"}`, auth...)
	do(h, "POST", "/v1/query", `{"query": ""}`, auth...)
	do(h, "POST", "/v1/query", `{"query": "q"}`) // 401
	do(h, "GET", "/healthz", "")
	do(h, "GET", "/nope", "", auth...)

	w := do(h, "GET", "/metrics", "", auth...)
	if w.Code != 200 || w.Header().Get("Content-Type") != "text/plain; version=0.0.4; charset=utf-8" {
		t.Fatalf("status %d type %q", w.Code, w.Header().Get("Content-Type"))
	}
	m := parseExposition(t, w.Body.String())
	want := map[string]float64{
		`graphrag_http_requests_total{path="/v1/query",code="200"}`: 4,
		`graphrag_http_requests_total{path="/v1/query",code="400"}`: 1,
		`graphrag_http_requests_total{path="/v1/query",code="401"}`: 1,
		`graphrag_http_requests_total{path="/healthz",code="200"}`:  1,
		`graphrag_http_requests_total{path="other",code="404"}`:     1,
		`graphrag_queries_total{outcome="ok"}`:                      4,
		`graphrag_query_duration_seconds_count`:                     4,
		`graphrag_query_duration_seconds_bucket{le="+Inf"}`:         4,
		`graphrag_queries_in_flight`:                                0,
		`graphrag_llm_calls_total`:                                  8, // 2 per run
		`graphrag_llm_tokens_total{kind="prompt"}`:                  480,
		`graphrag_llm_tokens_total{kind="completion"}`:              32,
		`graphrag_fallbacks_total`:                                  4,
		`graphrag_routes_total{route="hybrid",by="rules"}`:          4,
	}
	for k, v := range want {
		if got, ok := m[k]; !ok || got != v {
			t.Errorf("%s = %v (present %v), want %v", k, got, ok, v)
		}
	}
	prev := -1.0
	for _, le := range queryBuckets {
		v := m[`graphrag_query_duration_seconds_bucket{le="`+formatFloat(le)+`"}`]
		if v < prev {
			t.Errorf("bucket le=%v decreases: %v < %v", le, v, prev)
		}
		prev = v
	}
	if m[`graphrag_query_duration_seconds_sum`] <= 0 {
		t.Error("duration sum is zero")
	}
}

func TestLabelValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{`a"b`, `"a\"b"`},
		{`back\slash`, `"back\\slash"`},
		{"new\nline", `"new\nline"`},
		{"ünïcode", `"ünïcode"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := labelValue(tt.in); got != tt.want {
				t.Fatalf("labelValue(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}
