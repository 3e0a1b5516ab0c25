package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	)
	cmd := &cobra.Command{
		Use:   "ingest PATH...",
		Short: "Add files, directories or JSONL corpora to the store (incremental)",
		Long: `Read files and directories into the store: text, Markdown, HTML, source code
and PDF, and JSONL corpora with one {"id", "title", "text"} object per line.
With --vision, images (jpg, png, gif, webp, bmp, tiff) are captioned by a
vision model so they are searchable; captions are cached by content in
captions.jsonl beside the store, so no image is captioned twice.

Ingest is incremental: unchanged files are skipped, changed ones replaced, and
files that disappeared from under the given paths removed. Binary, empty,
oversized and unreadable files, hidden directories and symbolic links that
leave a path are skipped and counted with the reason. Ctrl-C stops cleanly
between writes; what was written stays whole, and the next run goes on.`,
		Example: `  graphrag ingest ~/notes ~/Documents/invoices
  graphrag ingest --store team.db corpus.jsonl
  graphrag ingest --embed ollama:nomic-embed-text ~/notes   # with vectors
  graphrag ingest --vision ollama:moondream ~/Pictures      # caption images`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			for _, p := range args {
				if _, err := os.Stat(p); err != nil {
					return fmt.Errorf("ingest %s: %w", p, err)
				}
			}
			emb, err := a.embedder(ctx)
			if err != nil {
				return err
			}
			st, err := a.openStore(ctx, emb, true)
			if err != nil {
				return err
			}
			defer st.Close()
			opts := &ingestOptions{chunkSize: chunkSize, overlap: overlap, progress: !a.quiet}
			closeCaptions, err := a.captioner(ctx, opts)
			if err != nil {
				return err
			}
			defer closeCaptions()
			sum, err := a.ingestInto(ctx, st, emb, args, opts)
			printSummary(cmd.OutOrStdout(), sum, showProblems)
			a.notify(a.imageNotices(sum, opts.captioner != nil)...)
			if err != nil {
				if errors.Is(err, context.Canceled) {
					return fmt.Errorf("ingest interrupted: what was written is whole; run the same command again to finish")
				}
				return err
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&chunkSize, "chunk-size", ingest.DefaultChunkSize, "chunk size in characters")
	cmd.Flags().IntVar(&overlap, "chunk-overlap", ingest.DefaultChunkOverlap, "overlap between chunks in characters")
	cmd.Flags().BoolVar(&showProblems, "problems", false, "list every skipped file and bad line with its reason")
	return cmd
}

type ingestOptions struct {
	chunkSize, overlap int
	progress           bool
	captioner          ingest.Captioner // nil: images are skipped
	captions           ingest.CaptionCache
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
		notes = append(notes, fmt.Sprintf("%d images skipped: pass --vision ollama:moondream (or set GRAPHRAG_VISION) to caption them", n))
	}
	if n := sum.Skipped[ingest.ReasonCaptionsStopped]; n > 0 && captioning {
		why := ""
		for _, p := range sum.Problems {
			if p.Reason == ingest.ReasonCaptionsStopped {
				why = ": " + p.Detail
				break
			}
		}
		notes = append(notes, fmt.Sprintf("captioning stopped%s; %d images not captioned: check the vision model with `graphrag doctor`, then ingest again", why, n))
	}
	return notes
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
		if opts.progress && isTerminal(a.io.err) {
			bar := newIngestBar(a.io.err)
			o.Progress = bar.update
			defer bar.finish()
		}
	}
	checked := &checkedIDs{Store: st}
	sum, err := ingest.New(checked, o).Run(ctx, paths...)
	checked.amend(&sum)
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

func printSummary(out io.Writer, s ingest.Summary, problems bool) {
	files := fmt.Sprintf("%d files", s.Files)
	if s.Files == 1 {
		files = "1 file"
	}
	fmt.Fprintf(out, "%s: %d added, %d updated, %d unchanged, %d deleted; %d chunks written in %s\n",
		files, s.Added, s.Updated, s.Unchanged, s.Deleted, s.Chunks, s.Duration.Round(time.Millisecond))
	if s.Captioned+s.CaptionsCached > 0 {
		fmt.Fprintf(out, "images: %d captioned, %d captions from the cache\n", s.Captioned, s.CaptionsCached)
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
