package llm_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/llm/llmtest"
)

const caption = `A scanned invoice from ACME with the text "INV-7" and a total of 1,240 EUR.`

// picture is a w×h test image with a gradient and a dark bar, so that
// scaling has something to do.
func picture(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 128, 255}
			if y > h/3 && y < h/2 {
				c = color.NRGBA{20, 20, 20, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

func encode(t testing.TB, format string, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, img, nil)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	case "bmp":
		err = bmp.Encode(&buf, img)
	case "tiff":
		err = tiff.Encode(&buf, img, nil)
	default:
		t.Fatalf("no encoder for %s", format)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// webpSolid hand-encodes a lossless WebP of one colour (the standard
// library and x/image have no WebP encoder): five single-symbol prefix
// codes, so every pixel takes zero bits.
func webpSolid(w, h int, c color.NRGBA) []byte {
	var bits []bool
	put := func(v uint32, n int) {
		for i := range n {
			bits = append(bits, v>>i&1 == 1)
		}
	}
	put(uint32(w-1), 14)
	put(uint32(h-1), 14)
	put(0, 1) // alpha unused
	put(0, 3) // version
	put(0, 1) // no transform
	put(0, 1) // no colour cache
	put(0, 1) // no meta prefix codes
	for _, sym := range []uint8{c.G, c.R, c.B, c.A, 0} {
		put(1, 1) // simple code
		put(0, 1) // one symbol
		put(1, 1) // of 8 bits
		put(uint32(sym), 8)
	}
	data := []byte{0x2f}
	for i := 0; i < len(bits); i += 8 {
		var b byte
		for j := 0; j < 8 && i+j < len(bits); j++ {
			if bits[i+j] {
				b |= 1 << j
			}
		}
		data = append(data, b)
	}
	if len(data)%2 == 1 {
		data = append(data, 0)
	}
	out := []byte("RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00")
	binary.LittleEndian.PutUint32(out[4:], uint32(4+8+len(data)))
	binary.LittleEndian.PutUint32(out[16:], uint32(len(data)))
	return append(out, data...)
}

// bombPNG is a valid PNG header declaring w×h pixels, with no image data
// worth the name: a decompression bomb's shape.
func bombPNG(t testing.TB, w, h uint32) []byte {
	b := encode(t, "png", image.NewGray(image.Rect(0, 0, 1, 1)))
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

func newCaptioner(t testing.TB, srv *llmtest.Server, mut ...func(*llm.Config)) *llm.Captioner {
	t.Helper()
	cfg := testConfig(t, srv)
	for _, f := range mut {
		f(&cfg)
	}
	c, err := llm.NewCaptioner(context.Background(), cfg.Router, cfg, &http.Client{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// received returns the one image the server was sent, its format and size.
func received(t *testing.T, srv *llmtest.Server) (image.Config, string) {
	t.Helper()
	chats := srv.Chats()
	if len(chats) != 1 {
		t.Fatalf("%d chat requests, want 1", len(chats))
	}
	imgs := chats[0].Images()
	if len(imgs) != 1 {
		t.Fatalf("%d images sent, want 1", len(imgs))
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(imgs[0]))
	if err != nil {
		t.Fatalf("the image sent does not decode: %v", err)
	}
	return cfg, format
}

// TestCaption: each format is decoded, shrunk to 768 px on its longer
// side, sent as a JPEG with the prompt, and the caption comes back clean.
func TestCaption(t *testing.T) {
	tests := []struct {
		name         string
		data         func(t testing.TB) []byte
		wantW, wantH int
	}{
		{"3000x2000 png", func(t testing.TB) []byte { return encode(t, "png", picture(3000, 2000)) }, 768, 512},
		{"portrait jpeg", func(t testing.TB) []byte { return encode(t, "jpeg", picture(1000, 3000)) }, 256, 768},
		{"small png kept", func(t testing.TB) []byte { return encode(t, "png", picture(40, 30)) }, 40, 30},
		{"gif", func(t testing.TB) []byte { return encode(t, "gif", picture(800, 400)) }, 768, 384},
		{"bmp", func(t testing.TB) []byte { return encode(t, "bmp", picture(1536, 100)) }, 768, 50},
		{"tiff", func(t testing.TB) []byte { return encode(t, "tiff", picture(900, 900)) }, 768, 768},
		{"webp", func(testing.TB) []byte { return webpSolid(1600, 1200, color.NRGBA{200, 30, 30, 255}) }, 768, 576},
		{"thin strip", func(t testing.TB) []byte { return encode(t, "png", picture(4000, 2)) }, 768, 1},
	}
	for _, p := range protocols {
		for _, tt := range tests {
			t.Run(p.name+"/"+tt.name, func(t *testing.T) {
				srv := p.start(t, llmtest.Text(caption))
				c := newCaptioner(t, srv)
				got, err := c.Caption(context.Background(), "scan."+tt.name, tt.data(t))
				if err != nil {
					t.Fatal(err)
				}
				if got != caption {
					t.Errorf("caption %q", got)
				}
				cfg, format := received(t, srv)
				if format != "jpeg" || cfg.Width != tt.wantW || cfg.Height != tt.wantH {
					t.Errorf("server got a %s of %d×%d, want a jpeg of %d×%d", format, cfg.Width, cfg.Height, tt.wantW, tt.wantH)
				}
				req := srv.Chats()[0]
				if !strings.Contains(req.Prompt(), "visible") {
					t.Errorf("prompt %q does not ask for the visible text", req.Prompt())
				}
				if p.name == "openai" && !strings.HasPrefix(req.Messages[len(req.Messages)-1].ImageURLs[0], "data:image/jpeg;base64,") {
					t.Errorf("image_url %.40q is not a JPEG data URL", req.Messages[len(req.Messages)-1].ImageURLs[0])
				}
				if req.MaxTokens <= 0 || req.MaxTokens > 256 {
					t.Errorf("max tokens %d: a caption should be capped", req.MaxTokens)
				}
			})
		}
	}
}

// TestCaptionTransparent: transparent pixels become white, not black.
func TestCaptionTransparent(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Text(caption))
	c := newCaptioner(t, srv)
	if _, err := c.Caption(context.Background(), "logo.png", encode(t, "png", image.NewNRGBA(image.Rect(0, 0, 16, 16)))); err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(srv.Chats()[0].Images()[0]))
	if err != nil {
		t.Fatal(err)
	}
	if r, g, b, _ := img.At(8, 8).RGBA(); r < 0xf000 || g < 0xf000 || b < 0xf000 {
		t.Errorf("transparent pixel sent as %v, want white", img.At(8, 8))
	}
}

// TestCaptionRefused: images that are not images, are cut short, or
// declare too many pixels are refused before any model call.
func TestCaptionRefused(t *testing.T) {
	full := encode(t, "png", picture(300, 200))
	tests := []struct {
		name   string
		data   []byte
		limit  int
		want   error
		saying string
	}{
		{"empty", nil, 0, llm.ErrBadImage, "not a jpg, png"},
		{"text file", []byte("hello, this is not an image"), 0, llm.ErrBadImage, "not a jpg, png"},
		{"truncated png", full[:len(full)/2], 0, llm.ErrBadImage, "corrupt or truncated png"},
		{"corrupted jpeg", corrupt(encode(t, "jpeg", picture(300, 200))), 0, llm.ErrBadImage, "corrupt or truncated jpeg"},
		{"header only", full[:40], 0, llm.ErrBadImage, "png"},
		{"bomb header", bombPNG(t, 100000, 100000), 0, llm.ErrImageTooLarge, "100000×100000 pixels (10000.0 megapixels)"},
		{"over a custom limit", encode(t, "png", picture(40, 30)), 1000, llm.ErrImageTooLarge, "40×30"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewOllama(t, llmtest.Text(caption))
			c := newCaptioner(t, srv, func(c *llm.Config) { c.CaptionMaxPixels = tt.limit })
			_, err := c.Caption(context.Background(), "photos/x.png", tt.data)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.saying) || !strings.Contains(err.Error(), "photos/x.png") {
				t.Errorf("err %q does not say %q and name the file", err, tt.saying)
			}
			if n := len(srv.Chats()); n != 0 {
				t.Errorf("%d model calls for a refused image", n)
			}
		})
	}
}

// corrupt overwrites the middle of a JPEG's entropy-coded data with
// marker bytes.
func corrupt(b []byte) []byte {
	b = bytes.Clone(b)
	for i := len(b) / 2; i < len(b)/2+64; i++ {
		b[i] = 0xff
	}
	b[len(b)/2+64] = 0xd9 // an early end-of-image marker
	return b
}

// TestCaptionModelFailures: a failing server gives the usual *Error kinds.
func TestCaptionModelFailures(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
		want  error
	}{
		{"500 always", llmtest.Reply{Status: 500, Error: "llama runner process has terminated"}, llm.ErrServer},
		{"400", llmtest.Reply{Status: 400, Error: "image: unknown format"}, llm.ErrRejected},
		{"hang", llmtest.Reply{Hang: true}, llm.ErrTimeout},
		{"empty caption", llmtest.Reply{Text: "  "}, llm.ErrBadOutput},
		{"dropped", llmtest.Reply{Text: caption, Drop: true, DropAfter: 1}, llm.ErrUnreachable},
	}
	img := encode(t, "png", picture(64, 64))
	for _, p := range protocols {
		for _, tt := range tests {
			t.Run(p.name+"/"+tt.name, func(t *testing.T) {
				srv := p.start(t, llmtest.Script(tt.reply))
				c := newCaptioner(t, srv, func(c *llm.Config) { c.CaptionTimeout = 200 * time.Millisecond })
				_, err := c.Caption(context.Background(), "a.png", img)
				if !errors.Is(err, tt.want) {
					t.Fatalf("err = %v, want %v", err, tt.want)
				}
				var e *llm.Error
				if !errors.As(err, &e) || e.Op != "caption" {
					t.Errorf("err %#v is not an *llm.Error for op caption", err)
				}
			})
		}
	}
}

// TestCaptionUnreachable: a server that goes away fails the first caption
// after its retries and the next ones at once.
func TestCaptionUnreachable(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Text(caption))
	c := newCaptioner(t, srv)
	srv.Close()
	img := encode(t, "png", picture(64, 64))
	for i, want := range []string{"connection refused", "skipped: "} {
		_, err := c.Caption(context.Background(), "a.png", img)
		if !errors.Is(err, llm.ErrUnreachable) || !strings.Contains(err.Error(), want) {
			t.Errorf("caption %d: %v, want ErrUnreachable saying %q", i, err, want)
		}
	}
}

// TestNewCaptioner: the vision model is checked once, up front.
func TestNewCaptioner(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(*llmtest.Server)
		want   error // nil: success
		saying string
	}{
		{"vision model", func(s *llmtest.Server) { s.SetCapabilities("qwen2.5:3b", "completion", "vision") }, nil, ""},
		{"old Ollama without capabilities", func(*llmtest.Server) {}, nil, ""},
		{"text-only model", func(s *llmtest.Server) { s.SetCapabilities("qwen2.5:3b", "completion", "tools") },
			llm.ErrRejected, "cannot see images (its capabilities: completion, tools)"},
		{"model missing", func(s *llmtest.Server) { s.SetModels("moondream:latest") }, llm.ErrModelMissing, "ollama pull qwen2.5:3b"},
		{"server down", func(s *llmtest.Server) { s.Close() }, llm.ErrUnreachable, "ollama serve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewOllama(t, nil)
			tt.setup(srv)
			cfg := testConfig(t, srv)
			_, err := llm.NewCaptioner(context.Background(), cfg.Router, cfg, &http.Client{})
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.saying) {
				t.Fatalf("err = %v, want %v saying %q", err, tt.want, tt.saying)
			}
		})
	}
	t.Run("openai server down", func(t *testing.T) {
		srv := llmtest.NewOpenAI(t, nil)
		srv.Close()
		cfg := testConfig(t, srv)
		if _, err := llm.NewCaptioner(context.Background(), cfg.Router, cfg, &http.Client{}); !errors.Is(err, llm.ErrUnreachable) {
			t.Fatalf("err = %v, want ErrUnreachable", err)
		}
	})
	t.Run("no model", func(t *testing.T) {
		if _, err := llm.NewCaptioner(context.Background(), llm.Spec{}, llm.Config{}, &http.Client{}); !errors.Is(err, graphrag.ErrNotConfigured) {
			t.Fatalf("err = %v, want ErrNotConfigured", err)
		}
	})
}

func TestCaptionerName(t *testing.T) {
	srv := llmtest.NewOllama(t, nil)
	for _, tt := range []struct {
		side int
		want string
	}{{0, "ollama:qwen2.5:3b/caption-v1/768px"}, {512, "ollama:qwen2.5:3b/caption-v1/512px"}} {
		c := newCaptioner(t, srv, func(c *llm.Config) { c.CaptionMaxSide = tt.side })
		if got := c.Name(); got != tt.want {
			t.Errorf("Name() = %q, want %q", got, tt.want)
		}
	}
}

func TestCaptionCleaned(t *testing.T) {
	for _, tt := range []struct{ name, out, want string }{
		{"label and lines", "Caption: A cat on a mat.\n\nThe mat says \"WELCOME\".", `A cat on a mat. The mat says "WELCOME".`},
		{"quoted", `"A bar chart of sales by month."`, "A bar chart of sales by month."},
		{"think block", "<think>hmm</think>\nA red car.", "A red car."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewOllama(t, llmtest.Text(tt.out))
			got, err := newCaptioner(t, srv).Caption(context.Background(), "a.png", encode(t, "png", picture(8, 8)))
			if err != nil || got != tt.want {
				t.Errorf("caption %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// BenchmarkCaptionPrepare: decoding, shrinking and re-encoding, per image.
func BenchmarkCaptionPrepare(b *testing.B) {
	srv := llmtest.NewOllama(b, nil)
	c := newCaptioner(b, srv)
	for _, bc := range []struct {
		name string
		data []byte
	}{
		{"png 3000x2000", encode(b, "png", picture(3000, 2000))},
		{"jpeg 4000x3000", encode(b, "jpeg", picture(4000, 3000))},
		{"jpeg 8000x6000", encode(b, "jpeg", picture(8000, 6000))},
		{"png 640x480", encode(b, "png", picture(640, 480))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var out []byte
			for b.Loop() {
				var err error
				if out, err = c.Prepare(bc.data); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(bc.data)), "in-bytes")
			b.ReportMetric(float64(len(out)), "out-bytes")
		})
	}
}

// TestDoctorVision: the doctor checks a configured vision model: present,
// and able to see images.
func TestDoctorVision(t *testing.T) {
	tests := []struct {
		name    string
		caps    []string
		vision  string
		wantOK  bool
		wantFix string
	}{
		{"vision model", []string{"completion", "vision"}, "moondream", true, ""},
		{"text model", []string{"completion"}, "moondream", false, "ollama pull moondream"},
		{"missing", nil, "llava:7b", false, "ollama pull llava:7b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewOllama(t, nil)
			srv.SetModels("qwen2.5:3b", "moondream:latest")
			if tt.caps != nil {
				srv.SetCapabilities("moondream:latest", tt.caps...)
			}
			cfg := testConfig(t, srv)
			var err error
			if cfg.Vision, err = llm.ParseSpec(srv.Spec(tt.vision)); err != nil {
				t.Fatal(err)
			}
			checks := llm.Doctor(context.Background(), cfg, &http.Client{})
			var failed []llm.Check
			for _, c := range checks {
				if !c.OK {
					failed = append(failed, c)
				}
			}
			if tt.wantOK != (len(failed) == 0) {
				t.Fatalf("checks %+v: want ok=%v", checks, tt.wantOK)
			}
			if !tt.wantOK && !strings.Contains(failed[0].Fix, tt.wantFix) {
				t.Errorf("fix %q, want %q", failed[0].Fix, tt.wantFix)
			}
			if last := checks[len(checks)-1]; !strings.Contains(last.Name, "vision model") {
				t.Errorf("last check %q is not about the vision model", last.Name)
			}
		})
	}
}
