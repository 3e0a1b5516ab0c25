package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/ingest"
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

Ingest is incremental: unchanged files are skipped, changed ones replaced, and
files that disappeared from under the given paths removed. Binary, empty,
oversized and unreadable files, hidden directories and symbolic links that
leave a path are skipped and counted with the reason. Ctrl-C stops cleanly
between writes; what was written stays whole, and the next run goes on.`,
		Example: `  graphrag ingest ~/notes ~/Documents/invoices
  graphrag ingest --store team.db corpus.jsonl
  graphrag ingest --embed ollama:nomic-embed-text ~/notes   # with vectors`,
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
			sum, err := a.ingestInto(ctx, st, emb, args, &ingestOptions{chunkSize: chunkSize, overlap: overlap, progress: !a.quiet})
			printSummary(cmd.OutOrStdout(), sum, showProblems)
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
}

// ingestInto runs an ingest of paths into st, drawing a progress bar on a
// terminal when opts asks for one.
func (a *app) ingestInto(ctx context.Context, st ingest.Store, emb graphrag.Embedder, paths []string, opts *ingestOptions) (ingest.Summary, error) {
	o := ingest.Options{Embedder: emb}
	if opts != nil {
		o.ChunkSize, o.ChunkOverlap = opts.chunkSize, opts.overlap
		if opts.progress && isTerminal(a.io.err) {
			bar := newIngestBar(a.io.err)
			o.Progress = bar.update
			defer bar.finish()
		}
	}
	return ingest.New(st, o).Run(ctx, paths...)
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
		b.bar.Describe(fmt.Sprintf("%s · %d chunks", p.Phase, p.Chunks))
		_ = b.bar.Set(p.FilesDone)
	}
}

func (b *ingestBar) finish() {
	if b.bar != nil {
		_ = b.bar.Finish()
	}
}

func printSummary(out io.Writer, s ingest.Summary, problems bool) {
	fmt.Fprintf(out, "%d files: %d added, %d updated, %d unchanged, %d deleted; %d chunks written in %s\n",
		s.Files, s.Added, s.Updated, s.Unchanged, s.Deleted, s.Chunks, s.Duration.Round(time.Millisecond))
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
