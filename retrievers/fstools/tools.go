package fstools

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// Defaults for Options fields left zero.
const (
	DefaultMaxFiles = 200_000
	DefaultLimit    = 10
	DefaultMaxHits  = 50
)

// Options tune the tools. The zero value is usable.
type Options struct {
	// MaxFiles bounds how many entries one walk visits (DefaultMaxFiles when
	// <= 0). A walk that reaches it stops and says so in its result.
	MaxFiles int
	// IncludeHidden makes walks enter hidden directories and see hidden
	// files (names starting with "."); they are skipped by default.
	IncludeHidden bool
	// Now is the clock the time windows are relative to (time.Now when nil).
	Now func() time.Time
	// Limit is how many files Answer lists when the question names no number
	// (DefaultLimit when <= 0).
	Limit int
	// MaxHits bounds the hits Answer returns and the paths Select returns
	// (DefaultMaxHits when <= 0; Select uses 20 times it).
	MaxHits int
	// Index is the store the roots were ingested into (optional, see Index):
	// counts then say how many of the files are indexed, "how many files
	// mention X" counts documents, and questions about the store are
	// answered from its record.
	Index Index
}

// Tools are the filesystem tools over a fixed set of roots. A *Tools is safe
// for concurrent use.
type Tools struct {
	roots []root
	opts  Options
}

// root is one ingested directory: the absolute cleaned path as given and the
// same with symbolic links resolved (they differ when the root's path goes
// through a link, e.g. /tmp on macOS). When files is set the root stands for
// files ingested one by one: the directory shows those files alone (by
// path as given and resolved), nothing else in it or below it.
type root struct {
	path     string
	resolved string
	files    map[string]bool
}

// contains reports whether the clean absolute path p is visible through r,
// lexically or resolved.
func (r root) contains(p string) bool {
	if r.files == nil {
		return within(r.path, p) || within(r.resolved, p)
	}
	return p == r.path || p == r.resolved || r.files[p]
}

// containsResolved is contains for a path whose links are resolved.
func (r root) containsResolved(p string) bool {
	if r.files == nil {
		return within(r.resolved, p)
	}
	return p == r.resolved || r.files[p]
}

// New returns tools that see only the given paths. Each root must be an
// existing directory, whose whole tree the tools see, or a regular file,
// which they see alone (its directory shows that file and no other):
// ingesting one file must not open its neighbours to the tools. Roots inside
// other roots are merged away.
func New(roots []string, opts Options) (*Tools, error) {
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultMaxFiles
	}
	if opts.Limit <= 0 {
		opts.Limit = DefaultLimit
	}
	if opts.MaxHits <= 0 {
		opts.MaxHits = DefaultMaxHits
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	var rs []root
	for _, r := range roots {
		if strings.TrimSpace(r) == "" {
			continue
		}
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("fstools: root %q: %w", r, err)
		}
		resolved, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("fstools: root %q: %w", r, err)
		}
		fi, err := os.Stat(resolved)
		if err != nil {
			return nil, fmt.Errorf("fstools: root %q: %w", r, err)
		}
		switch {
		case fi.IsDir():
			rs = append(rs, root{path: abs, resolved: resolved})
		case fi.Mode().IsRegular():
			rs = append(rs, root{path: filepath.Dir(abs), resolved: filepath.Dir(resolved), files: map[string]bool{abs: true, resolved: true}})
		default:
			return nil, fmt.Errorf("fstools: root %q is neither a directory nor a regular file: give the paths that were ingested", r)
		}
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("fstools: %w: pass the directories given to ingest", ErrNoRoots)
	}
	// Drop roots inside whole directories so nothing is walked twice, and
	// join the files of one directory into one root.
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].resolved < rs[j].resolved })
	var kept []root
	for _, r := range rs {
		dup := false
		for i, k := range kept {
			if k.files == nil && within(k.resolved, r.resolved) {
				dup = true
				break
			}
			if k.files != nil && r.files != nil && k.resolved == r.resolved {
				for f := range r.files {
					kept[i].files[f] = true
				}
				dup = true
				break
			}
		}
		if !dup {
			kept = append(kept, r)
		}
	}
	// A whole directory replaces the files of the same directory.
	whole := map[string]bool{}
	for _, k := range kept {
		if k.files == nil {
			whole[k.resolved] = true
		}
	}
	kept = slices.DeleteFunc(kept, func(k root) bool { return k.files != nil && whole[k.resolved] })
	return &Tools{roots: kept, opts: opts}, nil
}

// Roots returns the directories the tools see, as absolute cleaned paths.
func (t *Tools) Roots() []string {
	out := make([]string, len(t.roots))
	for i, r := range t.roots {
		out[i] = r.path
	}
	return out
}

// maxRootsListed is how many ingested directories a message names before
// it counts the rest: a store ingested folder by folder (a package tree,
// one include pattern per package) has hundreds, and a note or an answer
// that lists them all buries what it says.
const maxRootsListed = 5

// rootList names the directories the tools see for a message: the first
// maxRootsListed of them, and how many more there are.
func (t *Tools) rootList() string {
	roots := t.Roots()
	if len(roots) <= maxRootsListed {
		return strings.Join(roots, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(roots[:maxRootsListed], ", "), len(roots)-maxRootsListed)
}

// within reports whether p is dir or inside it; both are clean absolute paths.
func within(dir, p string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// hasDotDot reports whether a path has a ".." component (names that merely
// start with two dots, like "..notes", are fine).
func hasDotDot(p string) bool {
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if part == ".." {
			return true
		}
	}
	return false
}

// rootOf returns the root a clean absolute path is lexically inside.
func (t *Tools) rootOf(p string) (root, bool) {
	for _, r := range t.roots {
		if r.contains(p) {
			return r, true
		}
	}
	return root{}, false
}

// insideResolved reports whether a fully resolved path is inside a root.
func (t *Tools) insideResolved(p string) bool {
	for _, r := range t.roots {
		if r.containsResolved(p) {
			return true
		}
	}
	return false
}

// Resolve turns a path the user gave — relative to a root, or absolute — into
// the absolute cleaned path inside the roots it names, refusing "..",
// absolute paths elsewhere and symbolic links that leave the roots with an
// error matching ErrOutsideRoots. A path that does not exist wraps
// graphrag.ErrNotFound.
func (t *Tools) Resolve(name string) (string, error) {
	if name == "" {
		return "", &fs.PathError{Op: "resolve", Path: name, Err: fmt.Errorf("%w: empty path", errInvalid)}
	}
	if hasDotDot(name) {
		return "", &fs.PathError{Op: "resolve", Path: name, Err: fmt.Errorf("%w: paths may not use \"..\"", ErrOutsideRoots)}
	}
	var candidates []string
	if filepath.IsAbs(name) {
		p := filepath.Clean(name)
		if _, ok := t.rootOf(p); !ok {
			return "", &fs.PathError{Op: "resolve", Path: name, Err: fmt.Errorf("%w: only %s can be read", ErrOutsideRoots, t.rootList())}
		}
		candidates = []string{p}
	} else {
		for _, r := range t.roots {
			if p := filepath.Join(r.path, name); r.contains(p) {
				candidates = append(candidates, p)
			}
		}
	}
	var firstErr error
	for _, p := range candidates {
		resolved, err := filepath.EvalSymlinks(p)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if !t.insideResolved(resolved) {
			return "", &fs.PathError{Op: "resolve", Path: name, Err: fmt.Errorf("%w: it is a link to %s", ErrOutsideRoots, resolved)}
		}
		return p, nil
	}
	if os.IsNotExist(firstErr) {
		return "", &fs.PathError{Op: "resolve", Path: name, Err: fmt.Errorf("%w: no such file in the ingested directories", errNotFound)}
	}
	return "", &fs.PathError{Op: "resolve", Path: name, Err: firstErr}
}
