package ingest_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
)

// BenchmarkCaptionIngest ingests a directory of 1024×768 PNG photos with the
// real llm.Captioner (decode, shrink to 768 px, JPEG) against a fake Ollama
// that answers at once, so it measures ingest's own cost per image; then
// ingests the same directory into a new store with the caption cache.
//
//	go test ./ingest -run '^$' -bench CaptionIngest -benchtime 3x
func BenchmarkCaptionIngest(b *testing.B) {
	const n = 16
	dir := b.TempDir()
	for i := range n {
		img := image.NewRGBA(image.Rect(0, 0, 1024, 768))
		for y := range 768 {
			for x := range 1024 {
				img.Set(x, y, color.RGBA{R: uint8(x + i), G: uint8(y * i), B: uint8(x ^ y), A: 255})
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("photo-%02d.png", i)), buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	srv := llmtest.NewOllama(b, llmtest.Text("A photo of a gradient test pattern."))
	srv.SetCapabilities("moondream", "vision")
	spec, err := llm.ParseSpec(srv.Spec("moondream"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	c, err := llm.NewCaptioner(ctx, spec, llm.DefaultConfig(), &http.Client{})
	if err != nil {
		b.Fatal(err)
	}
	var captioned, cached int
	var captionTime, cachedTime time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		cache, err := ingest.OpenCaptionFile(filepath.Join(b.TempDir(), "captions.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		st1, err := sqliteOpen(b)
		if err != nil {
			b.Fatal(err)
		}
		st2, err := sqliteOpen(b)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		opts := ingest.Options{Captioner: c, CaptionCache: cache}
		sum, err := ingest.New(st1, opts).Run(ctx, dir)
		if err != nil {
			b.Fatal(err)
		}
		captioned += sum.Captioned
		captionTime += sum.Duration
		sum, err = ingest.New(st2, opts).Run(ctx, dir)
		if err != nil {
			b.Fatal(err)
		}
		cached += sum.CaptionsCached
		cachedTime += sum.Duration
		b.StopTimer()
		st1.Close()
		st2.Close()
		cache.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(captioned)/captionTime.Seconds(), "captions/s")
	b.ReportMetric(float64(cached)/cachedTime.Seconds(), "cached-images/s")
	b.ReportMetric(float64(cached)/float64(n*b.N), "cache-hit-rate")
}
