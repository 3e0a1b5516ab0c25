package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
)

var _ graphrag.Embedder = (*llm.Embedder)(nil)

func TestEmbedder(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			srv := p.start(t, nil)
			srv.SetEmbedDim(16)
			spec, _ := llm.ParseSpec(srv.Spec("nomic-embed-text"))
			cfg := llm.Config{EmbedBatch: 32, Backoff: time.Millisecond}
			e, err := llm.NewEmbedder(context.Background(), spec, cfg, &http.Client{})
			if err != nil {
				t.Fatal(err)
			}
			if e.Dimension() != 16 || e.Name() != string(p.name)+":nomic-embed-text" {
				t.Fatalf("dimension %d name %q", e.Dimension(), e.Name())
			}
			texts := make([]string, 70)
			for i := range texts {
				texts[i] = fmt.Sprintf("text %d", i)
			}
			vs, err := e.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != 70 {
				t.Fatalf("%d vectors", len(vs))
			}
			for i, v := range vs {
				if !slices.Equal(v, llmtest.Vector(texts[i], 16)) {
					t.Fatalf("vector %d out of order or wrong", i)
				}
			}
			var batches []int
			for _, r := range srv.Requests() {
				if r.Kind == llmtest.Embed {
					batches = append(batches, len(r.Input))
				}
			}
			// One probe, then 70 texts in batches of 32: one request per batch, not per text.
			if !slices.Equal(batches, []int{1, 32, 32, 6}) {
				t.Errorf("embed requests carried %v texts", batches)
			}
		})
	}
}

func TestEmbedderConfiguredDimensionNoProbe(t *testing.T) {
	srv := llmtest.NewOllama(t, nil)
	spec, _ := llm.ParseSpec(srv.Spec("bge-m3"))
	e, err := llm.NewEmbedder(context.Background(), spec, llm.Config{EmbedDimension: 8}, &http.Client{})
	if err != nil || e.Dimension() != 8 || len(srv.Requests()) != 0 {
		t.Fatalf("dim %v err %v requests %d", e, err, len(srv.Requests()))
	}
}

func TestEmbedderFailures(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
		want  error
	}{
		{"wrong dimension", llmtest.Reply{Embeddings: [][]float32{{1, 2, 3}}}, llm.ErrBadOutput},
		{"too few vectors", llmtest.Reply{Embeddings: [][]float32{}}, llm.ErrBadOutput},
		{"server error", llmtest.Reply{Status: 500, Error: "boom"}, llm.ErrServer},
		{"malformed", llmtest.Reply{RawBody: `{"embeddings": [[1, 2`}, llm.ErrBadOutput},
	}
	for _, p := range protocols {
		for _, tt := range tests {
			t.Run(p.name+"/"+tt.name, func(t *testing.T) {
				srv := p.start(t, nil)
				spec, _ := llm.ParseSpec(srv.Spec("emb"))
				e, err := llm.NewEmbedder(context.Background(), spec, llm.Config{EmbedDimension: 8, Backoff: time.Millisecond}, &http.Client{})
				if err != nil {
					t.Fatal(err)
				}
				srv.SetResponder(func(llmtest.Request) llmtest.Reply { return tt.reply })
				_, err = e.Embed(context.Background(), []string{"a"})
				if !errors.Is(err, tt.want) {
					t.Fatalf("err = %v, want %v", err, tt.want)
				}
			})
		}
	}
}

func TestCheck(t *testing.T) {
	t.Run("all present", func(t *testing.T) {
		srv := llmtest.NewOllama(t, nil)
		srv.SetModels("qwen2.5:3b", "qwen2.5:7b", "nomic-embed-text:latest")
		m := newModels(t, srv, func(c *llm.Config) {
			c.Writer = c.Router
			c.Writer.Model = "qwen2.5:7b"
			c.Embed = c.Router
			c.Embed.Model = "nomic-embed-text"
		})
		checks := m.Check(context.Background())
		var names []string
		for _, c := range checks {
			names = append(names, c.Name)
			if !c.OK {
				t.Errorf("%s: %s (fix: %s)", c.Name, c.Detail, c.Fix)
			}
		}
		// One server check, three models, one dimension.
		if len(checks) != 5 {
			t.Errorf("checks: %q", names)
		}
		if c := m.CheckStore("ollama:nomic-embed-text", 8); !c.OK {
			t.Errorf("store check: %+v", c)
		}
		if c := m.CheckStore("ollama:bge-m3", 1024); c.OK || !strings.Contains(c.Fix, "re-ingest") {
			t.Errorf("mismatched store check: %+v", c)
		}
	})
	t.Run("model missing says pull", func(t *testing.T) {
		srv := llmtest.NewOllama(t, nil)
		srv.SetModels("llama3.2:1b")
		checks := newModels(t, srv).Check(context.Background())
		if len(checks) != 2 || !checks[0].OK || checks[1].OK || checks[1].Fix != "run: ollama pull qwen2.5:3b" {
			t.Fatalf("checks = %+v", checks)
		}
	})
	t.Run("openai server with another name", func(t *testing.T) {
		srv := llmtest.NewOpenAI(t, nil)
		srv.SetModels("Qwen2.5-3B-Instruct-Q4_K_M.gguf")
		checks := newModels(t, srv).Check(context.Background())
		if len(checks) != 2 || checks[1].OK || !strings.Contains(checks[1].Fix, "--alias qwen2.5:3b") {
			t.Fatalf("checks = %+v", checks)
		}
	})
	for _, p := range protocols {
		t.Run(p.name+" server down says start", func(t *testing.T) {
			srv := p.start(t, nil)
			m := newModels(t, srv)
			srv.Close()
			checks := m.Check(context.Background())
			if len(checks) != 1 || checks[0].OK || checks[0].Fix == "" {
				t.Fatalf("checks = %+v", checks)
			}
			want := map[string]string{"ollama": "ollama serve", "openai": "llama-server -m"}[p.name]
			if !strings.Contains(checks[0].Fix, want) {
				t.Errorf("fix %q does not say %q", checks[0].Fix, want)
			}
		})
	}
}

// TestDoctorWithoutNew: the doctor works when New cannot (the embedding
// server is down, so the dimension probe fails).
func TestDoctorWithoutNew(t *testing.T) {
	chat := llmtest.NewOllama(t, nil)
	chat.SetModels("qwen2.5:3b")
	emb := llmtest.NewOpenAI(t, nil)
	cfg := testConfig(t, chat)
	embSpec, _ := llm.ParseSpec(emb.Spec("nomic-embed-text"))
	cfg.Embed = embSpec
	emb.Close()
	if _, err := llm.New(context.Background(), cfg, &http.Client{}); !errors.Is(err, llm.ErrUnreachable) {
		t.Fatalf("New with the embedding server down: %v, want ErrUnreachable", err)
	}
	checks := llm.Doctor(context.Background(), cfg, &http.Client{})
	var failed []string
	for _, c := range checks {
		if !c.OK {
			failed = append(failed, c.Name+" -> "+c.Fix)
		}
	}
	if len(checks) != 3 || len(failed) != 1 || !strings.Contains(failed[0], "llama-server") {
		t.Fatalf("checks %+v", checks)
	}
	if cs := llm.Doctor(context.Background(), llm.Config{}, &http.Client{}); len(cs) != 1 || cs[0].OK || !strings.Contains(cs[0].Fix, "ollama pull") {
		t.Errorf("nothing configured: %+v", cs)
	}
	if c := llm.CheckStore(nil, "", 0); !c.OK {
		t.Errorf("no embedder, keyword store: %+v", c)
	}
	if c := llm.CheckStore(nil, "ollama:nomic-embed-text", 768); c.OK || !strings.Contains(c.Fix, "nomic-embed-text") {
		t.Errorf("embedder missing: %+v", c)
	}
}
