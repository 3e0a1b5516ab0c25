package llmtest_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/llm/llmtest"
)

func post(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func TestOllamaChat(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Text("hello there world"))
	t.Run("streams NDJSON by default", func(t *testing.T) {
		resp, body := post(t, srv.URL+"/api/chat", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
		if ct := resp.Header.Get("Content-Type"); ct != "application/x-ndjson" {
			t.Errorf("content type %q", ct)
		}
		lines := strings.Split(strings.TrimSpace(body), "\n")
		if len(lines) != 4 {
			t.Fatalf("%d lines: %s", len(lines), body)
		}
		var text strings.Builder
		for i, l := range lines {
			var v struct {
				Message struct{ Content string }
				Done    bool
				Eval    int `json:"eval_count"`
			}
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				t.Fatal(err)
			}
			text.WriteString(v.Message.Content)
			if v.Done != (i == len(lines)-1) {
				t.Errorf("line %d done=%v", i, v.Done)
			}
			if v.Done && v.Eval != 3 {
				t.Errorf("eval_count %d", v.Eval)
			}
		}
		if text.String() != "hello there world" {
			t.Errorf("text %q", text.String())
		}
	})
	t.Run("one object when stream is false", func(t *testing.T) {
		_, body := post(t, srv.URL+"/api/chat", `{"model":"m","stream":false,"messages":[{"role":"user","content":"hi"}]}`)
		var v struct {
			Message struct{ Content string }
			Done    bool
		}
		if err := json.Unmarshal([]byte(body), &v); err != nil || !v.Done || v.Message.Content != "hello there world" {
			t.Fatalf("%s (%v)", body, err)
		}
	})
	t.Run("records the request", func(t *testing.T) {
		post(t, srv.URL+"/api/chat", `{"model":"m2","format":{"type":"object"},"options":{"temperature":0.2,"num_ctx":4096},"messages":[{"role":"system","content":"s"},{"role":"user","content":"u"}]}`)
		r := srv.Chats()[len(srv.Chats())-1]
		if r.Model != "m2" || string(r.Format) != `{"type":"object"}` || *r.Temperature != 0.2 || r.NumCtx != 4096 || r.System() != "s" || r.Prompt() != "u" || !r.Stream {
			t.Errorf("recorded %+v", r)
		}
	})
}

func TestOpenAIChat(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Text("a b"))
	t.Run("SSE with usage and DONE", func(t *testing.T) {
		resp, body := post(t, srv.URL+"/chat/completions", `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`)
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Errorf("content type %q", ct)
		}
		var events []string
		sc := bufio.NewScanner(strings.NewReader(body))
		for sc.Scan() {
			if l := sc.Text(); l != "" {
				if !strings.HasPrefix(l, "data: ") {
					t.Fatalf("line %q is not an SSE data line", l)
				}
				events = append(events, strings.TrimPrefix(l, "data: "))
			}
		}
		if len(events) != 5 || events[4] != "[DONE]" || !strings.Contains(events[3], `"usage"`) || !strings.Contains(events[2], `"finish_reason":"stop"`) {
			t.Fatalf("events: %q", events)
		}
	})
	t.Run("non-streaming completion", func(t *testing.T) {
		_, body := post(t, srv.URL+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":0}`)
		var v struct {
			Choices []struct{ Message struct{ Content string } }
			Usage   struct {
				Completion int `json:"completion_tokens"`
			}
		}
		if err := json.Unmarshal([]byte(body), &v); err != nil || v.Choices[0].Message.Content != "a b" || v.Usage.Completion != 2 {
			t.Fatalf("%s (%v)", body, err)
		}
		if r := srv.Chats()[len(srv.Chats())-1]; r.Temperature == nil || *r.Temperature != 0 {
			t.Error("temperature 0 not recorded as set")
		}
	})
}

func TestMisbehaviours(t *testing.T) {
	for _, p := range []llmtest.Protocol{llmtest.Ollama, llmtest.OpenAI} {
		t.Run(string(p), func(t *testing.T) {
			srv := llmtest.New(p, llmtest.Script(
				llmtest.Reply{Status: 503, Error: "busy", RetryAfter: "2"},
				llmtest.Reply{RawBody: `{not json`},
				llmtest.Reply{Text: "x y z", Drop: true, DropAfter: 1},
			))
			defer srv.Close()
			srv.SetModels("m")
			chat := srv.URL + "/api/chat"
			if p == llmtest.OpenAI {
				chat = srv.URL + "/chat/completions"
			}
			req := `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`
			resp, body := post(t, chat, req)
			if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "2" || !strings.Contains(body, "busy") {
				t.Errorf("status %d body %s", resp.StatusCode, body)
			}
			if _, body = post(t, chat, req); body != `{not json` {
				t.Errorf("raw body %q", body)
			}
			resp2, err := http.Post(chat, "application/json", strings.NewReader(req))
			if err == nil {
				_, err = io.ReadAll(resp2.Body)
				resp2.Body.Close()
			}
			if err == nil {
				t.Error("a dropped connection read cleanly")
			}
			if resp, _ = post(t, chat, strings.Replace(req, `"m"`, `"other"`, 1)); resp.StatusCode != 404 {
				t.Errorf("unknown model: status %d", resp.StatusCode)
			}
		})
	}
}

func TestImages(t *testing.T) {
	t.Run("ollama images are decoded from base64", func(t *testing.T) {
		srv := llmtest.NewOllama(t, llmtest.Text("a cat"))
		resp, body := post(t, srv.URL+"/api/chat", `{"model":"m","stream":false,"messages":[{"role":"user","content":"what is it?","images":["aGVsbG8="]}]}`)
		if resp.StatusCode != 200 {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		imgs := srv.Chats()[0].Images()
		if len(imgs) != 1 || string(imgs[0]) != "hello" {
			t.Errorf("images %q", imgs)
		}
	})
	t.Run("ollama refuses bad base64", func(t *testing.T) {
		srv := llmtest.NewOllama(t, nil)
		resp, _ := post(t, srv.URL+"/api/chat", `{"model":"m","messages":[{"role":"user","content":"x","images":["not base64!"]}]}`)
		if resp.StatusCode != 400 {
			t.Errorf("status %d, want 400", resp.StatusCode)
		}
	})
	t.Run("openai image_url data URLs are decoded", func(t *testing.T) {
		srv := llmtest.NewOpenAI(t, llmtest.Text("a cat"))
		resp, body := post(t, srv.URL+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":[
			{"type":"text","text":"what is it?"},
			{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,aGVsbG8="}},
			{"type":"image_url","image_url":{"url":"https://example.com/cat.jpg"}}]}]}`)
		if resp.StatusCode != 200 {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		r := srv.Chats()[0]
		if r.Prompt() != "what is it?" {
			t.Errorf("prompt %q", r.Prompt())
		}
		m := r.Messages[0]
		if len(m.Images) != 1 || string(m.Images[0]) != "hello" || len(m.ImageURLs) != 2 || m.ImageURLs[1] != "https://example.com/cat.jpg" {
			t.Errorf("images %q, urls %q", m.Images, m.ImageURLs)
		}
	})
	t.Run("openai refuses a malformed data URL", func(t *testing.T) {
		srv := llmtest.NewOpenAI(t, nil)
		resp, _ := post(t, srv.URL+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/jpeg,raw"}}]}]}`)
		if resp.StatusCode != 400 {
			t.Errorf("status %d, want 400", resp.StatusCode)
		}
	})
}

func TestShow(t *testing.T) {
	srv := llmtest.NewOllama(t, nil)
	srv.SetModels("moondream:latest", "qwen2.5:3b")
	srv.SetCapabilities("moondream:latest", "completion", "vision")
	tests := []struct {
		model    string
		status   int
		wantCaps string
	}{
		{"moondream:latest", 200, `["completion","vision"]`},
		{"moondream", 200, `["completion","vision"]`}, // a bare name is :latest
		{"qwen2.5:3b", 200, ""},
		{"llava", 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			resp, body := post(t, srv.URL+"/api/show", `{"model":"`+tt.model+`"}`)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if tt.status != 200 {
				return
			}
			var v struct {
				Capabilities json.RawMessage `json:"capabilities"`
			}
			if err := json.Unmarshal([]byte(body), &v); err != nil {
				t.Fatal(err)
			}
			if string(v.Capabilities) != tt.wantCaps {
				t.Errorf("capabilities %s, want %s", v.Capabilities, tt.wantCaps)
			}
		})
	}
}
