package llm_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
)

var protocols = []struct {
	name  string
	start func(testing.TB, llmtest.Responder) *llmtest.Server
}{
	{"ollama", llmtest.NewOllama},
	{"openai", llmtest.NewOpenAI},
}

// testConfig is a config pointed at srv with short timeouts and backoff.
func testConfig(t testing.TB, srv *llmtest.Server) llm.Config {
	t.Helper()
	spec, err := llm.ParseSpec(srv.Spec("qwen2.5:3b"))
	if err != nil {
		t.Fatal(err)
	}
	return llm.Config{
		Router:       spec,
		Timeout:      2 * time.Second,
		WriteTimeout: 2 * time.Second,
		EmbedTimeout: 2 * time.Second,
		Retries:      2,
		Backoff:      time.Millisecond,
		MaxBackoff:   5 * time.Millisecond,
	}
}

func newModels(t testing.TB, srv *llmtest.Server, mut ...func(*llm.Config)) *llm.Models {
	t.Helper()
	cfg := testConfig(t, srv)
	for _, f := range mut {
		f(&cfg)
	}
	m, err := llm.New(context.Background(), cfg, &http.Client{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
