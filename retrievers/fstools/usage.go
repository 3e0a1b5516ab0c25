package fstools

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// FolderRequest asks for folder sizes.
type FolderRequest struct {
	Filter
	// Dir is where to start (every root when empty).
	Dir string
	// Depth is how many levels of folders below Dir to report (1 when
	// <= 0): each folder's totals include everything below it.
	Depth int
	// SortBy is BySize (default: largest first), ByName, or "files" (most
	// files first).
	SortBy SortKey
	// Limit is how many folders to return (DefaultLimit when <= 0).
	Limit int
}

// ByFiles orders folders by how many files they hold.
const ByFiles SortKey = "files"

// FolderStat is one folder's totals (recursive).
type FolderStat struct {
	Path, Rel string
	Files     int
	Bytes     int64
}

// FolderResult lists folders and the total over everything walked.
type FolderResult struct {
	Walk
	Folders []FolderStat
	// Folders counts all folders found at the requested depth.
	Total int
	// Files and Bytes total every file that passed the filter.
	Files int
	Bytes int64
}

// FolderSizes reports the size and file count of each folder up to a depth
// below Dir, with everything inside it counted.
func (t *Tools) FolderSizes(ctx context.Context, req FolderRequest) (FolderResult, error) {
	depth := max(req.Depth, 1)
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	m, err := t.compile(req.Filter)
	if err != nil {
		return FolderResult{}, err
	}
	starts, err := t.starts(req.Dir)
	if err != nil {
		return FolderResult{}, fmt.Errorf("fstools: folder sizes: %w", err)
	}
	var res FolderResult
	stats := map[string]*FolderStat{}
	for _, start := range starts {
		r, _ := t.rootOf(start)
		base := relTo(r, start)
		levels := func(rel string) int { return depthOf(rel) - depthOf(base) }
		w, err := t.walk(ctx, m, []string{start}, visitor{
			dir: func(_ root, rel string, _ int) {
				if l := levels(rel); l >= 1 && l <= depth {
					p := joinRoot(r, rel)
					stats[p] = &FolderStat{Path: p, Rel: rel}
				}
			},
			file: func(f File) {
				res.Files++
				res.Bytes += f.Size
				for dir := parentRel(f.Rel); levels(dir) >= 1; dir = parentRel(dir) {
					if levels(dir) > depth {
						continue
					}
					if s, ok := stats[joinRoot(r, dir)]; ok {
						s.Files++
						s.Bytes += f.Size
					}
				}
			},
		})
		res.Walk = mergeWalk(res.Walk, w)
		if err != nil {
			return res, err
		}
	}
	all := make([]FolderStat, 0, len(stats))
	for _, s := range stats {
		if !m.isZero() && s.Files == 0 {
			continue
		}
		all = append(all, *s)
	}
	var less func(a, b FolderStat) bool
	switch req.SortBy {
	case "", BySize:
		less = func(a, b FolderStat) bool { return a.Bytes > b.Bytes }
	case ByFiles:
		less = func(a, b FolderStat) bool { return a.Files > b.Files }
	case ByName:
		less = func(a, b FolderStat) bool { return strings.ToLower(a.Rel) < strings.ToLower(b.Rel) }
	default:
		return FolderResult{}, fmt.Errorf("fstools: folder sizes: sort key %q: %w: use size, files or name", req.SortBy, errInvalid)
	}
	sort.Slice(all, func(i, j int) bool {
		if less(all[i], all[j]) {
			return true
		}
		if less(all[j], all[i]) {
			return false
		}
		return all[i].Path < all[j].Path
	})
	res.Total = len(all)
	if len(all) > limit {
		all = all[:limit]
	}
	res.Folders = all
	return res, nil
}

// TypeUsage is how much one file type takes.
type TypeUsage struct {
	// Type is the extension without a dot, "" for files without one.
	Type  string
	Files int
	Bytes int64
	// Largest is the type's largest file.
	Largest File
}

// UsageResult is disk usage by file type, largest first.
type UsageResult struct {
	Walk
	Types []TypeUsage
	Files int
	Bytes int64
}

// UsageByType totals bytes and file counts per file type.
func (t *Tools) UsageByType(ctx context.Context, f Filter) (UsageResult, error) {
	m, err := t.compile(f)
	if err != nil {
		return UsageResult{}, err
	}
	by := map[string]*TypeUsage{}
	var res UsageResult
	res.Walk, err = t.walk(ctx, m, nil, visitor{file: func(f File) {
		u, ok := by[f.Type]
		if !ok {
			u = &TypeUsage{Type: f.Type}
			by[f.Type] = u
		}
		u.Files++
		u.Bytes += f.Size
		if u.Files == 1 || f.Size > u.Largest.Size || f.Size == u.Largest.Size && f.Path < u.Largest.Path {
			u.Largest = f
		}
		res.Files++
		res.Bytes += f.Size
	}})
	for _, u := range by {
		res.Types = append(res.Types, *u)
	}
	sort.Slice(res.Types, func(i, j int) bool {
		a, b := res.Types[i], res.Types[j]
		if a.Bytes != b.Bytes {
			return a.Bytes > b.Bytes
		}
		return a.Type < b.Type
	})
	return res, err
}
