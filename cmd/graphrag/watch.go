package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/graphrag/graphrag"
	"github.com/spf13/cobra"
)

// watchDebounce is how long watch waits after the last change before it
// ingests: long enough to take an editor's save (write a temporary file,
// rename it over the old one, set its mode: a few events within
// milliseconds) or a `git checkout` as one batch, short enough that the
// store follows before the user has switched windows.
const watchDebounce = 300 * time.Millisecond

func (a *app) watchCmd() *cobra.Command {
	var (
		keepMissing bool
		debounce    time.Duration
		chunkSize   int
		overlap     int
	)
	cmd := &cobra.Command{
		Use:   "watch [PATH...]",
		Short: "Keep the store current as files change: ingest, then follow edits, renames and deletions",
		Long: `Ingest the given paths (or, with none, every folder the store knows), then
watch them and ingest what changes: new and edited files are added, deleted
and renamed-away ones removed. Changes are gathered for --debounce after the
last one, so an editor's save (write a temporary file, rename it over the
old one) is one update. Hidden files and folders, editor swap and backup
files are ignored, as ingest ignores them. Ctrl-C stops watching.`,
		Example: `  graphrag watch ~/notes
  graphrag watch            # every folder graphrag sources lists`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			out := cmd.OutOrStdout()
			if debounce <= 0 {
				return fmt.Errorf("--debounce %s: want a positive duration, e.g. 300ms", debounce)
			}
			st, emb, plan, err := a.openForIngest(ctx, args, keepMissing, out)
			if err != nil {
				return err
			}
			defer st.Close()
			opts := &ingestOptions{chunkSize: chunkSize, overlap: overlap, progress: !a.quiet}
			w := &watcher{app: a, st: st, emb: emb, plan: plan, opts: opts, out: out, keepMissing: keepMissing, debounce: debounce}
			if len(plan.walk) > 0 {
				sum, err := a.ingestInto(ctx, st, emb, plan.walk, opts)
				if err != nil {
					if errors.Is(err, context.Canceled) {
						return nil
					}
					return err
				}
				plan.record(sum, true, time.Now())
				if err := saveSources(ctx, st, plan.rec); err != nil {
					return err
				}
				printSummary(out, sum, false, -1)
			}
			return w.run(ctx)
		},
	}
	cmd.Flags().BoolVar(&keepMissing, "keep-missing", false, "keep what was ingested from folders that no longer exist instead of forgetting it")
	cmd.Flags().DurationVar(&debounce, "debounce", watchDebounce, "wait this long after the last change before ingesting")
	cmd.Flags().IntVar(&chunkSize, "chunk-size", 0, "chunk size in characters (default: ingest's)")
	cmd.Flags().IntVar(&overlap, "chunk-overlap", 0, "overlap between chunks in characters (default: ingest's)")
	return cmd
}

// watcher follows the plan's roots and keeps the store in step.
type watcher struct {
	app         *app
	st          store
	emb         graphrag.Embedder
	plan        *ingestPlan
	opts        *ingestOptions
	out         io.Writer
	keepMissing bool
	debounce    time.Duration
	fs          *fsnotify.Watcher
}

// roots are the recorded roots this watch follows: the paths given, or all.
func (w *watcher) roots() []sourceRoot {
	var out []sourceRoot
	for _, r := range w.plan.rec.Roots {
		for _, p := range w.plan.paths {
			if within(r.Path, p) {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

func (w *watcher) run(ctx context.Context) error {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer fw.Close()
	w.fs = fw
	dirs := 0
	for _, p := range w.plan.paths {
		dirs += w.addTree(p)
	}
	if !w.app.quiet {
		fmt.Fprintf(w.app.io.err, "watching %s (%s); Ctrl-C stops\n", plural(len(w.plan.paths), "path", "paths"), plural(dirs, "folder", "folders"))
	}
	pending := map[string]bool{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fw.Events:
			if !ok {
				return nil
			}
			if ev.Op == fsnotify.Chmod || w.ignored(ev.Name) {
				continue
			}
			if ev.Has(fsnotify.Rename) || ev.Has(fsnotify.Remove) {
				w.dropTree(ev.Name)
			}
			if ev.Has(fsnotify.Create) {
				if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
					w.addTree(ev.Name)
				}
			}
			pending[ev.Name] = true
			timer.Reset(w.debounce)
		case err, ok := <-fw.Errors:
			if !ok {
				return nil
			}
			w.app.notify(fmt.Sprintf("watch: %v", err))
		case <-timer.C:
			batch := pending
			pending = map[string]bool{}
			if err := w.sync(ctx, batch); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				fmt.Fprintln(w.app.io.err, "graphrag: watch:", err)
			}
		}
	}
}

// addTree watches dir and the folders under it that ingest would walk; it
// returns how many it added.
func (w *watcher) addTree(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != dir && w.ignored(p) {
			return fs.SkipDir
		}
		if err := w.fs.Add(p); err == nil {
			n++
		}
		return nil
	})
	return n
}

// dropTree stops watching path and the folders under it: after a folder is
// renamed its watches would go on reporting changes under the old name; the
// new name is watched afresh when its Create arrives.
func (w *watcher) dropTree(path string) {
	for _, p := range w.fs.WatchList() {
		if within(path, p) {
			_ = w.fs.Remove(p)
		}
	}
}

// ignored reports whether a path is one ingest would not take in: outside
// the watched roots, forgotten, hidden or under a hidden or skipped folder,
// or an editor's swap or backup file.
func (w *watcher) ignored(path string) bool {
	for _, r := range w.roots() {
		if !within(r.Path, path) {
			continue
		}
		for _, x := range r.Excluded {
			if within(x, path) {
				return true
			}
		}
		rel, err := filepath.Rel(r.Path, path)
		if err != nil {
			return true
		}
		if rel == "." {
			return false
		}
		parts := strings.Split(rel, string(filepath.Separator))
		for _, part := range parts[:len(parts)-1] {
			if strings.HasPrefix(part, ".") || walkSkippedDirs[part] {
				return true
			}
		}
		return isEditorTemp(parts[len(parts)-1])
	}
	return true
}

// isEditorTemp reports whether a file name is a hidden file or one an
// editor writes while saving (vim's swap files and 4913 probe, backup~
// files, .tmp files written before a rename).
func isEditorTemp(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") || name == "4913" ||
		strings.HasSuffix(name, ".swp") || strings.HasSuffix(name, ".swx") || strings.HasSuffix(name, ".tmp")
}

// sync brings the store in step with the changed paths: those that exist
// are ingested, those that are gone removed.
func (w *watcher) sync(ctx context.Context, changed map[string]bool) error {
	paths := make([]string, 0, len(changed))
	for p := range changed {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	// A path under another changed folder is walked with it.
	var top []string
	for _, p := range paths {
		if n := len(top); n > 0 && within(top[n-1], p) {
			continue
		}
		top = append(top, p)
	}
	var present, gone []string
	for _, p := range top {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			gone = append(gone, p)
		} else {
			present = append(present, p)
		}
	}
	deleted := 0
	for _, p := range gone {
		if i := w.plan.rec.rootOf(p); i >= 0 && w.plan.rec.Roots[i].Path == p {
			if w.keepMissing {
				fmt.Fprintf(w.out, "%s is missing; kept what was ingested from it (--keep-missing)\n", displayPath(p))
				continue
			}
			n, err := forgetPath(ctx, w.st, &w.plan.rec, p)
			if err != nil {
				return err
			}
			fmt.Fprintf(w.out, "%s no longer exists: forgot its %s\n", displayPath(p), plural(n, "document", "documents"))
			if err := saveSources(ctx, w.st, w.plan.rec); err != nil {
				return err
			}
			continue
		}
		n, err := deleteUnder(ctx, w.st, p)
		if err != nil {
			return err
		}
		deleted += n
	}
	var sum struct{ added, updated, unchanged, chunks int }
	if len(present) > 0 {
		s, err := w.app.ingestInto(ctx, w.st, w.emb, present, w.opts)
		if err != nil {
			return err
		}
		sum.added, sum.updated, sum.unchanged, sum.chunks = s.Added, s.Updated, s.Unchanged, s.Chunks
		deleted += s.Deleted
	}
	if sum.added+sum.updated+deleted == 0 {
		return nil
	}
	now := time.Now()
	for i := range w.plan.rec.Roots {
		for _, p := range top {
			if within(w.plan.rec.Roots[i].Path, p) {
				w.plan.rec.Roots[i].LastIngest = now.UTC().Truncate(time.Second)
			}
		}
	}
	if err := saveSources(ctx, w.st, w.plan.rec); err != nil {
		return err
	}
	fmt.Fprintf(w.out, "%s %d added, %d updated, %d deleted; %s written\n", now.Format("15:04:05"),
		sum.added, sum.updated, deleted, plural(sum.chunks, "chunk", "chunks"))
	return nil
}

// deleteUnder deletes the documents stored from path or under it, without
// changing the record (the path is gone, not forgotten).
func deleteUnder(ctx context.Context, st store, path string) (int, error) {
	var rec sourcesRecord
	return forgetPath(ctx, st, &rec, path)
}
