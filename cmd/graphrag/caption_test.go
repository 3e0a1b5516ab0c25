package main

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
	"github.com/graphrag/graphrag/server"
)

// pngImage is a w×h PNG with a gradient, so it is a real image to decode
// and shrink.
func pngImage(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{R: uint8(x * 255 / w), G: uint8(y * 255 / h), B: 128, A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// imageDir is a directory with a photo, a copy of it elsewhere, a file
// that pretends to be an image, and a text file.
func imageDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"photos/lighthouse.png": pngImage(t, 1200, 800),
		"notes/shopping.txt":    []byte("Shopping list: milk, eggs, flour and coffee beans.\n"),
		"photos/broken.jpg":     []byte("this is not a jpeg at all"),
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const lighthouseCaption = "A red and white lighthouse standing on a rocky cliff above the sea at sunset."

// visionServer is a fake Ollama with moondream, a vision model, that
// captions every image it is sent as the lighthouse.
func visionServer(t *testing.T) *llmtest.Server {
	srv := llmtest.NewOllama(t, func(r llmtest.Request) llmtest.Reply {
		if len(r.Images()) == 0 {
			return llmtest.Reply{Status: 400, Error: "no image"}
		}
		return llmtest.Reply{Text: lighthouseCaption}
	})
	srv.SetCapabilities("moondream", "completion", "vision")
	return srv
}

func TestIngestCaptionsImages(t *testing.T) {
	srv := visionServer(t)
	c := newCLI(t)
	dir := imageDir(t)

	out := c.ok("ingest", "--vision", srv.Spec("moondream"), dir)
	if !strings.Contains(out, "3 files: 2 added") || !strings.Contains(out, "images: 1 captioned, 0 captions from the cache") ||
		!strings.Contains(out, "1 image: unreadable or too large to caption") {
		t.Fatalf("ingest summary:\n%s", out)
	}
	chats := srv.Chats()
	if len(chats) != 1 {
		t.Fatalf("%d caption requests, want 1 (the broken image is refused before any call)", len(chats))
	}
	imgs := chats[0].Images()
	if len(imgs) != 1 {
		t.Fatalf("the caption request carries %d images, want 1", len(imgs))
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(imgs[0]))
	if err != nil || format != "jpeg" || max(cfg.Width, cfg.Height) >= 1200 {
		t.Errorf("image sent: %s %dx%d (%v), want a JPEG shrunk from 1200x800", format, cfg.Width, cfg.Height, err)
	}

	t.Run("run finds the image by its caption and cites it", func(t *testing.T) {
		out := c.ok("run", "--json", "Where is the red lighthouse?")
		var r server.QueryResponse
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if !strings.Contains(strings.ToLower(r.Answer), "lighthouse") {
			t.Errorf("answer lacks the caption: %q", r.Answer)
		}
		cited := false
		for _, ci := range r.Citations {
			cited = cited || filepath.Base(ci.Path) == "lighthouse.png"
		}
		if !cited {
			t.Errorf("lighthouse.png not cited: %+v", r.Citations)
		}
	})

	t.Run("a second ingest asks for no caption", func(t *testing.T) {
		c.env["GRAPHRAG_VISION"] = srv.Spec("moondream")
		defer delete(c.env, "GRAPHRAG_VISION")
		out := c.ok("ingest", dir)
		if !strings.Contains(out, "2 unchanged") || len(srv.Chats()) != 1 {
			t.Errorf("%d caption requests in all, want still 1; summary:\n%s", len(srv.Chats()), out)
		}
	})

	t.Run("a copy into a new store is captioned from the cache", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(dir, "photos", "lighthouse.png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "notes", "copy.png"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		other := filepath.Join(filepath.Dir(defaultStorePath(func(k string) string { return c.env[k] })), "other.db")
		out := c.ok("ingest", "--vision", srv.Spec("moondream"), "--store", other, dir)
		if !strings.Contains(out, "images: 0 captioned, 2 captions from the cache") || len(srv.Chats()) != 1 {
			t.Errorf("%d caption requests in all, want still 1; summary:\n%s", len(srv.Chats()), out)
		}
	})
}

func TestIngestWithoutVisionSkipsImagesWithOneNotice(t *testing.T) {
	c := newCLI(t)
	dir := imageDir(t)
	out, errs, code := c.run("", "ingest", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "2 image: no vision model configured") {
		t.Errorf("summary does not count the skipped images:\n%s", out)
	}
	want := "2 images skipped: pass --vision ollama:moondream (or set GRAPHRAG_VISION) to caption them"
	if strings.Count(errs, want) != 1 {
		t.Errorf("stderr does not say once %q:\n%s", want, errs)
	}
	if _, errs, _ := c.run("", "ingest", "--quiet", dir); strings.Contains(errs, "images skipped") {
		t.Errorf("--quiet still prints the notice:\n%s", errs)
	}
}

func TestIngestWithAnUnusableVisionModel(t *testing.T) {
	cases := []struct {
		name   string
		spec   func(t *testing.T) string
		notice string
	}{
		{"server down", func(t *testing.T) string {
			srv := visionServer(t)
			srv.Close()
			return srv.Spec("moondream")
		}, "images are skipped this time"},
		{"not a vision model", func(t *testing.T) string {
			srv := visionServer(t)
			srv.SetCapabilities("qwen2.5:3b", "completion")
			return srv.Spec("qwen2.5:3b")
		}, "cannot see images"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			out, errs, code := c.run("", "ingest", "--vision", tc.spec(t), imageDir(t))
			if code != 0 {
				t.Fatalf("an unusable vision model failed the ingest: exit %d: %s", code, errs)
			}
			if !strings.Contains(out, "1 added") || !strings.Contains(errs, tc.notice) {
				t.Errorf("want the text file added and a notice %q;\nstdout:\n%s\nstderr:\n%s", tc.notice, out, errs)
			}
		})
	}

	t.Run("a malformed spec is an error", func(t *testing.T) {
		c := newCLI(t)
		if _, errs, code := c.run("", "ingest", "--vision", "nonsense:::", imageDir(t)); code == 0 || !strings.Contains(errs, "--vision") {
			t.Errorf("exit %d, stderr %q: want an error naming --vision", code, errs)
		}
	})
}

func TestClassifyCaptionError(t *testing.T) {
	ctx := t.Context()
	srv := visionServer(t)
	cfg := llm.DefaultConfig()
	cfg.Retries = -1
	spec, err := llm.ParseSpec(srv.Spec("moondream"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := llm.NewCaptioner(ctx, spec, cfg, httpClient())
	if err != nil {
		t.Fatal(err)
	}
	png := pngImage(t, 40, 30)
	cases := []struct {
		name  string
		data  []byte
		setup func()
		want  ingest.CaptionFailure
	}{
		{"not an image", []byte("plain text"), func() {}, ingest.CaptionBadImage},
		{"server error", png, func() {
			srv.SetResponder(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Status: 500, Error: "out of memory"} })
		}, ingest.CaptionFailed},
		{"server gone", png, srv.Close, ingest.CaptionUnavailable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.setup()
			_, err := c.Caption(ctx, "x.png", tc.data)
			if err == nil {
				t.Fatal("no error")
			}
			if got := classifyCaptionError(err); got != tc.want {
				t.Errorf("classify(%v) = %d, want %d", err, got, tc.want)
			}
		})
	}
}
