package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"

	// Decoders for the image formats ingest captions. Registering them is
	// global to the program, as with any image decoder.
	_ "image/gif"
	_ "image/png"

	_ "golang.org/x/image/bmp"
	"golang.org/x/image/draw"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"

	"github.com/graphrag/graphrag"
)

// Why an image could not be captioned before any model was asked; match
// with errors.Is. Failures of the model call itself are *Error as usual.
var (
	// ErrBadImage: the data is not an image of a supported format (jpg,
	// png, gif, webp, bmp, tiff), or it is corrupt or truncated.
	ErrBadImage = errors.New("image unreadable")
	// ErrImageTooLarge: the image's header declares more pixels than
	// Config.CaptionMaxPixels; it is refused without being decoded.
	ErrImageTooLarge = errors.New("image too large to caption")
)

const (
	// captionTokens caps a caption: two sentences need ~60 tokens; the
	// cap stops a small vision model that rambles.
	captionTokens = 200
	// captionChars caps the caption kept.
	captionChars = 800
	// captionVersion changes when the prompt or the preprocessing does,
	// so cached captions made the old way are not reused.
	captionVersion = "caption-v1"
	jpegQuality    = 85
)

const captionPrompt = "Describe this image for a search index, in one or two sentences: " +
	"what it shows (objects, people, place; or the kind of document, screenshot or chart) " +
	"and any text visible in it, quoted exactly. Do not guess at what you cannot see. " +
	"Reply with the description only."

// Captioner describes images with a vision model (moondream, llava,
// qwen2.5vl, llama3.2-vision, ... on Ollama; or an OpenAI-compatible server
// started with a multimodal projector, e.g. llama-server --mmproj), so that
// images become searchable text.
//
// Each image is decoded, shrunk so its longer side is at most
// Config.CaptionMaxSide pixels, flattened onto white and re-encoded as a
// JPEG (quality 85) before it is sent: a 12-megapixel photo becomes ~100 KB
// instead of several MB of base64 (most vision models resize their input
// to 336-768 px anyway), and the original's metadata (EXIF, GPS) is not
// sent. EXIF orientation is not applied. Images whose
// header declares more than Config.CaptionMaxPixels are refused unread.
//
// Calls have the timeout (Config.CaptionTimeout), retries and error kinds
// of every model call, and a circuit breaker for the server. A Captioner
// is safe for concurrent use.
type Captioner struct {
	spec      Spec
	chat      *chat
	maxSide   int
	maxPixels int
}

// NewCaptioner builds a captioner for the vision model spec and checks,
// with one request and no retries (bounded by CheckTimeout), that its
// server answers: for Ollama, that it has the model and, when the server
// reports capabilities (recent Ollama versions do), that the model can see
// images. So a configured but absent vision model is found once, before
// an ingest, with an *Error that says what to run (Kind ErrUnreachable,
// ErrModelMissing, or ErrRejected for a model without vision), rather than
// once per image. hc is used as by New.
func NewCaptioner(ctx context.Context, spec Spec, cfg Config, hc *http.Client) (*Captioner, error) {
	if hc == nil {
		return nil, errNilClient
	}
	if spec.IsZero() {
		return nil, fmt.Errorf("llm: no vision model: %w (set one, e.g. ollama:moondream)", graphrag.ErrNotConfigured)
	}
	cfg.Router = spec
	cfg = cfg.withDefaults()
	ch, err := newChat(spec, wrapClient(hc, cfg), cfg, *cfg.DecideTemperature, captionTokens, cfg.CaptionTimeout,
		newBreakers(cfg.UnreachableCooldown).get(spec))
	if err != nil {
		return nil, err
	}
	if err := checkVision(ctx, hc, spec); err != nil {
		return nil, err
	}
	return &Captioner{spec: spec, chat: ch, maxSide: cfg.CaptionMaxSide, maxPixels: cfg.CaptionMaxPixels}, nil
}

// Name identifies the captions this captioner makes, for a cache key next
// to the image's content hash: the model (not its server), the prompt's
// version and the size images are shrunk to, e.g.
// "ollama:moondream/caption-v1/768px". A change to any of them changes
// the captions, so it changes the name.
func (c *Captioner) Name() string {
	return fmt.Sprintf("%s/%s/%dpx", c.spec.Name(), captionVersion, c.maxSide)
}

// Caption returns a one- or two-sentence description of the image in
// data (jpg, png, gif, webp, bmp or tiff), with any text visible in it.
// name (the file's path) is only used in error messages. Errors match
// ErrBadImage or ErrImageTooLarge when the image is refused before any
// call, and are otherwise an *Error from the model call (see Reason).
func (c *Captioner) Caption(ctx context.Context, name string, data []byte) (string, error) {
	img, err := c.prepare(data)
	if err != nil {
		return "", fmt.Errorf("llm: caption %s: %w", name, err)
	}
	text, usage, err := c.chat.generate(ctx, request{op: "caption", user: captionPrompt, image: img})
	if err != nil {
		return "", fmt.Errorf("llm: caption %s: %w", name, err)
	}
	caption := cleanCaption(text)
	if caption == "" {
		return "", fmt.Errorf("llm: caption %s: %w", name, c.chat.bad("caption", text, errEmpty, usage))
	}
	return caption, nil
}

// prepare decodes an image, shrinks it to maxSide and re-encodes it as
// a JPEG.
func (c *Captioner) prepare(data []byte) ([]byte, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		if errors.Is(err, image.ErrFormat) {
			return nil, fmt.Errorf("%w: not a jpg, png, gif, webp, bmp or tiff image", ErrBadImage)
		}
		return nil, fmt.Errorf("%w: reading the header: %v", ErrBadImage, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("%w: %s header declares %d×%d pixels", ErrBadImage, format, cfg.Width, cfg.Height)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > int64(c.maxPixels) {
		return nil, fmt.Errorf("%w: the %s header declares %d×%d pixels (%.1f megapixels), over the limit of %.1f; "+
			"not decoding it (raise CaptionMaxPixels if the image is genuine)",
			ErrImageTooLarge, format, cfg.Width, cfg.Height, float64(px)/1e6, float64(c.maxPixels)/1e6)
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: corrupt or truncated %s: %v", ErrBadImage, format, err)
	}
	b := src.Bounds()
	w, h := fit(b.Dx(), b.Dy(), c.maxSide)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	// White under transparent pixels: JPEG has no alpha, and a
	// transparent PNG would otherwise turn black.
	draw.Draw(dst, dst.Bounds(), image.White, image.Point{}, draw.Src)
	if w == b.Dx() && h == b.Dy() {
		draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Over)
	} else {
		draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Over, nil)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: jpegQuality}); err != nil {
		return nil, fmt.Errorf("encoding the shrunk image: %w", err)
	}
	return buf.Bytes(), nil
}

// fit scales w×h so its longer side is at most side, keeping the aspect
// ratio and at least one pixel each way.
func fit(w, h, side int) (int, int) {
	if w <= side && h <= side {
		return w, h
	}
	if w >= h {
		return side, max(1, int((int64(h)*int64(side)+int64(w)/2)/int64(w)))
	}
	return max(1, int((int64(w)*int64(side)+int64(h)/2)/int64(h))), side
}

var (
	captionLabelRe = regexp.MustCompile(`^(?i)(caption|description|image description)\s*:\s*`)
	spacesRe       = regexp.MustCompile(`\s+`)
)

// cleanCaption makes a model's description one clean line.
func cleanCaption(text string) string {
	s := strings.TrimSpace(stripThink(text))
	s = captionLabelRe.ReplaceAllString(s, "")
	s = spacesRe.ReplaceAllString(s, " ")
	s = strings.Trim(s, `"`+" ")
	return clip(s, captionChars)
}

// checkVision asks spec's server whether it has the model and, on Ollama,
// whether the model can see images.
func checkVision(ctx context.Context, hc *http.Client, spec Spec) error {
	fail := func(kind, err error) error { return &Error{Op: "caption", Model: spec.String(), Kind: kind, Err: err} }
	if spec.Backend == OpenAI {
		// The model list of llama-server names the model file unless it
		// was started with --alias, so only reachability is checked.
		if _, err := listModels(ctx, hc, spec); err != nil {
			for _, k := range []error{ErrUnreachable, ErrTimeout, ErrServer, ErrBadOutput} {
				if errors.Is(err, k) {
					return fail(k, errors.New(strings.TrimPrefix(err.Error(), k.Error()+": ")))
				}
			}
			return fail(ErrUnreachable, err)
		}
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, CheckTimeout)
	defer cancel()
	// Older Ollama versions read "name", newer ones "model".
	body, _ := json.Marshal(map[string]string{"model": spec.Model, "name": spec.Model})
	req, err := http.NewRequestWithContext(cctx, http.MethodPost, spec.BaseURL+"/api/show", bytes.NewReader(body))
	if err != nil {
		return fail(ErrRejected, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		if cctx.Err() != nil && ctx.Err() == nil {
			return fail(ErrTimeout, fmt.Errorf("no answer from %s within %s", spec.BaseURL, CheckTimeout))
		}
		if ctx.Err() != nil {
			return fail(context.Canceled, ctx.Err())
		}
		return fail(ErrUnreachable, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fail(ErrUnreachable, err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return fail(ErrModelMissing, fmt.Errorf("the server does not have %s", spec.Model))
	case resp.StatusCode != http.StatusOK:
		return fail(ErrServer, fmt.Errorf("POST /api/show: HTTP %d: %s", resp.StatusCode, clip(strings.TrimSpace(string(b)), 200)))
	}
	var show struct {
		Capabilities []string `json:"capabilities"`
	}
	if err := json.Unmarshal(b, &show); err != nil {
		return fail(ErrBadOutput, fmt.Errorf("POST /api/show: %v", err))
	}
	if show.Capabilities != nil && !slices.Contains(show.Capabilities, "vision") {
		return fail(ErrRejected, fmt.Errorf("%s cannot see images (its capabilities: %s): use a vision model, e.g. ollama:moondream (run: ollama pull moondream)",
			spec.Model, strings.Join(show.Capabilities, ", ")))
	}
	return nil
}
