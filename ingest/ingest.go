package ingest

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
	"golang.org/x/sync/errgroup"
)

// Store is what ingestion writes to: a subset of the graphrag stores'
// method set.
type Store interface {
	Put(ctx context.Context, recs ...graphrag.Record) error
	Delete(ctx context.Context, ids ...string) error
	Manifest(ctx context.Context) ([]graphrag.DocState, error)
}

// Options configure an Ingester. The zero value is usable.
type Options struct {
	// Embedder, when set, embeds chunks in batches before they are stored.
	// Leave it nil for a keyword-only store, or when the store embeds.
	Embedder graphrag.Embedder
	// ChunkSize and ChunkOverlap are in characters; 0 means
	// DefaultChunkSize and DefaultChunkOverlap (see Chunk).
	ChunkSize, ChunkOverlap int
	// BatchSize is the number of chunks per store write (and embedding
	// call); 0 means 512. Documents are never split across writes.
	BatchSize int
	// Workers bounds the files read and parsed at once; 0 means GOMAXPROCS.
	Workers int
	// MaxBytesInFlight bounds the bytes of files read and not yet written,
	// summed over the workers; 0 means DefaultMaxBytesInFlight. A file
	// larger than it is ingested alone. JSONL corpora stream and do not
	// count.
	MaxBytesInFlight int64
	// MaxFileSize skips larger files; 0 means 64 MiB.
	MaxFileSize int64
	// MaxTextSize skips a file that yields more text (a PDF whose pages
	// expand to hundreds of megabytes); 0 means DefaultMaxTextSize.
	MaxTextSize int64
	// MaxDecompressedSize skips a file whose compressed streams (a PDF's
	// page contents) expand to more, summed over the file; 0 means
	// DefaultMaxDecompressedSize.
	MaxDecompressedSize int64
	// ParseTimeout bounds the parse of one file; 0 means
	// DefaultParseTimeout. A file not parsed in time is skipped.
	ParseTimeout time.Duration
	// ParseMemory is the memory budget of a parser worker process (see
	// ParseInProcess); 0 means DefaultParseMemory.
	ParseMemory int64
	// ParseInProcess parses PDFs in this process instead of a worker
	// process (the running binary started again). A worker can be stopped
	// at the deadline and held to ParseMemory; a parse in this process that
	// never returns (a hostile PDF) can only be abandoned, and goes on
	// using a CPU until the process exits.
	ParseInProcess bool
	// Progress, when set, is called from one goroutine at a time as files
	// are done and batches written (a CLI draws a progress bar from it).
	Progress func(Progress)
	// Loaders add to or replace DefaultLoaders by lower-case extension
	// without the dot; a nil Loader removes one. An entry for an image
	// extension, nil or not, takes it away from the Captioner.
	Loaders map[string]Loader

	// Captioner, when set, describes images (jpg, jpeg, png, gif, webp,
	// bmp, tiff) so they are stored as documents whose text is the
	// caption and the file name. Without one, images are skipped under
	// ReasonNoCaptioner.
	Captioner Captioner
	// CaptionCache, when set, keeps captions by content and captioner
	// (CaptionKey), so an image is never captioned twice: not when it is
	// ingested again, moved, copied, or ingested into another store.
	CaptionCache CaptionCache
	// CaptionWorkers bounds the images captioned at once, apart from
	// Workers (a vision model on a CPU takes seconds per image); 0 means
	// DefaultCaptionWorkers.
	CaptionWorkers int
	// MaxImageSize skips larger images unread; 0 means
	// DefaultMaxImageSize (32 MiB). MaxFileSize applies too.
	MaxImageSize int64
	// ClassifyCaptionError says what a caption error means (see
	// CaptionFailure); nil treats every error as CaptionFailed. A failed
	// caption skips its image, never the run.
	ClassifyCaptionError func(error) CaptionFailure
	// MaxCaptionFailures is how many CaptionFailed errors in a row stop
	// captioning for the rest of the run (the remaining images are
	// skipped under ReasonCaptionsStopped); 0 means
	// DefaultMaxCaptionFailures.
	MaxCaptionFailures int
}

// Progress is a snapshot of a running ingest.
type Progress struct {
	// Phase is "scanning", "ingesting", "deleting" or "done".
	Phase      string
	FilesTotal int
	FilesDone  int
	// Documents and Chunks written so far.
	Documents, Chunks int
	// Path is the file just finished, if any.
	Path string
	// Captioned is the number of images captioned by the Captioner so
	// far (cache hits not included).
	Captioned int
}

// Problem is a skipped file or JSONL line, with why.
type Problem struct {
	Path string
	// Line is the 1-based line of a JSONL corpus, 0 for a whole file.
	Line   int
	Reason string // one of the Reason constants
	Detail string
}

func (p Problem) String() string {
	loc := p.Path
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", p.Path, p.Line)
	}
	if p.Detail != "" {
		return fmt.Sprintf("%s: %s (%s)", loc, p.Reason, p.Detail)
	}
	return loc + ": " + p.Reason
}

// Summary says what a Run did. Added, Updated, Unchanged and Deleted count
// documents: a file, or one row of a JSONL corpus.
type Summary struct {
	// Files is every file met under the paths, skipped ones included.
	Files                              int
	Added, Updated, Unchanged, Deleted int
	// Skipped counts skipped files by reason, and bad JSONL lines under
	// ReasonBadLine.
	Skipped map[string]int
	// Problems lists each skipped file and bad line, sorted by path and line.
	Problems []Problem
	// Chunks is the number of chunks written.
	Chunks int
	// Captioned counts the images the Captioner described this run;
	// CaptionsCached those whose caption came from the CaptionCache (or a
	// copy of the image captioned in the same run).
	Captioned, CaptionsCached int
	Duration                  time.Duration
}

// Ingester walks files into a store.
type Ingester struct {
	store   Store
	opts    Options
	loaders map[string]Loader
	images  map[string]bool // extensions captioned as images
	// isolated are the extensions parsed in a worker process (isolate.go).
	isolated map[string]bool
}

// extractVersion numbers the way graphrag reads a file into chunks (its
// loaders, section splitting and chunker). Raise it with any change that
// alters what is stored for an unchanged file: the next ingest then reads
// every file again instead of keeping what an older graphrag made of it.
const extractVersion = 9

// stamp is the hash stored for a document: its content's hash, with the
// extraction version and the chunk settings it was read with. A file is
// unchanged only when all of them are: ingesting again with another
// --chunk-size re-chunks every file.
func (in *Ingester) stamp(contentHash string) string {
	return fmt.Sprintf("%s+x%d.c%d.o%d", contentHash, extractVersion, in.opts.ChunkSize, in.opts.ChunkOverlap)
}

// New returns an Ingester writing to store.
func New(store Store, opts Options) *Ingester {
	if opts.ChunkSize <= 0 {
		opts.ChunkSize = DefaultChunkSize
	}
	if opts.ChunkOverlap == 0 {
		opts.ChunkOverlap = DefaultChunkOverlap
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = 512
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = 64 << 20
	}
	if opts.MaxBytesInFlight <= 0 {
		opts.MaxBytesInFlight = DefaultMaxBytesInFlight
	}
	if opts.MaxTextSize <= 0 {
		opts.MaxTextSize = DefaultMaxTextSize
	}
	if opts.MaxDecompressedSize <= 0 {
		opts.MaxDecompressedSize = DefaultMaxDecompressedSize
	}
	if opts.ParseTimeout <= 0 {
		opts.ParseTimeout = DefaultParseTimeout
	}
	if opts.ParseMemory <= 0 {
		opts.ParseMemory = DefaultParseMemory
	}
	if opts.MaxImageSize <= 0 {
		opts.MaxImageSize = DefaultMaxImageSize
	}
	if opts.CaptionWorkers <= 0 {
		opts.CaptionWorkers = DefaultCaptionWorkers
	}
	if opts.MaxCaptionFailures <= 0 {
		opts.MaxCaptionFailures = DefaultMaxCaptionFailures
	}
	loaders := DefaultLoaders()
	isolated := map[string]bool{}
	for ext := range isolatedExts {
		isolated[ext] = true
	}
	images := map[string]bool{}
	for ext := range imageExts {
		images[ext] = true
	}
	for ext, l := range opts.Loaders {
		ext = strings.ToLower(strings.TrimPrefix(ext, "."))
		delete(images, ext)
		delete(isolated, ext) // a loader of the caller's runs in this process
		if l == nil {
			delete(loaders, ext)
		} else {
			loaders[ext] = l
		}
	}
	return &Ingester{store: store, opts: opts, loaders: loaders, images: images, isolated: isolated}
}

// item is one document ready to be written.
type item struct {
	rec     graphrag.Record
	updated bool // replaces a stored document
	line    int  // JSONL line, 0 for a file
}

// fileResult is what processing one file produced; a large JSONL corpus
// comes in several parts, the last one final.
type fileResult struct {
	path      string
	final     bool
	items     []item
	unchanged int
	seen      []string // document ids present now
	keep      []string // ids not to delete although unseen (unreadable file)
	// keepPath: the file could not be read whole, so no document stored
	// from it may be taken for deleted (a read error is never a deletion).
	keepPath  bool
	problems  []Problem
	captioned bool // an image the Captioner described
	cached    bool // an image whose caption came from the cache
	// release gives the file's bytes back to the in-flight budget once the
	// writer is done with the result (set on a final result only).
	release func()
}

// Run ingests the files and directories at paths: new documents are added,
// changed ones replaced, unchanged ones skipped, and documents that came
// from under these paths but are gone now are deleted. A cancelled ctx
// stops it between store writes; every write is whole documents, so what
// was written stays consistent, and no deletion happens. The Summary counts
// what was done, also when an error is returned.
func (in *Ingester) Run(ctx context.Context, paths ...string) (sum Summary, err error) {
	start := time.Now()
	sum.Skipped = map[string]int{}
	defer func() {
		sort.SliceStable(sum.Problems, func(i, j int) bool {
			a, b := sum.Problems[i], sum.Problems[j]
			if a.Path != b.Path {
				return a.Path < b.Path
			}
			return a.Line < b.Line
		})
		sum.Duration = time.Since(start)
	}()
	if len(paths) == 0 {
		return sum, errors.New("ingest: no paths given")
	}
	roots, err := resolveRoots(paths)
	if err != nil {
		return sum, err
	}
	in.progress(Progress{Phase: "scanning"})
	files, skipped := walk(roots, in.sizeLimit)
	sum.Files = len(files) + len(skipped)
	var unreadable []root // what is stored from under these stays
	for _, p := range skipped {
		sum.Skipped[p.Reason]++
		sum.Problems = append(sum.Problems, p)
		if p.Reason == ReasonUnreadable {
			unreadable = append(unreadable, root{path: p.Path, isDir: true})
		}
	}
	manifest, err := in.store.Manifest(ctx)
	if err != nil {
		return sum, fmt.Errorf("ingest: read the store's manifest: %w", err)
	}
	stored := make(map[string]graphrag.DocState, len(manifest))
	for _, d := range manifest {
		stored[d.ID] = d
	}
	for _, r := range emptiedRoots(roots, files, skipped, manifest) {
		sum.Skipped[ReasonEmptiedFolder]++
		sum.Problems = append(sum.Problems, Problem{Path: r.path, Reason: ReasonEmptiedFolder, Detail: "held stored documents, now lists no file: kept them (an unmounted disk?); forget the folder to remove them"})
		unreadable = append(unreadable, r)
	}

	// Workers read and chunk files; this goroutine writes, in batches.
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	g, gctx := errgroup.WithContext(wctx)
	// Images to caption have workers of their own, fewer: a caption takes
	// seconds, and text files should not wait behind them.
	cs := in.newCaptioning()
	results := make(chan fileResult, in.opts.Workers)
	next := make(chan file)
	images := next
	if cs != nil {
		images = make(chan file)
	}
	g.Go(func() error {
		defer close(next)
		if images != next {
			defer close(images)
		}
		for _, f := range files {
			to := next
			if in.isImage(extOf(f.path)) {
				to = images
			}
			select {
			case to <- f:
			case <-gctx.Done():
				return nil
			}
		}
		return nil
	})
	var wg sync.WaitGroup
	budget := newInFlight(in.opts.MaxBytesInFlight)
	work := func(from <-chan file) func() error {
		return func() error {
			defer wg.Done()
			for f := range from {
				release := func() {}
				if !isCorpusExt(extOf(f.path)) { // a corpus streams in parts
					var err error
					if release, err = budget.acquire(gctx, f.size); err != nil {
						return nil
					}
				}
				handed := false // the writer releases the budget
				emit := func(r fileResult) bool {
					if r.final {
						r.release = release
					}
					select {
					case results <- r:
						handed = handed || r.final
						return true
					case <-gctx.Done():
						return false
					}
				}
				ok := in.process(gctx, f, stored, cs, emit)
				if !handed {
					release()
				}
				if !ok {
					return nil
				}
			}
			return nil
		}
	}
	for range in.opts.Workers {
		wg.Add(1)
		g.Go(work(next))
	}
	if images != next {
		for range in.opts.CaptionWorkers {
			wg.Add(1)
			g.Go(work(images))
		}
	}
	go func() { wg.Wait(); close(results) }()

	seen := map[string]bool{}
	owner := map[string]string{} // document id -> the file it came from this run
	keep := map[string]bool{}
	keepPath := map[string]bool{}
	var batch []item
	batchChunks := 0
	done := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		recs := make([]graphrag.Record, len(batch))
		for i, it := range batch {
			recs[i] = it.rec
		}
		if err := in.embed(ctx, recs); err != nil {
			return err
		}
		if err := in.store.Put(ctx, recs...); err != nil {
			return fmt.Errorf("write %d documents: %w", len(recs), err)
		}
		for _, it := range batch {
			if it.updated {
				sum.Updated++
			} else {
				sum.Added++
			}
			sum.Chunks += len(it.rec.Chunks)
		}
		batch, batchChunks = nil, 0
		return nil
	}
	var werr error
	for r := range results {
		if werr != nil {
			if r.release != nil {
				r.release()
			}
			continue // drain
		}
		if r.final {
			done++
		}
		dup := map[string]bool{}
		for _, id := range r.seen {
			if p, ok := owner[id]; ok && p != r.path {
				dup[id] = true
				continue
			}
			owner[id] = r.path
			seen[id] = true
		}
		for _, id := range r.keep {
			keep[id] = true
		}
		if r.keepPath {
			keepPath[r.path] = true
		}
		sum.Unchanged += r.unchanged
		if r.captioned {
			sum.Captioned++
		}
		if r.cached {
			sum.CaptionsCached++
		}
		for _, p := range r.problems {
			sum.Skipped[p.Reason]++
			sum.Problems = append(sum.Problems, p)
		}
		for _, it := range r.items {
			if id := it.rec.Doc.ID; dup[id] {
				sum.Skipped[ReasonDuplicateID]++
				sum.Problems = append(sum.Problems, Problem{Path: r.path, Line: it.line, Reason: ReasonDuplicateID, Detail: "id " + strconv.Quote(id) + " also comes from " + owner[id]})
				continue
			}
			if err := graphrag.CheckDocID(it.rec.Doc.ID); err != nil {
				// One such id would make a store refuse the whole batch, on
				// every run: skip the document, write the rest.
				sum.Skipped[ReasonInvalidID]++
				sum.Problems = append(sum.Problems, Problem{Path: strings.ToValidUTF8(strings.ReplaceAll(r.path, "\x00", ""), "\uFFFD"), Line: it.line, Reason: ReasonInvalidID, Detail: err.Error()})
				continue
			}
			batch = append(batch, it)
			batchChunks += len(it.rec.Chunks)
			if batchChunks >= in.opts.BatchSize {
				if werr = flush(); werr != nil {
					stop() // the workers' output is no longer wanted
					break
				}
			}
		}
		if r.release != nil {
			r.release() // written, or waiting in a batch of at most BatchSize chunks
		}
		in.progress(Progress{Phase: "ingesting", FilesTotal: len(files), FilesDone: done, Documents: sum.Added + sum.Updated, Chunks: sum.Chunks, Path: r.path, Captioned: sum.Captioned})
	}
	if gerr := g.Wait(); werr == nil {
		werr = gerr
	}
	if werr == nil {
		werr = ctx.Err()
	}
	if werr == nil {
		werr = flush()
	}
	if werr != nil {
		return sum, fmt.Errorf("ingest stopped: %w", werr)
	}

	in.progress(Progress{Phase: "deleting", FilesTotal: len(files), FilesDone: done, Documents: sum.Added + sum.Updated, Chunks: sum.Chunks, Captioned: sum.Captioned})
	var gone []string
	for _, d := range manifest {
		if !seen[d.ID] && !keep[d.ID] && !keepPath[d.Path] && underAny(d.Path, roots) && !underAny(d.Path, unreadable) {
			gone = append(gone, d.ID)
		}
	}
	for i := 0; i < len(gone); i += 500 {
		part := gone[i:min(i+500, len(gone))]
		if err := in.store.Delete(ctx, part...); err != nil {
			return sum, fmt.Errorf("ingest: delete %d documents that are gone: %w", len(part), err)
		}
		sum.Deleted += len(part)
	}
	in.progress(Progress{Phase: "done", FilesTotal: len(files), FilesDone: done, Documents: sum.Added + sum.Updated, Chunks: sum.Chunks, Captioned: sum.Captioned})
	return sum, nil
}

func (in *Ingester) progress(p Progress) {
	if in.opts.Progress != nil {
		in.opts.Progress(p)
	}
}

// embed fills in missing chunk embeddings with the configured embedder.
func (in *Ingester) embed(ctx context.Context, recs []graphrag.Record) error {
	e := in.opts.Embedder
	if e == nil {
		return nil
	}
	var texts []string
	var refs [][2]int
	for i, r := range recs {
		for j, c := range r.Chunks {
			if c.Embedding == nil {
				texts = append(texts, c.Text)
				refs = append(refs, [2]int{i, j})
			}
		}
	}
	if len(texts) == 0 {
		return nil
	}
	vecs, err := e.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("embed %d chunks with %s: %w", len(texts), e.Name(), err)
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("embedder %s returned %d vectors for %d texts", e.Name(), len(vecs), len(texts))
	}
	for k, rf := range refs {
		recs[rf[0]].Chunks[rf[1]].Embedding = vecs[k]
	}
	return nil
}

// corpusPart is how many new rows of a JSONL corpus go to the writer at
// a time, so a corpus of any size streams through bounded memory.
const corpusPart = 256

// corpusPartBytes also ends a part: rows may each be up to maxCorpusLine
// long, and 256 of those would not be bounded memory. (A variable for
// tests only.)
var corpusPartBytes = 8 << 20

// process reads one file and emits its documents to write; false means
// the run is over.
func (in *Ingester) process(ctx context.Context, f file, stored map[string]graphrag.DocState, cs *captioning, emit func(fileResult) bool) bool {
	res := fileResult{path: f.path, final: true}
	skip := func(reason, detail string) bool {
		res.problems = append(res.problems, Problem{Path: f.path, Reason: reason, Detail: detail})
		return emit(res)
	}
	if ctx.Err() != nil {
		return false
	}
	fh, err := openRegular(f.path)
	switch {
	case errors.Is(err, errNotRegular):
		return skip(ReasonNotRegular, errDetail(err))
	case err != nil:
		res.keepPath = true // maybe a passing problem: keep what is stored
		return skip(ReasonUnreadable, errDetail(err))
	}
	defer fh.Close()
	ext := extOf(f.path)
	if isCorpusExt(ext) {
		return in.processCorpus(ctx, f, fh, stored, emit)
	}
	limit := in.sizeLimit(f.path)
	data, err := readAll(fh, limit)
	switch {
	case errors.Is(err, errTooLarge):
		return skip(ReasonTooLarge, fmt.Sprintf("over %d bytes", limit))
	case err != nil:
		res.keepPath = true
		return skip(ReasonUnreadable, errDetail(err))
	case len(data) == 0:
		return skip(ReasonEmpty, "")
	}
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	if in.isImage(ext) {
		return in.processImage(ctx, f, data, hash, stored, cs, emit)
	}
	id := f.path
	hash = in.stamp(hash)
	if prev, ok := stored[id]; ok && prev.Hash == hash {
		res.seen = append(res.seen, id)
		res.unchanged++
		return emit(res)
	}
	name := f.path
	if isGzip(data) {
		// A gzip file is read as the file it holds (NEWS.gz, pg_dump.1.gz).
		inner, err := gunzip(data, in.opts.MaxFileSize)
		switch {
		case errors.Is(err, errBomb):
			return skip(ReasonTooLarge, fmt.Sprintf("decompresses to over %d bytes", in.opts.MaxFileSize))
		case err != nil:
			return skip(ReasonParseFailed, errDetail(err))
		}
		data, name = inner, strings.TrimSuffix(name, filepath.Ext(name))
		if ext == "tgz" {
			name += ".tar"
		}
		ext = extOf(name)
	}
	if !containerExts[ext] {
		switch kind, archive := containerKind(data); {
		case archive:
			return skip(ReasonArchive, kind)
		case kind != "":
			return skip(ReasonCompressed, kind)
		}
	}
	loader := in.loaders[ext]
	if loader == nil && manExt.MatchString(ext) {
		loader = loadMan
	}
	if loader == nil {
		loader = loadText // unknown extension: text if it looks like text
	}
	l, err := in.load(ctx, ext, loader, name, data)
	size := int64(len(data))
	data = nil // the text is a copy: let the file's bytes go before chunking
	switch {
	case ctx.Err() != nil:
		return false
	case errors.Is(err, ErrNotText):
		return skip(ReasonBinary, "")
	case errors.Is(err, errOverLimit):
		return skip(ReasonTooLarge, err.Error())
	case errors.Is(err, errContainerTooLarge):
		return skip(ReasonTooLarge, errDetail(err))
	case errors.Is(err, errParseTimeout):
		res.keepPath = true // a busy machine may parse it next time: keep what is stored
		return skip(ReasonParseFailed, err.Error())
	case err != nil:
		return skip(ReasonParseFailed, errDetail(err))
	case strings.TrimSpace(l.Text) == "":
		return skip(ReasonNoText, "")
	}
	title := l.Title
	if title == "" {
		title = filepath.Base(f.path)
	}
	typ := ext
	switch {
	case l.Type != "":
		typ = l.Type
	case typ == "":
		typ = "txt"
	}
	_, stale := stored[id]
	doc := graphrag.Document{ID: id, Path: f.path, Title: title, Type: typ, Hash: hash, Size: size, ModTime: f.mod,
		Metadata: fileMetadata(f, l)}
	res.seen = append(res.seen, id)
	res.items = append(res.items, item{rec: in.recordSections(doc, name, ext, l), updated: stale})
	return emit(res)
}

// processCorpus streams a JSONL corpus to the writer in parts.
func (in *Ingester) processCorpus(ctx context.Context, f file, r io.Reader, stored map[string]graphrag.DocState, emit func(fileResult) bool) bool {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(8192)
	res := fileResult{path: f.path}
	switch {
	case len(head) == 0 && err != nil && err != io.EOF:
		res.final = true
		res.keepPath = true
		res.problems = append(res.problems, Problem{Path: f.path, Reason: ReasonUnreadable, Detail: errDetail(err)})
		return emit(res)
	case len(head) == 0:
		res.final = true
		res.problems = append(res.problems, Problem{Path: f.path, Reason: ReasonEmpty})
		return emit(res)
	case !text.IsTextSample(head, err == nil):
		res.final = true
		res.problems = append(res.problems, Problem{Path: f.path, Reason: ReasonBinary})
		return emit(res)
	}
	ok := true
	partBytes := 0
	read := parseCorpus(f.path, br, func(row corpusRow) bool {
		if ctx.Err() != nil {
			ok = false
			return false
		}
		id := graphrag.RowDocID(f.path, row.id)
		res.seen = append(res.seen, id)
		prev, stale := stored[id]
		row.hash = in.stamp(row.hash)
		if stale && prev.Hash == row.hash && prev.Path == f.path {
			res.unchanged++
		} else {
			title := row.title
			if title == "" {
				title = row.id
			}
			doc := graphrag.Document{ID: id, Path: f.path, Title: title, Type: "jsonl", Hash: row.hash,
				Size: int64(len(row.text)), ModTime: f.mod, Metadata: row.meta}
			res.items = append(res.items, item{rec: in.record(doc, row.text), updated: stale, line: row.line})
			partBytes += len(row.text)
		}
		if len(res.items) >= corpusPart || len(res.seen) >= 16*corpusPart || partBytes >= corpusPartBytes {
			partBytes = 0
			if ok = emit(res); !ok {
				return false
			}
			res = fileResult{path: f.path}
		}
		return true
	}, func(p Problem) { res.problems = append(res.problems, p) })
	if !ok {
		return false
	}
	res.final = true
	// Rows of lines that could not be read stay stored: a bad or unreadable
	// line is reported, never turned into a deletion.
	for _, id := range read.badIDs {
		res.keep = append(res.keep, graphrag.RowDocID(f.path, id))
	}
	res.keepPath = read.unknown > 0 || read.err != nil
	return emit(res)
}

// fileMetadata is a file's document metadata: what the loader found, and
// the file's role in a source tree (RoleKey) from its path.
func fileMetadata(f file, l Loaded) map[string]string {
	var m map[string]string
	if len(l.Metadata) > 0 {
		m = make(map[string]string, len(l.Metadata)+1)
		for k, v := range l.Metadata {
			m[k] = v
		}
	}
	if r := roleOf(f.rel); r != "" {
		if m == nil {
			m = map[string]string{}
		}
		m[RoleKey] = r
	}
	return m
}

// recordSections cuts a loaded file into chunks by its sections: those the
// loader found, else those of its type (declarations of code, text under
// headings, or the whole text).
func (in *Ingester) recordSections(doc graphrag.Document, name, ext string, l Loaded) graphrag.Record {
	secs := l.Sections
	changelog := false
	if secs == nil {
		changelog = isDebianChangelog(l.Text)
		var meta map[string]string
		secs, meta = sectionsOf(name, ext, l.Text, in.opts.ChunkSize)
		for k, v := range meta {
			if doc.Metadata == nil {
				doc.Metadata = map[string]string{}
			}
			if _, set := doc.Metadata[k]; !set {
				doc.Metadata[k] = v
			}
		}
	}
	chunks := chunkSections(doc.ID, secs, in.opts.ChunkSize, in.opts.ChunkOverlap)
	if changelog {
		headChangelogChunks(l.Text, chunks)
	}
	return graphrag.Record{Doc: doc, Chunks: chunks}
}

func (in *Ingester) record(doc graphrag.Document, text string) graphrag.Record {
	r := graphrag.Record{Doc: doc}
	for i, c := range chunkLarge(text, in.opts.ChunkSize, in.opts.ChunkOverlap) {
		r.Chunks = append(r.Chunks, graphrag.Chunk{ID: graphrag.ChunkID(doc.ID, i), DocID: doc.ID, Ordinal: i, Text: c})
	}
	return r
}

// sizeLimit is the largest file at path that is read; 0 means no limit
// (a JSONL corpus streams).
func (in *Ingester) sizeLimit(path string) int64 {
	switch ext := extOf(path); {
	case isCorpusExt(ext):
		return 0
	case in.isImage(ext):
		return min(in.opts.MaxImageSize, in.opts.MaxFileSize)
	}
	return in.opts.MaxFileSize
}

// errDetail is an error's message without the path it repeats.
func errDetail(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// extOf is the lower-case extension without the dot; for extension-less
// build files (Makefile, Dockerfile) the lower-case name.
func extOf(path string) string {
	base := filepath.Base(path)
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(base), "."))
	if ext == "" {
		switch b := strings.ToLower(base); b {
		case "makefile", "dockerfile":
			return b
		}
	}
	return ext
}
