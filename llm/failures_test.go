package llm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
)

const goodPlan = `{"route":"web","query":"q","keywords":["news"],"file_types":[],"source_hint":"","time":"any"}`

// TestDecisionFailures drives the planner (a structured decision) through
// each way a server or model fails, on both protocols.
func TestDecisionFailures(t *testing.T) {
	tests := []struct {
		name     string
		replies  []llmtest.Reply
		models   []string // served models; nil: any
		wantKind error    // nil: success
		wantReqs int      // chat requests the server saw
	}{
		{"malformed JSON", []llmtest.Reply{{Text: `{"route": "web" "keywords": [}`}}, nil, nil, 1},
		{"garbage", []llmtest.Reply{{Text: `I cannot help with that.`}}, nil, llm.ErrBadOutput, 1},
		{"wrong enum", []llmtest.Reply{{Text: `{"route": "database"}`}}, nil, llm.ErrBadOutput, 1},
		{"empty answer", []llmtest.Reply{{Text: ""}}, nil, llm.ErrBadOutput, 1},
		{"truncated stream", []llmtest.Reply{{Text: goodPlan, Truncate: true}}, nil, llm.ErrBadOutput, 1},
		{"malformed response body", []llmtest.Reply{{RawBody: `{"choices": [ {"mess`}}, nil, llm.ErrBadOutput, 1},
		{"500 then ok", []llmtest.Reply{{Status: 500, Error: "CUDA out of memory"}, {Text: goodPlan}}, nil, nil, 2},
		{"500 always", []llmtest.Reply{{Status: 500, Error: "boom"}}, nil, llm.ErrServer, 3},
		{"503 twice then ok", []llmtest.Reply{{Status: 503}, {Status: 503}, {Text: goodPlan}}, nil, nil, 3},
		{"429 then ok", []llmtest.Reply{{Status: 429, Error: "slow down", RetryAfter: "0"}, {Text: goodPlan}}, nil, nil, 2},
		{"400 not retried", []llmtest.Reply{{Status: 400, Error: "bad request"}}, nil, llm.ErrRejected, 1},
		{"model missing", []llmtest.Reply{{Text: goodPlan}}, []string{"llama3.2:1b"}, llm.ErrModelMissing, 1},
		{"hang past the timeout", []llmtest.Reply{{Hang: true}}, nil, llm.ErrTimeout, 1},
		{"slow but in time", []llmtest.Reply{{Text: goodPlan, Delay: 20 * time.Millisecond}}, nil, nil, 1},
		{"connection dropped", []llmtest.Reply{{Text: goodPlan, Drop: true, DropAfter: 1}}, nil, llm.ErrUnreachable, 1},
	}
	for _, p := range protocols {
		for _, tt := range tests {
			t.Run(p.name+"/"+tt.name, func(t *testing.T) {
				srv := p.start(t, llmtest.Script(tt.replies...))
				if tt.models != nil {
					srv.SetModels(tt.models...)
				}
				m := newModels(t, srv, func(c *llm.Config) { c.Timeout = 300 * time.Millisecond })
				plan, err := m.Planner().Plan(context.Background(), "latest news?", nil)
				want := tt.wantKind
				if tt.name == "malformed JSON" {
					// Repaired when the key survives: {"route": "web" ...} still says web.
					if err != nil {
						t.Fatalf("malformed but repairable: %v", err)
					}
				} else if want == nil {
					if err != nil {
						t.Fatalf("Plan: %v", err)
					}
					if plan.Route != graphrag.RouteWeb {
						t.Errorf("route = %q", plan.Route)
					}
				} else {
					if !errors.Is(err, want) {
						t.Fatalf("err = %v, want %v", err, want)
					}
					var e *llm.Error
					if !errors.As(err, &e) || e.Op != "plan" || e.Usage.Calls != 1 {
						t.Errorf("err = %#v, want *llm.Error for op plan counting the call", err)
					}
					if llm.Reason(err) == "error" {
						t.Errorf("Reason(%v) is unlabelled", err)
					}
				}
				if got := len(srv.Chats()); got != tt.wantReqs {
					t.Errorf("server saw %d chat requests, want %d", got, tt.wantReqs)
				}
			})
		}
	}
}

func TestUnreachableServer(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			srv := p.start(t, nil)
			m := newModels(t, srv)
			srv.Close()
			_, err := m.Planner().Plan(context.Background(), "q", nil)
			if !errors.Is(err, llm.ErrUnreachable) {
				t.Fatalf("err = %v, want ErrUnreachable", err)
			}
			_, err = m.Writer().Write(context.Background(), graphrag.WriteRequest{Query: "q"}, func(string) {})
			if !errors.Is(err, llm.ErrUnreachable) {
				t.Fatalf("writer err = %v, want ErrUnreachable", err)
			}
		})
	}
}

// TestWriterStreamFailures: the failures that only a streamed answer has.
func TestWriterStreamFailures(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
		want  error
	}{
		{"truncated", llmtest.Reply{Text: "The answer is", Truncate: true}, llm.ErrBadOutput},
		{"empty stream", llmtest.Reply{Chunks: []string{}}, llm.ErrBadOutput},
		{"dropped mid-stream", llmtest.Reply{Text: "The answer is forty two", Drop: true, DropAfter: 2}, llm.ErrUnreachable},
		{"stalls past the timeout", llmtest.Reply{Text: "one two three", ChunkDelay: 2 * time.Second}, llm.ErrTimeout},
		{"server error mid-stream", llmtest.Reply{Text: "The answer", StreamError: "llama runner process has terminated"}, llm.ErrServer},
		{"slow stream in time", llmtest.Reply{Text: "one two three", ChunkDelay: 5 * time.Millisecond}, nil},
	}
	for _, p := range protocols {
		for _, tt := range tests {
			t.Run(p.name+"/"+tt.name, func(t *testing.T) {
				srv := p.start(t, llmtest.Script(tt.reply))
				m := newModels(t, srv, func(c *llm.Config) { c.WriteTimeout = 300 * time.Millisecond })
				var streamed strings.Builder
				ans, err := m.Writer().Write(context.Background(), graphrag.WriteRequest{Query: "q", Hits: []graphrag.Hit{hit("a", "b")}},
					func(s string) { streamed.WriteString(s) })
				if tt.want == nil {
					if err != nil || ans.Text != "one two three" {
						t.Fatalf("answer %q, %v", ans.Text, err)
					}
					return
				}
				if !errors.Is(err, tt.want) {
					t.Fatalf("err = %v (streamed %q), want %v", err, streamed.String(), tt.want)
				}
			})
		}
	}
}

// TestCancelMidStream: cancelling the caller's context (Ctrl-C) stops the
// answer while it streams, promptly, with context.Canceled.
func TestCancelMidStream(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			srv := p.start(t, llmtest.Text(strings.Repeat("word ", 200)))
			srv.SetResponder(func(llmtest.Request) llmtest.Reply {
				return llmtest.Reply{Text: strings.Repeat("word ", 200), ChunkDelay: 10 * time.Millisecond}
			})
			m := newModels(t, srv, func(c *llm.Config) { c.WriteTimeout = 10 * time.Second })
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var n atomic.Int32
			start := time.Now()
			_, err := m.Writer().Write(ctx, graphrag.WriteRequest{Query: "q", Hits: []graphrag.Hit{hit("a", "b")}}, func(string) {
				if n.Add(1) == 3 {
					cancel()
				}
			})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if llm.Reason(err) != "canceled" {
				t.Errorf("Reason = %q", llm.Reason(err))
			}
			if el := time.Since(start); el > 1500*time.Millisecond {
				t.Errorf("cancel took %v: the stream was not stopped", el)
			}
			if got := n.Load(); got > 10 {
				t.Errorf("%d tokens emitted after cancel", got)
			}
		})
	}
}

// TestJSONSchemaFallback: a server that refuses response_format json_schema
// gets JSON mode instead, once; later calls go straight to JSON mode.
func TestJSONSchemaFallback(t *testing.T) {
	srv := llmtest.NewOpenAI(t, func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(string(r.ResponseFormat), "json_schema") {
			return llmtest.Reply{Status: 400, Error: "response_format type json_schema is not supported"}
		}
		return llmtest.Reply{Text: goodPlan}
	})
	pl := newModels(t, srv).Planner()
	for i := range 2 {
		if _, err := pl.Plan(context.Background(), "news", nil); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	var formats []string
	for _, r := range srv.Chats() {
		formats = append(formats, string(r.ResponseFormat))
	}
	if len(formats) != 3 || !strings.Contains(formats[0], "json_schema") || formats[1] != `{"type":"json_object"}` || formats[2] != `{"type":"json_object"}` {
		t.Errorf("response formats sent: %q", formats)
	}
}

func TestParentDeadlineIsTimeout(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Script(llmtest.Reply{Hang: true}))
	m := newModels(t, srv, func(c *llm.Config) { c.Timeout = time.Minute })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := m.Judge().Judge(ctx, "q", graphrag.Answer{Text: "a"}, nil)
	if !errors.Is(err, llm.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want ErrTimeout wrapping the deadline", err)
	}
}

func TestNewNeedsAClient(t *testing.T) {
	if _, err := llm.New(context.Background(), llm.Config{Router: llm.Spec{Backend: llm.Ollama, Model: "x", BaseURL: "http://127.0.0.1:1"}}, nil); err == nil {
		t.Fatal("New with a nil client succeeded")
	}
	if _, err := llm.New(context.Background(), llm.Config{}, &http.Client{}); !errors.Is(err, graphrag.ErrNotConfigured) {
		t.Fatalf("New without a router: %v, want ErrNotConfigured", err)
	}
}

// flaky fails the first n round trips with a connection error.
type flaky struct {
	n    atomic.Int32
	base http.RoundTripper
}

func (f *flaky) RoundTrip(r *http.Request) (*http.Response, error) {
	if f.n.Add(-1) >= 0 {
		return nil, errors.New("dial tcp: connection refused")
	}
	return f.base.RoundTrip(r)
}

func TestRetriesConnectionErrors(t *testing.T) {
	for _, tt := range []struct {
		name     string
		failures int32
		wantErr  error
	}{
		{"two failures then success", 2, nil},
		{"three failures exhaust two retries", 3, llm.ErrUnreachable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewOllama(t, llmtest.Text(goodPlan))
			fl := &flaky{base: http.DefaultTransport}
			fl.n.Store(tt.failures)
			m, err := llm.New(context.Background(), testConfig(t, srv), &http.Client{Transport: fl})
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Planner().Plan(context.Background(), "q", nil)
			if !errors.Is(err, tt.wantErr) && !(tt.wantErr == nil && err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "ollama serve") {
				t.Errorf("error %q does not say what to do", err)
			}
		})
	}
}

func TestWrongURLIsNotModelMissing(t *testing.T) {
	srv := llmtest.NewOpenAI(t, nil)
	cfg := testConfig(t, srv)
	cfg.Router.BaseURL = strings.TrimSuffix(cfg.Router.BaseURL, "/v1") // forgot /v1
	m, err := llm.New(context.Background(), cfg, &http.Client{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Planner().Plan(context.Background(), "q", nil)
	if !errors.Is(err, llm.ErrRejected) || !strings.Contains(err.Error(), "/v1") {
		t.Fatalf("err = %v, want ErrRejected pointing at the URL", err)
	}
}
