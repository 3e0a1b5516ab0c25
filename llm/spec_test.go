package llm_test

import (
	"testing"

	"github.com/graphrag/graphrag/llm"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in   string
		want llm.Spec
	}{
		{"ollama:qwen2.5:3b", llm.Spec{Backend: llm.Ollama, Model: "qwen2.5:3b", BaseURL: "http://127.0.0.1:11434"}},
		{"ollama:llama3.2", llm.Spec{Backend: llm.Ollama, Model: "llama3.2", BaseURL: "http://127.0.0.1:11434"}},
		{"ollama:qwen2.5:3b@http://gpu:11434/", llm.Spec{Backend: llm.Ollama, Model: "qwen2.5:3b", BaseURL: "http://gpu:11434"}},
		{"openai:http://localhost:8080/v1#qwen", llm.Spec{Backend: llm.OpenAI, Model: "qwen", BaseURL: "http://localhost:8080/v1"}},
		{"openai:http://localhost:8080/v1", llm.Spec{Backend: llm.OpenAI, BaseURL: "http://localhost:8080/v1"}},
		{"openai:my-model@https://box:8000/v1", llm.Spec{Backend: llm.OpenAI, Model: "my-model", BaseURL: "https://box:8000/v1"}},
		{"llamacpp:http://localhost:8080/v1#q", llm.Spec{Backend: llm.OpenAI, Model: "q", BaseURL: "http://localhost:8080/v1"}},
		{"vllm:http://gpu:8000/v1#Qwen/Qwen2.5-7B-Instruct", llm.Spec{Backend: llm.OpenAI, Model: "Qwen/Qwen2.5-7B-Instruct", BaseURL: "http://gpu:8000/v1"}},
		{"ollama:http://gpu:11434#qwen2.5:3b", llm.Spec{Backend: llm.Ollama, Model: "qwen2.5:3b", BaseURL: "http://gpu:11434"}},
		{" OLLAMA:phi3 ", llm.Spec{Backend: llm.Ollama, Model: "phi3", BaseURL: "http://127.0.0.1:11434"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := llm.ParseSpec(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("ParseSpec(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			again, err := llm.ParseSpec(got.String())
			if err != nil || again != got {
				t.Fatalf("round trip %q -> %+v, %v", got.String(), again, err)
			}
		})
	}
	for _, bad := range []string{"", "qwen2.5:3b", "ollama:", "ollama:http://gpu:11434", "openai:gpt-4o", "llamacpp:x", "ollama:m@ftp://x", "openai:http://#m"} {
		t.Run("bad "+bad, func(t *testing.T) {
			if s, err := llm.ParseSpec(bad); err == nil {
				t.Fatalf("ParseSpec(%q) = %+v, want an error", bad, s)
			}
		})
	}
}
