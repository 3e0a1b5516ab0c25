package ingest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/graphrag/graphrag"
)

// Captioner describes an image in words so that it can be searched. Name
// identifies the captions it makes (model, prompt and preprocessing
// version): it is part of the cache key, so a different model or prompt
// captions again. llm.Captioner satisfies it. Caption must be safe for
// concurrent use.
type Captioner interface {
	Name() string
	Caption(ctx context.Context, name string, data []byte) (string, error)
}

// CaptionCache keeps captions by key (see CaptionKey) across runs, so an
// image is captioned once however often it is ingested, moved or copied,
// and even into a new store. It must be safe for concurrent use.
// CaptionFile is a file-backed one.
type CaptionCache interface {
	Get(key string) (string, bool)
	Put(key, caption string) error
}

// CaptionFailure says what a caption error means for the rest of the run;
// see Options.ClassifyCaptionError.
type CaptionFailure int

const (
	// CaptionFailed: the call failed (a timeout, a server error). The
	// image is skipped; after Options.MaxCaptionFailures such failures in
	// a row captioning stops for the rest of the run.
	CaptionFailed CaptionFailure = iota
	// CaptionBadImage: the image itself was refused (unreadable, or too
	// many pixels). The image is skipped; the next ones are captioned.
	CaptionBadImage
	// CaptionUnavailable: the vision model cannot be used (its server is
	// unreachable, the model missing). Captioning stops for the rest of
	// the run.
	CaptionUnavailable
)

// Skip reasons of images, counted in Summary.Skipped.
const (
	ReasonNoCaptioner     = "image: no vision model configured"
	ReasonBadImage        = "image: unreadable or too large to caption"
	ReasonCaptionFailed   = "image: caption failed"
	ReasonCaptionsStopped = "image: captioning stopped"
)

// Image defaults; see Options.
const (
	DefaultMaxImageSize       = 32 << 20
	DefaultCaptionWorkers     = 2
	DefaultMaxCaptionFailures = 3
)

// imageExts are the extensions captioned as images.
var imageExts = map[string]bool{"jpg": true, "jpeg": true, "png": true, "gif": true, "webp": true, "bmp": true, "tiff": true, "tif": true}

// IsImage reports whether path has the extension of an image ingest
// captions: jpg, jpeg, png, gif, webp, bmp, tiff or tif.
func IsImage(path string) bool { return imageExts[extOf(path)] }

// CaptionKey is the cache key of the caption of an image: the SHA-256 of
// its content (hex) and the captioner's name.
func CaptionKey(contentHash, captioner string) string { return contentHash + "|" + captioner }

// isImage reports whether a file of extension ext is captioned: an image
// extension no Options.Loaders entry claims.
func (in *Ingester) isImage(ext string) bool { return in.images[ext] }

// captioning is the captioner's state during one run: the cache, calls
// made, and whether captioning has stopped.
type captioning struct {
	c        Captioner
	name     string
	cache    CaptionCache
	classify func(error) CaptionFailure
	maxFails int

	mu      sync.Mutex
	flights map[string]*flight // captions being made, by key
	made    map[string]string  // captions made this run, by key (copies need no cache)
	fails   int                // call failures in a row
	stopped error              // why captioning stopped, nil while it goes on
}

// flight is one caption being made; copies of the image wait for it.
type flight struct {
	done    chan struct{}
	caption string
	err     error
}

func (in *Ingester) newCaptioning() *captioning {
	c := in.opts.Captioner
	if c == nil {
		return nil
	}
	classify := in.opts.ClassifyCaptionError
	if classify == nil {
		classify = func(error) CaptionFailure { return CaptionFailed }
	}
	return &captioning{c: c, name: c.Name(), cache: in.opts.CaptionCache, classify: classify,
		maxFails: in.opts.MaxCaptionFailures, flights: map[string]*flight{}, made: map[string]string{}}
}

// errStopped wraps the error that stopped captioning.
type errStopped struct{ err error }

func (e errStopped) Error() string { return "captioning stopped after: " + e.err.Error() }
func (e errStopped) Unwrap() error { return e.err }

// caption returns the caption of an image whose content has the given
// hash: from the cache, from a copy captioned in this run, or from the
// captioner. cached says it did not come from the captioner.
func (cs *captioning) caption(ctx context.Context, path string, data []byte, hash string) (caption string, cached bool, err error) {
	key := CaptionKey(hash, cs.name)
	if cs.cache != nil {
		if s, ok := cs.cache.Get(key); ok && s != "" {
			return s, true, nil
		}
	}
	cs.mu.Lock()
	if s, ok := cs.made[key]; ok {
		cs.mu.Unlock()
		return s, true, nil
	}
	if cs.stopped != nil {
		err := cs.stopped
		cs.mu.Unlock()
		return "", false, errStopped{err}
	}
	if f, ok := cs.flights[key]; ok { // a copy of this image is being captioned
		cs.mu.Unlock()
		select {
		case <-f.done:
		case <-ctx.Done():
			return "", false, ctx.Err()
		}
		return f.caption, f.err == nil, f.err
	}
	f := &flight{done: make(chan struct{})}
	cs.flights[key] = f
	cs.mu.Unlock()
	defer func() {
		cs.mu.Lock()
		delete(cs.flights, key)
		cs.mu.Unlock()
		f.caption, f.err = caption, err
		close(f.done)
	}()

	caption, err = cs.c.Caption(ctx, path, data)
	caption = strings.TrimSpace(caption)
	if err == nil && caption == "" {
		err = fmt.Errorf("caption %s: %s returned an empty caption", filepath.Base(path), cs.name)
	}
	if ctx.Err() != nil {
		return "", false, ctx.Err()
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if err == nil {
		cs.fails = 0
		cs.made[key] = caption
		if cs.cache != nil {
			_ = cs.cache.Put(key, caption) // a cache that cannot be written only costs a caption next time
		}
		return caption, false, nil
	}
	switch cs.classify(err) {
	case CaptionBadImage:
	case CaptionUnavailable:
		if cs.stopped == nil {
			cs.stopped = err
		}
	default:
		if cs.fails++; cs.fails >= cs.maxFails && cs.stopped == nil {
			cs.stopped = fmt.Errorf("%d captions failed in a row, the last: %w", cs.fails, err)
		}
	}
	return "", false, err
}

// skipReason is the reason an image whose caption failed with err is
// skipped.
func (cs *captioning) skipReason(err error) string {
	var st errStopped
	switch {
	case errors.As(err, &st):
		return ReasonCaptionsStopped
	case cs.classify(err) == CaptionBadImage:
		return ReasonBadImage
	default:
		return ReasonCaptionFailed
	}
}

// imageDocument builds the document of a captioned image: its caption and
// its file name, so either finds it.
func (in *Ingester) imageDocument(doc graphrag.Document, caption, model string) graphrag.Record {
	doc.Metadata = map[string]string{"caption_model": model}
	text := caption + "\n\nImage file: " + doc.Title
	return in.record(doc, text)
}

// processImage captions one image read whole, unless it is unchanged.
func (in *Ingester) processImage(ctx context.Context, f file, data []byte, hash string, stored map[string]graphrag.DocState, cs *captioning, emit func(fileResult) bool) bool {
	res := fileResult{path: f.path, final: true}
	id := f.path
	prev, stale := stored[id]
	if stale && prev.Hash == hash {
		res.seen = append(res.seen, id)
		res.unchanged++
		return emit(res)
	}
	skip := func(reason, detail string) bool {
		if stale {
			res.keep = append(res.keep, id) // an older caption beats none
		}
		res.problems = append(res.problems, Problem{Path: f.path, Reason: reason, Detail: detail})
		return emit(res)
	}
	if cs == nil {
		return skip(ReasonNoCaptioner, "")
	}
	caption, cached, err := cs.caption(ctx, f.path, data, hash)
	if err != nil {
		if ctx.Err() != nil {
			return false
		}
		return skip(cs.skipReason(err), errDetail(err))
	}
	res.captioned = !cached
	res.cached = cached
	ext := extOf(f.path)
	doc := graphrag.Document{ID: id, Path: f.path, Title: filepath.Base(f.path), Type: ext, Hash: hash, Size: int64(len(data)), ModTime: f.mod}
	res.seen = append(res.seen, id)
	res.items = append(res.items, item{rec: in.imageDocument(doc, caption, cs.name), updated: stale})
	return emit(res)
}
