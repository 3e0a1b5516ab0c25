package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/retrievers/pgvector"
	"github.com/graphrag/graphrag/retrievers/sqlite"
	"github.com/spf13/cobra"
)

// metaStore is what sources, forget and re-scanning ingest need of a store
// besides the basics: a place for the record of ingested folders, and chunk
// counts. Both stores have it (checked by retrievers/storetest).
type metaStore interface {
	Meta(ctx context.Context, key string) (string, error)
	SetMeta(ctx context.Context, key, value string) error
	ChunkCounts(ctx context.Context) (map[string]int, error)
}

var (
	_ metaStore = (*sqlite.Store)(nil)
	_ metaStore = (*pgvector.Store)(nil)
)

// sourcesKey is the store meta key that holds the sourcesRecord as JSON.
const sourcesKey = "graphrag.sources"

// sourcesRecord is what ingest remembers of the folders (and files) it was
// given, kept in the store itself so it travels with it.
type sourcesRecord struct {
	Roots []sourceRoot `json:"roots"`
}

// sourceRoot is one path given to ingest.
type sourceRoot struct {
	Path string `json:"path"` // absolute, symbolic links resolved
	// LastIngest is when an ingest of the whole root last finished; zero
	// when none has (the first one was interrupted).
	LastIngest time.Time `json:"last_ingest,omitzero"`
	// Skipped counts the files the last ingest of the root skipped, by reason.
	Skipped map[string]int `json:"skipped,omitempty"`
	// Excluded are paths inside the root that were forgotten: re-scans
	// leave them out.
	Excluded []string `json:"excluded,omitempty"`
}

func asMeta(st store) (metaStore, error) {
	ms, ok := st.(metaStore)
	if !ok {
		return nil, fmt.Errorf("store %T cannot record ingested folders", st)
	}
	return ms, nil
}

func loadSources(ctx context.Context, st store) (sourcesRecord, error) {
	var rec sourcesRecord
	ms, err := asMeta(st)
	if err != nil {
		return rec, err
	}
	v, err := ms.Meta(ctx, sourcesKey)
	if err != nil || v == "" {
		return rec, err
	}
	if err := json.Unmarshal([]byte(v), &rec); err != nil {
		return rec, fmt.Errorf("the store's record of ingested folders is damaged (%v): ingest your folders again to rewrite it", err)
	}
	return rec, nil
}

func saveSources(ctx context.Context, st store, rec sourcesRecord) error {
	ms, err := asMeta(st)
	if err != nil {
		return err
	}
	sort.Slice(rec.Roots, func(i, j int) bool { return rec.Roots[i].Path < rec.Roots[j].Path })
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := ms.SetMeta(ctx, sourcesKey, string(b)); err != nil {
		return fmt.Errorf("record the ingested folders: %w", err)
	}
	return nil
}

// canonicalPath is p as ingest stores it: absolute, cleaned, with symbolic
// links resolved. A path that no longer exists resolves through its nearest
// existing parent.
func canonicalPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	abs = filepath.Clean(abs)
	var rest []string
	for dir := abs; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs, nil
		}
		rest = append(rest, filepath.Base(dir))
		dir = parent
	}
}

// rootOf returns the index of the recorded root that holds path, -1 for none.
func (r *sourcesRecord) rootOf(path string) int {
	for i, root := range r.Roots {
		if within(root.Path, path) {
			return i
		}
	}
	return -1
}

// walkSkippedDirs mirrors the directory names ingest never descends into
// (ingest/walk.go), so a re-scan that lists a directory to leave out a
// forgotten path does not take them in either.
var walkSkippedDirs = map[string]bool{"node_modules": true, "__pycache__": true}

// scanPaths is what a re-scan of root walks: the root itself, or, when paths
// inside it were forgotten, the entries around them.
func scanPaths(root sourceRoot) ([]string, error) {
	if len(root.Excluded) == 0 {
		return []string{root.Path}, nil
	}
	var out []string
	var expand func(dir string) error
	expand = func(dir string) error {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if strings.HasPrefix(e.Name(), ".") || e.IsDir() && walkSkippedDirs[e.Name()] {
				continue
			}
			excluded, holds := false, false
			for _, x := range root.Excluded {
				excluded = excluded || within(x, p)
				holds = holds || within(p, x)
			}
			switch {
			case excluded:
			case holds && e.IsDir():
				if err := expand(p); err != nil {
					return err
				}
			default:
				out = append(out, p)
			}
		}
		return nil
	}
	if err := expand(root.Path); err != nil {
		return nil, err
	}
	return out, nil
}

// ingestPlan is what one `graphrag ingest` walks and how it updates the
// record afterwards.
type ingestPlan struct {
	rec    sourcesRecord
	paths  []string // canonical paths given, or every known root on a re-scan
	walk   []string // what ingest.Run walks (re-scan: roots around forgotten paths)
	rescan bool
}

// planIngest resolves ingest's arguments against the record. With no
// arguments it re-scans every recorded root. Either way a recorded root
// that no longer exists is forgotten with a message on out, unless
// keepMissing; an argument that no longer exists but was ingested is
// forgotten the same way.
func (a *app) planIngest(ctx context.Context, st store, args []string, keepMissing bool, out io.Writer) (*ingestPlan, error) {
	rec, err := loadSources(ctx, st)
	if err != nil {
		return nil, err
	}
	plan := &ingestPlan{rec: rec, rescan: len(args) == 0}
	if plan.rescan && len(rec.Roots) == 0 {
		return nil, errors.New("no folders recorded in this store yet: run `graphrag ingest PATH...` (stores from before this version need it once)")
	}
	var missing []string
	for _, r := range rec.Roots {
		if _, err := os.Stat(r.Path); errors.Is(err, os.ErrNotExist) {
			missing = append(missing, r.Path)
		}
	}
	for _, p := range args {
		c, err := canonicalPath(p)
		if err != nil {
			return nil, fmt.Errorf("ingest %s: %w", p, err)
		}
		if _, err := os.Stat(c); err != nil {
			if errors.Is(err, os.ErrNotExist) && rec.rootOf(c) >= 0 {
				missing = append(missing, c)
				continue
			}
			return nil, fmt.Errorf("ingest %s: %w", p, err)
		}
		plan.paths = append(plan.paths, c)
	}
	for _, m := range missing {
		if keepMissing {
			fmt.Fprintf(out, "%s is missing; kept what was ingested from it (--keep-missing)\n", displayPath(m))
			continue
		}
		n, err := forgetPath(ctx, st, &plan.rec, m)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(out, "%s no longer exists: forgot its %s (pass --keep-missing to keep them, e.g. for an unplugged disk)\n", displayPath(m), plural(n, "document", "documents"))
	}
	if plan.rescan {
		for _, r := range plan.rec.Roots {
			if _, err := os.Stat(r.Path); err != nil {
				continue // missing and kept
			}
			walk, err := scanPaths(r)
			if err != nil {
				return nil, fmt.Errorf("re-scan %s: %w", displayPath(r.Path), err)
			}
			plan.paths = append(plan.paths, r.Path)
			plan.walk = append(plan.walk, walk...)
		}
	} else {
		plan.walk = plan.paths
	}
	if len(missing) > 0 && !keepMissing {
		if err := saveSources(ctx, st, plan.rec); err != nil {
			return nil, err
		}
	}
	return plan, nil
}

// record notes the plan's paths as ingested roots: a path inside a root
// clears what was forgotten under it, a path above roots absorbs them. A
// finished ingest stamps the time and the skipped files; an interrupted one
// only makes sure new roots are listed.
func (p *ingestPlan) record(sum ingest.Summary, finished bool, now time.Time) {
	for _, path := range p.paths {
		i := p.rec.rootOf(path)
		if i >= 0 && p.rec.Roots[i].Path != path {
			// Inside a root: the root's own record stands, but what is
			// ingested again is no longer forgotten.
			r := &p.rec.Roots[i]
			kept := r.Excluded[:0]
			for _, x := range r.Excluded {
				if !within(path, x) && !within(x, path) {
					kept = append(kept, x)
				}
			}
			r.Excluded = kept
			continue
		}
		if i < 0 {
			// A new root; it takes in the roots below it.
			kept := p.rec.Roots[:0]
			for _, r := range p.rec.Roots {
				if !within(path, r.Path) {
					kept = append(kept, r)
				}
			}
			p.rec.Roots = append(kept, sourceRoot{Path: path})
			i = len(p.rec.Roots) - 1
		}
		r := &p.rec.Roots[i]
		if !finished {
			continue
		}
		if !p.rescan {
			r.Excluded = nil
		}
		r.LastIngest = now.UTC().Truncate(time.Second)
		r.Skipped = map[string]int{}
		for _, pr := range sum.Problems {
			if within(r.Path, pr.Path) {
				r.Skipped[pr.Reason]++
			}
		}
	}
}

// forgetPath deletes every document stored from path or under it and
// updates rec: roots under path are dropped, a root holding path leaves it
// out from now on. It returns the number of documents deleted.
func forgetPath(ctx context.Context, st store, rec *sourcesRecord, path string) (int, error) {
	docs, err := st.Manifest(ctx)
	if err != nil {
		return 0, fmt.Errorf("read the store's documents: %w", err)
	}
	var ids []string
	for _, d := range docs {
		if d.Path != "" && within(path, d.Path) {
			ids = append(ids, d.ID)
		}
	}
	for i := 0; i < len(ids); i += deleteBatch {
		part := ids[i:min(i+deleteBatch, len(ids))]
		if err := st.Delete(ctx, part...); err != nil {
			return i, fmt.Errorf("forget %s: %w", displayPath(path), err)
		}
	}
	kept := rec.Roots[:0]
	for _, r := range rec.Roots {
		if within(path, r.Path) {
			continue
		}
		if within(r.Path, path) {
			r.Excluded = append(r.Excluded, path)
		}
		kept = append(kept, r)
	}
	rec.Roots = kept
	return len(ids), nil
}

// pruneOutsideWalk deletes the documents of re-scanned roots whose files
// are gone but lay outside what the re-scan walked (a re-scan around a
// forgotten path walks the entries that exist, so ingest cannot see a file
// removed beside them). It returns the number deleted.
func pruneOutsideWalk(ctx context.Context, st store, plan *ingestPlan) (int, error) {
	docs, err := st.Manifest(ctx)
	if err != nil {
		return 0, fmt.Errorf("read the store's documents: %w", err)
	}
	var gone []string
	for _, d := range docs {
		i := plan.rec.rootOf(d.Path)
		if i < 0 || len(plan.rec.Roots[i].Excluded) == 0 {
			continue
		}
		walked := false
		for _, w := range plan.walk {
			walked = walked || within(w, d.Path)
		}
		if walked {
			continue
		}
		if _, err := os.Lstat(d.Path); errors.Is(err, os.ErrNotExist) {
			gone = append(gone, d.ID)
		}
	}
	for i := 0; i < len(gone); i += deleteBatch {
		if err := st.Delete(ctx, gone[i:min(i+deleteBatch, len(gone))]...); err != nil {
			return i, fmt.Errorf("delete documents whose files are gone: %w", err)
		}
	}
	return len(gone), nil
}

// deleteBatch bounds the ids of one Delete, as ingest does.
const deleteBatch = 500

func (a *app) forgetCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "forget PATH...",
		Short: "Remove an ingested folder, or any file or folder under one, from the store",
		Long: `Delete from the store every document that came from PATH or from under it.
A forgotten folder stops being answerable at once. Forgetting an ingested
root drops it from ` + "`graphrag sources`" + `; forgetting a path inside one keeps the
root and leaves the path out of later re-scans (` + "`graphrag ingest`" + ` with no
arguments) until you ingest it again by name. The files themselves are not
touched.`,
		Example: `  graphrag forget ~/notes/old
  graphrag forget ~/Downloads/big.pdf`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			st, err := a.openStore(ctx, nil, false)
			if err != nil {
				return err
			}
			defer st.Close()
			rec, err := loadSources(ctx, st)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			var unknown []string
			for _, p := range args {
				c, err := canonicalPath(p)
				if err != nil {
					return fmt.Errorf("forget %s: %w", p, err)
				}
				before := len(rec.Roots)
				n, err := forgetPath(ctx, st, &rec, c)
				if err != nil {
					return err
				}
				if n == 0 && len(rec.Roots) == before {
					unknown = append(unknown, p)
					continue
				}
				fmt.Fprintf(out, "forgot %s: %s\n", displayRel(c), plural(n, "document", "documents"))
			}
			if err := saveSources(ctx, st, rec); err != nil {
				return err
			}
			if len(unknown) > 0 {
				return fmt.Errorf("nothing ingested under %s (`graphrag sources` lists what is)", strings.Join(unknown, ", "))
			}
			return nil
		},
	}
}

// sourceInfo is one root of `graphrag sources`.
type sourceInfo struct {
	Path       string         `json:"path"`
	Exists     bool           `json:"exists"`
	Files      int            `json:"files"`
	Documents  int            `json:"documents"`
	Chunks     int            `json:"chunks"`
	LastIngest *time.Time     `json:"last_ingest"`
	Skipped    map[string]int `json:"skipped,omitempty"`
	Excluded   []string       `json:"excluded,omitempty"`
}

// sourcesReport is `graphrag sources --json`.
type sourcesReport struct {
	Store     string       `json:"store"`
	Roots     []sourceInfo `json:"roots"`
	Documents int          `json:"documents"`
	Chunks    int          `json:"chunks"`
	// Unrecorded counts documents under no recorded root (ingested by a
	// graphrag from before the record, or JSONL rows of a removed root).
	Unrecorded int `json:"unrecorded_documents"`
}

func (a *app) sourcesReport(ctx context.Context, st store) (sourcesReport, error) {
	rep := sourcesReport{Store: displayStore(a.store), Roots: []sourceInfo{}}
	rec, err := loadSources(ctx, st)
	if err != nil {
		return rep, err
	}
	docs, err := st.Manifest(ctx)
	if err != nil {
		return rep, fmt.Errorf("read the store's documents: %w", err)
	}
	ms, err := asMeta(st)
	if err != nil {
		return rep, err
	}
	chunks, err := ms.ChunkCounts(ctx)
	if err != nil {
		return rep, err
	}
	files := make([]map[string]bool, len(rec.Roots))
	for i, r := range rec.Roots {
		info := sourceInfo{Path: r.Path, Skipped: r.Skipped, Excluded: r.Excluded}
		if _, err := os.Stat(r.Path); err == nil {
			info.Exists = true
		}
		if !r.LastIngest.IsZero() {
			t := r.LastIngest
			info.LastIngest = &t
		}
		rep.Roots = append(rep.Roots, info)
		files[i] = map[string]bool{}
	}
	for _, d := range docs {
		rep.Documents++
		rep.Chunks += chunks[d.ID]
		i := rec.rootOf(d.Path)
		if i < 0 {
			rep.Unrecorded++
			continue
		}
		info := &rep.Roots[i]
		info.Documents++
		info.Chunks += chunks[d.ID]
		files[i][d.Path] = true
	}
	for i := range rep.Roots {
		rep.Roots[i].Files = len(files[i])
	}
	return rep, nil
}

func (a *app) sourcesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "sources",
		Aliases: []string{"ls"},
		Short:   "List the ingested folders with file and chunk counts, last ingest and skipped files",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			st, err := a.openStore(ctx, nil, false)
			if err != nil {
				return err
			}
			defer st.Close()
			rep, err := a.sourcesReport(ctx, st)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			printSourcesReport(out, rep, time.Now())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: the store, its roots with counts, last ingest and skipped files")
	return cmd
}

// printSourcesReport prints the sources report as a table.
func printSourcesReport(out io.Writer, rep sourcesReport, now time.Time) {
	fmt.Fprintf(out, "%s in %s: %s, %s\n", plural(len(rep.Roots), "folder", "folders"), rep.Store,
		plural(rep.Documents, "document", "documents"), plural(rep.Chunks, "chunk", "chunks"))
	if len(rep.Roots) == 0 && rep.Documents == 0 {
		fmt.Fprintln(out, "nothing ingested yet: graphrag ingest PATH...")
		return
	}
	if len(rep.Roots) > 0 {
		tw := tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "PATH\tFILES\tCHUNKS\tLAST INGEST")
		for _, r := range rep.Roots {
			when := "not finished"
			if r.LastIngest != nil {
				when = r.LastIngest.Local().Format("2006-01-02 15:04") + " (" + ago(now.Sub(*r.LastIngest)) + ")"
			}
			path := displayPath(r.Path)
			if !r.Exists {
				path += " (missing)"
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", path, r.Files, r.Chunks, when)
		}
		tw.Flush()
	}
	for _, r := range rep.Roots {
		if len(r.Skipped) == 0 && len(r.Excluded) == 0 {
			continue
		}
		var parts []string
		for _, reason := range sortedKeys(r.Skipped) {
			parts = append(parts, fmt.Sprintf("%d %s", r.Skipped[reason], reason))
		}
		if len(parts) > 0 {
			fmt.Fprintf(out, "%s skipped: %s\n", displayPath(r.Path), strings.Join(parts, ", "))
		}
		for _, x := range r.Excluded {
			fmt.Fprintf(out, "%s forgotten: %s\n", displayPath(r.Path), displayPath(x))
		}
	}
	if rep.Unrecorded > 0 {
		fmt.Fprintf(out, "%s under no recorded folder (ingested by an older graphrag): ingest their folders again to list them\n",
			plural(rep.Unrecorded, "document", "documents"))
	}
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ago says how long ago in one rounded unit.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute", "minutes") + " ago"
	case d < 48*time.Hour:
		return plural(int(d/time.Hour), "hour", "hours") + " ago"
	}
	return plural(int(d/(24*time.Hour)), "day", "days") + " ago"
}

// plural is "1 file", "2 files", "0 files".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
