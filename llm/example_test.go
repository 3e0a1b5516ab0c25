package llm_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http"

	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
)

// The example runs against a fake Ollama server; with a real one the spec
// would be "ollama:qwen2.5:3b".
func Example() {
	srv := llmtest.New(llmtest.Ollama, llmtest.Text(`{"route": "hybrid", "keywords": ["INV-7", "total"], "time": "any"}`))
	defer srv.Close()

	router, err := llm.ParseSpec(srv.Spec("qwen2.5:3b"))
	if err != nil {
		fmt.Println(err)
		return
	}
	models, err := llm.New(context.Background(), llm.Config{Router: router}, &http.Client{})
	if err != nil {
		fmt.Println(err)
		return
	}
	plan, err := models.Planner().Plan(context.Background(), "what is the total of invoice INV-7?", nil)
	if err != nil {
		fmt.Println("fall back to the rules:", llm.Reason(err))
		return
	}
	fmt.Println(plan.Route, plan.Keywords, plan.By, plan.Usage.Calls)
	// Output: hybrid [INV-7 total] llm 1
}

func ExampleParseRoutePlan() {
	for _, out := range []string{
		"```json\n{\"route\": \"web\"}\n```",
		`<tool_call>{"name": "route", "arguments": {"route": "filesystem"}}</tool_call>`,
		`route("direct")`,
		`{"route": "database"}`,
	} {
		plan, err := llm.ParseRoutePlan(out)
		if err != nil {
			fmt.Println("fallback:", llm.Reason(err))
			continue
		}
		fmt.Println(plan.Route)
	}
	// Output:
	// web
	// filesystem
	// direct
	// fallback: bad_output
}

func ExampleModels_Check() {
	srv := llmtest.New(llmtest.Ollama, nil)
	defer srv.Close()
	srv.SetModels("llama3.2:1b")
	router, _ := llm.ParseSpec(srv.Spec("qwen2.5:3b"))
	models, _ := llm.New(context.Background(), llm.Config{Router: router}, &http.Client{})
	for _, c := range models.Check(context.Background()) {
		if !c.OK {
			fmt.Println(c.Fix)
		}
	}
	// Output: run: ollama pull qwen2.5:3b
}

// A captioner turns an image into searchable text. The example's image is
// made in memory and the vision model is a fake Ollama; with a real one
// the spec would be "ollama:moondream" (ollama pull moondream).
func ExampleCaptioner() {
	srv := llmtest.New(llmtest.Ollama, llmtest.Text(`A whiteboard diagram titled "Ingest pipeline" with three boxes.`))
	defer srv.Close()
	srv.SetCapabilities("moondream", "completion", "vision")

	spec, _ := llm.ParseSpec(srv.Spec("moondream"))
	c, err := llm.NewCaptioner(context.Background(), spec, llm.Config{}, &http.Client{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var photo bytes.Buffer
	_ = png.Encode(&photo, image.NewGray(image.Rect(0, 0, 4000, 3000)))

	text, err := c.Caption(context.Background(), "whiteboard.png", photo.Bytes())
	if err != nil {
		fmt.Println("not captioned:", llm.Reason(err), err)
		return
	}
	sent, _, _ := image.DecodeConfig(bytes.NewReader(srv.Chats()[0].Images()[0]))
	fmt.Println(c.Name())
	fmt.Println(text)
	fmt.Printf("sent %d×%d\n", sent.Width, sent.Height)
	// Output:
	// ollama:moondream/caption-v1/768px
	// A whiteboard diagram titled "Ingest pipeline" with three boxes.
	// sent 768×576
}
