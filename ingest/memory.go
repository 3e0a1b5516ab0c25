package ingest

import (
	"context"
	"strings"
	"unicode/utf8"

	"golang.org/x/sync/semaphore"
)

// chunkSection is the most text Chunk is given at once. Chunk works on the
// runes of a paragraph and copies it a few times over, about seven bytes
// of heap per byte of text at its peak (BenchmarkIngestLargeFilePeakHeap
// before sections): a 50 MB log, one paragraph to it, peaked near 1 GB.
// Cut into sections of 1 MiB the peak of chunking is a few MiB whatever
// the file's size; a chunk never spans two sections, so a large file gets
// a chunk boundary (without overlap) every MiB, where it would have had
// one nearby anyway.
const chunkSection = 1 << 20

// chunkLarge is Chunk on text of any size within a bounded heap: text over
// chunkSection is chunked a section at a time, each cut at a blank line,
// else a line end, else a space, else between two runes.
func chunkLarge(text string, size, overlap int) []string {
	if len(text) <= chunkSection {
		return Chunk(text, size, overlap)
	}
	var out []string
	for len(text) > 0 {
		cut := len(text)
		if cut > chunkSection {
			cut = sectionEnd(text[:chunkSection])
		}
		out = append(out, Chunk(text[:cut], size, overlap)...)
		text = text[cut:]
	}
	return out
}

// sectionEnd is where to end a section that must fit in s: after its last
// blank line, line end or space, or at its last rune start.
func sectionEnd(s string) int {
	for _, sep := range []string{"\n\n", "\n", " "} {
		if i := strings.LastIndex(s, sep); i > len(s)/2 {
			return i + len(sep)
		}
	}
	cut := len(s)
	for cut > 1 && !utf8.RuneStart(s[cut-1]) {
		cut--
	}
	if cut > 1 {
		cut-- // s[cut-1] starts a rune that may be cut short: end before it
	}
	return cut
}

// DefaultMaxBytesInFlight bounds the bytes of files read and not yet
// written, across all workers (Options.MaxBytesInFlight): the default
// MaxFileSize, so one file of the largest size is ingested alone and
// smaller ones in parallel up to that sum.
const DefaultMaxBytesInFlight = 64 << 20

// inFlight is the shared budget of bytes read and not yet written.
type inFlight struct {
	sem *semaphore.Weighted
	max int64
}

func newInFlight(max int64) *inFlight {
	return &inFlight{sem: semaphore.NewWeighted(max), max: max}
}

// acquire takes a file's size from the budget, waiting while other files
// hold it; a file over the whole budget takes all of it. It returns the
// release function, or an error when ctx ends first.
func (b *inFlight) acquire(ctx context.Context, size int64) (func(), error) {
	w := min(max(size, 1), b.max)
	if err := b.sem.Acquire(ctx, w); err != nil {
		return nil, err
	}
	return func() { b.sem.Release(w) }, nil
}
