package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/llm"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func (a *app) ingestCmd() *cobra.Command {
	var (
		chunkSize, overlap int
		showProblems       bool
		keepMissing        bool
	)
	cmd := &cobra.Command{
		Use:   "ingest [PATH...]",
		Short: "Add files, directories or JSONL corpora to the store (incremental); no PATH re-scans the known ones",
		Long: `Read files and directories into the store: text, Markdown, HTML, source code
and PDF, and JSONL corpora with one {"id", "title", "text"} object per line.
With --vision, images (jpg, png, gif, webp, bmp, tiff) are captioned by a
vision model so they are searchable; captions are cached by content in
captions.jsonl beside the store, so no image is captioned twice.

Ingest is incremental: unchanged files are skipped, changed ones replaced, and
files that disappeared from under the given paths removed. A file read with
other --chunk-size or --chunk-overlap values, or by an older graphrag that
read files differently, counts as changed: it is read again. Binary, empty,
oversized and unreadable files, hidden directories and symbolic links that
leave a path are skipped and counted with the reason. Ctrl-C stops cleanly
between writes; what was written stays whole, and the next run goes on.

The store remembers the paths it was given (` + "`graphrag sources`" + ` lists them):
` + "`graphrag ingest`" + ` with no PATH re-scans them all. A remembered folder that no
longer exists is forgotten, with a message, unless --keep-missing.
A folder with no file that can be read exits with status 1.`,
		Example: `  graphrag ingest ~/notes ~/Documents/invoices
  graphrag ingest                                         # re-scan every known folder
  graphrag ingest --store team.db corpus.jsonl
  graphrag ingest --embed ollama:nomic-embed-text ~/notes   # with vectors
  graphrag ingest --vision ollama:moondream ~/Pictures      # caption images`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			out := cmd.OutOrStdout()
			st, emb, plan, err := a.openForIngest(ctx, args, keepMissing, out)
			if err != nil {
				return err
			}
			defer st.Close()
			if len(plan.walk) == 0 {
				return nil // every path given was gone, and is forgotten
			}
			opts := &ingestOptions{chunkSize: chunkSize, overlap: overlap, progress: !a.quiet}
			closeCaptions, err := a.captioner(ctx, opts)
			if err != nil {
				return err
			}
			defer closeCaptions()
			sum, err := a.ingestInto(ctx, st, emb, plan.walk, opts)
			if err == nil && plan.rescan {
				n, perr := pruneOutsideWalk(ctx, st, plan)
				sum.Deleted += n
				err = perr
			}
			indexed := sum.Added + sum.Updated + sum.Unchanged
			if indexed > 0 || sum.Deleted > 0 || plan.rescan {
				plan.record(sum, err == nil, time.Now())
				if serr := saveSources(context.WithoutCancel(ctx), st, plan.rec); serr != nil && err == nil {
					err = serr
				}
			}
			filesDone := -1
			if err != nil {
				filesDone = opts.filesDone
			}
			printSummary(out, sum, showProblems, filesDone)
			a.notify(a.imageNotices(sum, opts.captioner != nil)...)
			if err != nil {
				if errors.Is(err, context.Canceled) {
					return fmt.Errorf("ingest interrupted: what was written is whole; run the same command again to finish")
				}
				return err
			}
			if indexed == 0 && sum.Deleted == 0 {
				return &exitError{code: 1, err: nothingIngested(plan.paths, sum)}
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&chunkSize, "chunk-size", ingest.DefaultChunkSize, "chunk size in characters")
	cmd.Flags().IntVar(&overlap, "chunk-overlap", ingest.DefaultChunkOverlap, "overlap between chunks in characters")
	cmd.Flags().BoolVar(&showProblems, "problems", false, "list every skipped file and bad line with its reason")
	cmd.Flags().BoolVar(&keepMissing, "keep-missing", false, "keep what was ingested from folders that no longer exist (e.g. an unplugged disk) instead of forgetting it")
	return cmd
}

// openForIngest is the set-up ingest and watch share: the configured
// embedder, the store opened for it (created when paths are given), and
// the paths resolved against the store's record of sources
// (planIngest). The caller closes the store.
func (a *app) openForIngest(ctx context.Context, args []string, keepMissing bool, out io.Writer) (store, graphrag.Embedder, *ingestPlan, error) {
	emb, err := a.embedder(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := a.openStore(ctx, emb, len(args) > 0)
	if err != nil {
		return nil, nil, nil, err
	}
	plan, err := a.planIngest(ctx, st, args, keepMissing, out)
	if err != nil {
		st.Close()
		return nil, nil, nil, err
	}
	return st, emb, plan, nil
}

type ingestOptions struct {
	chunkSize, overlap int
	progress           bool
	captioner          ingest.Captioner // nil: images are skipped
	captions           ingest.CaptionCache
	// filesDone is filled by ingestInto: the files finished, for a truthful
	// count when a run is interrupted.
	filesDone int
}

// captioner builds the --vision model into opts, with the caption cache.
// Only a malformed --vision is an error: a model that cannot be used is a
// notice, and the ingest goes on without captions.
func (a *app) captioner(ctx context.Context, opts *ingestOptions) (closeCache func(), err error) {
	closeCache = func() {}
	if a.vision == "" {
		return closeCache, nil
	}
	cfg, _, err := a.llmConfig()
	if err != nil {
		return closeCache, err
	}
	c, err := llm.NewCaptioner(ctx, cfg.Vision, cfg, httpClient())
	if err != nil {
		a.notify(fmt.Sprintf("vision model %s: %v; images are skipped this time (check it with `graphrag doctor`)", a.vision, err))
		return closeCache, nil
	}
	opts.captioner = c
	path := a.captionCachePath()
	cache, err := openCaptionFile(path)
	if err != nil {
		a.notify(fmt.Sprintf("caption cache: %v; images are captioned without it", err))
		return closeCache, nil
	}
	opts.captions = cache
	return func() { cache.Close() }, nil
}

func openCaptionFile(path string) (*ingest.CaptionFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return ingest.OpenCaptionFile(path)
}

// captionCachePath is captions.jsonl beside a SQLite store, or in the data
// directory for PostgreSQL.
func (a *app) captionCachePath() string {
	if isPostgresURL(a.store) {
		return filepath.Join(dataDir(a.getenv), "captions.jsonl")
	}
	return filepath.Join(filepath.Dir(a.store), "captions.jsonl")
}

// classifyCaptionError tells ingest whether a caption error is about the
// image, the call, or a vision model that cannot be reached.
func classifyCaptionError(err error) ingest.CaptionFailure {
	switch {
	case errors.Is(err, llm.ErrBadImage), errors.Is(err, llm.ErrImageTooLarge):
		return ingest.CaptionBadImage
	case errors.Is(err, llm.ErrUnreachable), errors.Is(err, llm.ErrModelMissing):
		return ingest.CaptionUnavailable
	}
	return ingest.CaptionFailed
}

// imageNotices say, once each, why images were not captioned.
func (a *app) imageNotices(sum ingest.Summary, captioning bool) []string {
	var notes []string
	if n := sum.Skipped[ingest.ReasonNoCaptioner]; n > 0 && a.vision == "" {
		notes = append(notes, fmt.Sprintf("%s skipped: pass --vision ollama:moondream (or set GRAPHRAG_VISION) to caption them", plural(n, "image", "images")))
	}
	if n := sum.Skipped[ingest.ReasonCaptionsStopped]; n > 0 && captioning {
		why := ""
		for _, p := range sum.Problems {
			if p.Reason == ingest.ReasonCaptionsStopped {
				why = ": " + p.Detail
				break
			}
		}
		notes = append(notes, fmt.Sprintf("captioning stopped%s; %s not captioned: check the vision model with `graphrag doctor`, then ingest again", why, plural(n, "image", "images")))
	}
	return notes
}

// displayPaths shortens paths for a message.
func displayPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = displayRel(p)
	}
	return out
}

// ingestInto runs an ingest of paths into st, drawing a progress bar on a
// terminal when opts asks for one.
func (a *app) ingestInto(ctx context.Context, st ingest.Store, emb graphrag.Embedder, paths []string, opts *ingestOptions) (ingest.Summary, error) {
	o := ingest.Options{Embedder: emb}
	if opts != nil {
		o.ChunkSize, o.ChunkOverlap = opts.chunkSize, opts.overlap
		if opts.captioner != nil {
			o.Captioner, o.CaptionCache, o.ClassifyCaptionError = opts.captioner, opts.captions, classifyCaptionError
		}
		var bar *ingestBar
		if opts.progress && isTerminal(a.io.err) {
			bar = newIngestBar(a.io.err)
			defer bar.finish()
		}
		o.Progress = func(p ingest.Progress) {
			opts.filesDone = p.FilesDone
			if bar != nil {
				bar.update(p)
			}
		}
	}
	sum, err := ingest.New(st, o).Run(ctx, paths...)
	// Recorded even after a failure: part of what was asked may be stored.
	if rerr := recordIngestedPaths(a.ingestedPathsFile(), paths); rerr != nil && err == nil {
		err = rerr
	}
	return sum, err
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// ingestBar draws ingest progress: a spinner while scanning, then a bar over
// the files found.
type ingestBar struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func newIngestBar(w io.Writer) *ingestBar { return &ingestBar{w: w} }

func (b *ingestBar) update(p ingest.Progress) {
	if b.bar == nil && p.FilesTotal > 0 {
		b.bar = progressbar.NewOptions(p.FilesTotal,
			progressbar.OptionSetWriter(b.w),
			progressbar.OptionSetDescription("ingesting"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetItsString("files"),
			progressbar.OptionShowIts(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	if b.bar != nil {
		if p.FilesTotal > b.bar.GetMax() {
			b.bar.ChangeMax(p.FilesTotal)
		}
		desc := fmt.Sprintf("%s · %d chunks", p.Phase, p.Chunks)
		if p.Captioned > 0 {
			desc += fmt.Sprintf(" · %d images captioned", p.Captioned)
		}
		b.bar.Describe(desc)
		_ = b.bar.Set(p.FilesDone)
	}
}

func (b *ingestBar) finish() {
	if b.bar != nil {
		_ = b.bar.Finish()
	}
}

// printSummary prints what an ingest did; filesDone >= 0 says it was
// interrupted after that many of s.Files.
func printSummary(out io.Writer, s ingest.Summary, problems bool, filesDone int) {
	files := plural(s.Files, "file", "files")
	if filesDone >= 0 {
		files = fmt.Sprintf("stopped after %d of %s", filesDone, files)
	}
	fmt.Fprintf(out, "%s: %d added, %d updated, %d unchanged, %d deleted; %s written in %s\n",
		files, s.Added, s.Updated, s.Unchanged, s.Deleted, plural(s.Chunks, "chunk", "chunks"), s.Duration.Round(time.Millisecond))
	if s.Captioned+s.CaptionsCached > 0 {
		fmt.Fprintf(out, "images: %d captioned, %s from the cache\n", s.Captioned, plural(s.CaptionsCached, "caption", "captions"))
	}
	if len(s.Skipped) > 0 {
		reasons := make([]string, 0, len(s.Skipped))
		for r := range s.Skipped {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		parts := make([]string, len(reasons))
		for i, r := range reasons {
			parts[i] = fmt.Sprintf("%d %s", s.Skipped[r], r)
		}
		fmt.Fprintf(out, "skipped: %s", strings.Join(parts, ", "))
		if !problems && len(s.Problems) > 0 {
			fmt.Fprint(out, " (--problems lists them)")
		}
		fmt.Fprintln(out)
	}
	if problems {
		for _, p := range s.Problems {
			fmt.Fprintln(out, "  "+p.String())
		}
	}
}

// nothingIngested says why an ingest indexed nothing: a folder it could not
// list or that lists no file now (what was stored from it is kept), or no
// supported file under the paths.
func nothingIngested(paths []string, sum ingest.Summary) error {
	var why []string
	for _, p := range sum.Problems {
		if !slices.Contains(paths, p.Path) {
			continue
		}
		switch p.Reason {
		case ingest.ReasonUnreadable:
			why = append(why, fmt.Sprintf("%s cannot be read (%s): what was stored from it is kept", displayRel(p.Path), p.Detail))
		case ingest.ReasonEmptiedFolder:
			why = append(why, fmt.Sprintf("%s lists no file now (an unmounted disk?): what was stored from it is kept; `graphrag forget %s` removes it", displayRel(p.Path), displayRel(p.Path)))
		}
	}
	if len(why) > 0 {
		return fmt.Errorf("nothing ingested: %s", strings.Join(why, "; "))
	}
	return fmt.Errorf("nothing ingested: no supported files under %s (%s found; --problems says why each was skipped)",
		strings.Join(displayPaths(paths), ", "), plural(sum.Files, "file", "files"))
}
