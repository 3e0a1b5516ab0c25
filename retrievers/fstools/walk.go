package fstools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// File is one regular file a tool saw.
type File struct {
	// Path is the absolute cleaned path: the DocID ingest gives the file.
	Path string
	// Root is the ingested directory the file is in; Rel is the path
	// relative to it, with forward slashes.
	Root, Rel string
	Name      string
	// Type is the lower-case extension without a dot, "" when none.
	Type    string
	Size    int64
	ModTime time.Time
	// Link is true when the file was reached through a symbolic link (whose
	// target is inside the roots); Size and ModTime are the target's.
	Link bool
}

// Walk says how a walk went. Every tool's result embeds it.
type Walk struct {
	// Visited counts the entries (files and directories) looked at.
	Visited int
	// Truncated is true when the walk stopped at Options.MaxFiles: counts
	// and sizes are then lower bounds.
	Truncated bool
	// Skipped lists what could not be read or was refused (unreadable
	// directories, links leaving the roots, broken or looping links); at
	// most maxSkipped are kept, SkippedCount counts them all.
	Skipped      []Skip
	SkippedCount int
}

// Skip is one entry a walk passed over, and why.
type Skip struct {
	Path   string
	Reason string
}

const maxSkipped = 20

func (w *Walk) skip(p, reason string) {
	w.SkippedCount++
	if len(w.Skipped) < maxSkipped {
		w.Skipped = append(w.Skipped, Skip{Path: p, Reason: reason})
	}
}

// errStop ends a walk early once MaxFiles entries were visited.
var errStop = errors.New("stop walk")

// visitor receives each directory (before its contents) and each regular
// file that passes the filter. dir is called with the directory's path
// relative to its root ("." for the root).
type visitor struct {
	dir  func(r root, rel string, depth int)
	file func(f File)
}

// walk visits the files under the given start directories (absolute clean
// paths inside the roots; all roots when empty), in lexical order.
func (t *Tools) walk(ctx context.Context, m *matcher, starts []string, v visitor) (Walk, error) {
	var w Walk
	if len(starts) == 0 {
		for _, r := range t.roots {
			starts = append(starts, r.path)
		}
	}
	for _, start := range starts {
		r, ok := t.rootOf(start)
		if !ok {
			return w, &fs.PathError{Op: "walk", Path: start, Err: ErrOutsideRoots}
		}
		err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			rel := relTo(r, p)
			if err != nil {
				// The root itself failing to open is fatal; anything below is
				// skipped and reported.
				if p == start && d == nil {
					return err
				}
				w.skip(p, reason(err))
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if w.Visited >= t.opts.MaxFiles {
				w.Truncated = true
				return errStop
			}
			if r.files != nil && p != start && (d.IsDir() || !r.files[p]) {
				// A root of single files: nothing else in its directory.
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			w.Visited++
			name := d.Name()
			if p != start && !t.opts.IncludeHidden && strings.HasPrefix(name, ".") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			switch {
			case d.IsDir():
				if v.dir != nil {
					v.dir(r, rel, depthOf(rel))
				}
				return nil
			case d.Type()&fs.ModeSymlink != 0:
				f, ok := t.followLink(&w, r, p, rel)
				if ok && v.file != nil && (m == nil || m.match(f)) {
					v.file(f)
				}
				return nil
			case d.Type().IsRegular():
				if m != nil && !m.matchPath(name, rel) {
					return nil // rejected by name alone: no stat needed
				}
				info, err := d.Info()
				if err != nil {
					w.skip(p, reason(err))
					return nil
				}
				f := File{Path: p, Root: r.path, Rel: rel, Name: name, Type: FileType(name), Size: info.Size(), ModTime: info.ModTime()}
				if v.file != nil && (m == nil || m.match(f)) {
					v.file(f)
				}
				return nil
			}
			return nil // devices, sockets, pipes: not files anyone ingested
		})
		if errors.Is(err, errStop) {
			break
		}
		if err != nil {
			return w, fmt.Errorf("fstools: walk %s: %w", start, err)
		}
	}
	return w, nil
}

// followLink resolves a symbolic link met in a walk: a link to a regular
// file inside the roots counts as that file; links to directories are not
// followed (no loops, no double counting); links leaving the roots, broken
// links and loops are skipped and reported.
func (t *Tools) followLink(w *Walk, r root, p, rel string) (File, bool) {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		w.skip(p, "symbolic link: "+reason(err))
		return File{}, false
	}
	if !t.insideResolved(target) {
		w.skip(p, "symbolic link leaves the ingested directories")
		return File{}, false
	}
	info, err := os.Stat(target)
	if err != nil {
		w.skip(p, "symbolic link: "+reason(err))
		return File{}, false
	}
	if !info.Mode().IsRegular() {
		return File{}, false
	}
	name := filepath.Base(p)
	return File{Path: p, Root: r.path, Rel: rel, Name: name, Type: FileType(name), Size: info.Size(), ModTime: info.ModTime(), Link: true}, true
}

func relTo(r root, p string) string {
	rel, err := filepath.Rel(r.path, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

func depthOf(rel string) int {
	if rel == "." || rel == "" {
		return 0
	}
	return strings.Count(rel, "/") + 1
}

// reason is a short human reason for a filesystem error.
func reason(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist (broken link?)"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
