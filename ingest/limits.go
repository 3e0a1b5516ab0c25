package ingest

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Defaults of the per-file parse limits in Options.
const (
	// DefaultMaxTextSize caps the text extracted from one file: the
	// default MaxFileSize, so a text file is never refused for it, while a
	// PDF of 427 KB that expands to hundreds of megabytes of text is.
	DefaultMaxTextSize = 64 << 20
	// DefaultMaxDecompressedSize caps what the compressed streams of one
	// file (a PDF's page contents) may expand to, summed over the file.
	// Content streams carry positioning and drawing operators besides the
	// text they show, so they are several times its size: four times the
	// text cap leaves room for that.
	DefaultMaxDecompressedSize = 4 * DefaultMaxTextSize
	// DefaultParseTimeout bounds the parse of one file. The PDF library
	// reads about 100 pages of text a second here (500 pages of 1,800
	// characters in 3.6 s, on a busy 2-core machine), so a 3,000-page
	// report takes half a minute, and several minutes when the machine is
	// loaded; five minutes leaves room for that, and past it the parser is
	// stuck, not slow. Cancelling the ingest stops a parse at once.
	DefaultParseTimeout = 5 * time.Minute
	// DefaultParseMemory is the memory budget of a parser worker process:
	// the file (at most MaxFileSize), the text it yields (at most
	// MaxTextSize, built up a page at a time) and the parser's objects,
	// with room to spare. Up to Workers of them run at once.
	DefaultParseMemory = 512 << 20
)

// isolatedExts are the formats parsed in a worker process (see
// isolate.go) when their loader is the default one: formats whose parser
// follows references inside the file and decompresses streams, so a
// hostile file can make it loop or expand without end.
var isolatedExts = map[string]bool{"pdf": true}

// errOverLimit: a file went past one of the limits in Options; the file is
// skipped as too large, with the limit in the detail. Errors that wrap it
// are limitErrors, whose message is the detail alone.
var errOverLimit = errors.New("over the limit")

// limitError says which limit a file went past.
type limitError struct{ msg string }

func (e limitError) Error() string        { return e.msg }
func (e limitError) Is(target error) bool { return target == errOverLimit }

// overLimit is an error wrapping errOverLimit with msg as its message.
func overLimit(msg string) error { return limitError{msg} }

// errParseTimeout: the parse of one file did not finish in
// Options.ParseTimeout and was stopped.
var errParseTimeout = errors.New("parse stopped")

// parseLimits are the limits of one file's parse.
type parseLimits struct {
	MaxText         int64         `json:"max_text"`
	MaxDecompressed int64         `json:"max_decompressed"`
	Memory          int64         `json:"memory"`
	Timeout         time.Duration `json:"timeout"`
}

func (in *Ingester) parseLimits() parseLimits {
	return parseLimits{
		MaxText:         in.opts.MaxTextSize,
		MaxDecompressed: in.opts.MaxDecompressedSize,
		Memory:          in.opts.ParseMemory,
		Timeout:         in.opts.ParseTimeout,
	}
}

// load runs the loader for ext on one file within the parse limits: a
// format of isolatedExts whose loader is the default one in a worker
// process, any other in this one with the deadline in its context. Text
// over MaxTextSize is an error wrapping errOverLimit.
func (in *Ingester) load(ctx context.Context, ext string, loader Loader, path string, data []byte) (Loaded, error) {
	lim := in.parseLimits()
	var l Loaded
	var err error
	if in.isolated[ext] {
		l, err = parseIsolated(ctx, ext, path, data, lim, in.opts.ParseInProcess)
	} else {
		pctx, cancel := context.WithTimeout(ctx, lim.Timeout)
		l, err = loader(pctx, path, data)
		if err != nil && ctx.Err() == nil && errors.Is(pctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("%w: not done within %s", errParseTimeout, lim.Timeout)
		}
		cancel()
	}
	if err == nil && int64(len(l.Text)) > lim.MaxText {
		return Loaded{}, textTooLarge(lim.MaxText)
	}
	return l, err
}

func textTooLarge(limit int64) error {
	return overLimit(fmt.Sprintf("over %s of text extracted (MaxTextSize)", sizeText(limit)))
}
