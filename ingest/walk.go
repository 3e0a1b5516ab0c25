package ingest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
)

// file is a regular file to ingest.
type file struct {
	path string // absolute, cleaned, symlinks in the root resolved
	rel  string // path relative to its root (the base name for a file given itself)
	mod  time.Time
	size int64 // when walked; what is read may differ
}

// root is one path given to Run.
type root struct {
	path  string
	isDir bool
}

func resolveRoots(paths []string) ([]root, error) {
	var roots []root
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("ingest %s: %w", p, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("ingest %s: %w", p, err)
		}
		fi, err := os.Stat(real)
		if err != nil {
			return nil, fmt.Errorf("ingest %s: %w", p, err)
		}
		roots = append(roots, root{path: filepath.Clean(real), isDir: fi.IsDir()})
	}
	return roots, nil
}

// emptiedRoots are the folders given to Run that list no file at all now
// (nothing walked, nothing skipped) although documents from under them are
// stored. An empty mount point is what an unmounted disk leaves behind:
// taking its files for deleted would throw the index of the disk away, so
// Run keeps them and says so, as it does for a folder it cannot read.
func emptiedRoots(roots []root, files []file, skipped []Problem, manifest []graphrag.DocState) []root {
	var out []root
	for _, r := range roots {
		if !r.isDir {
			continue
		}
		one := []root{r}
		listed := slices.ContainsFunc(files, func(f file) bool { return underAny(f.path, one) }) ||
			slices.ContainsFunc(skipped, func(p Problem) bool { return underAny(p.Path, one) })
		if !listed && slices.ContainsFunc(manifest, func(d graphrag.DocState) bool { return underAny(d.Path, one) }) {
			out = append(out, r)
		}
	}
	return out
}

// underAny reports whether path is one of the roots or inside one.
func underAny(path string, roots []root) bool {
	for _, r := range roots {
		if path == r.path || r.isDir && strings.HasPrefix(path, strings.TrimSuffix(r.path, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// walk lists the files under the roots (each once), and the ones it skips
// with why. It does not follow symbolic links: a link to a file inside a
// root is skipped because the target is ingested under its own path; one
// that leads out of the root is skipped so ingest never leaves the paths
// it was given.
// limit gives the largest size of a file read, 0 for no limit.
func walk(roots []root, limit func(path string) int64) (files []file, skipped []Problem) {
	seen := map[string]bool{}
	for _, r := range roots {
		if !r.isDir {
			fi, err := os.Stat(r.path)
			if err != nil {
				skipped = append(skipped, Problem{Path: r.path, Reason: ReasonUnreadable, Detail: errDetail(err)})
				continue
			}
			if seen[r.path] {
				continue
			}
			seen[r.path] = true
			if !fi.Mode().IsRegular() { // a FIFO given by name would block open
				skipped = append(skipped, Problem{Path: r.path, Reason: ReasonNotRegular, Detail: fileKind(fi.Mode())})
				continue
			}
			files = append(files, file{path: r.path, rel: filepath.Base(r.path), mod: fi.ModTime(), size: fi.Size()})
			continue
		}
		ig := newIgnorer()
		_ = filepath.WalkDir(r.path, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				// The root too: a folder that cannot be listed keeps
				// everything stored from under it (Run deletes nothing
				// under an unreadable path).
				skipped = append(skipped, Problem{Path: path, Reason: ReasonUnreadable, Detail: errDetail(err)})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			name := d.Name()
			rel, _ := filepath.Rel(r.path, path)
			if d.IsDir() {
				if path == r.path {
					ig.load(path, ".")
					return nil
				}
				if strings.HasPrefix(name, ".") {
					return fs.SkipDir
				}
				if ok, why := ig.match(rel, true); ok {
					skipped = append(skipped, Problem{Path: path, Reason: ReasonIgnored, Detail: why})
					return fs.SkipDir
				}
				ig.load(path, rel)
				return nil
			}
			if seen[path] {
				return nil
			}
			seen[path] = true
			ignored, why := ig.match(rel, false)
			switch {
			case strings.HasPrefix(name, "."):
				skipped = append(skipped, Problem{Path: path, Reason: ReasonHidden})
			case ignored:
				skipped = append(skipped, Problem{Path: path, Reason: ReasonIgnored, Detail: why})
			case d.Type()&fs.ModeSymlink != 0:
				target, err := filepath.EvalSymlinks(path)
				switch {
				case err != nil:
					skipped = append(skipped, Problem{Path: path, Reason: ReasonUnreadable, Detail: "broken symbolic link"})
				case underAny(target, []root{r}):
					skipped = append(skipped, Problem{Path: path, Reason: ReasonSymlinkIn, Detail: "-> " + target})
				default:
					skipped = append(skipped, Problem{Path: path, Reason: ReasonSymlinkOut, Detail: "-> " + target})
				}
			case !d.Type().IsRegular():
				skipped = append(skipped, Problem{Path: path, Reason: ReasonNotRegular})
			default:
				fi, err := d.Info()
				if err != nil {
					skipped = append(skipped, Problem{Path: path, Reason: ReasonUnreadable, Detail: errDetail(err)})
					return nil
				}
				if max := limit(path); max > 0 && fi.Size() > max {
					skipped = append(skipped, Problem{Path: path, Reason: ReasonTooLarge, Detail: fmt.Sprintf("%d bytes, limit %d", fi.Size(), max)})
					return nil
				}
				files = append(files, file{path: path, rel: rel, mod: fi.ModTime(), size: fi.Size()})
			}
			return nil
		})
	}
	return files, skipped
}
