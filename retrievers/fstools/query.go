package fstools

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// CountResult is how many files passed a filter and how big they are.
type CountResult struct {
	Walk
	Files int
	Bytes int64
}

// Count counts the files that pass the filter.
func (t *Tools) Count(ctx context.Context, f Filter) (CountResult, error) {
	m, err := t.compile(f)
	if err != nil {
		return CountResult{}, err
	}
	var res CountResult
	res.Walk, err = t.walk(ctx, m, nil, visitor{file: func(f File) {
		res.Files++
		res.Bytes += f.Size
	}})
	return res, err
}

// SortKey orders a listing.
type SortKey string

const (
	// ByModified orders by modified time (newest first unless Asc).
	ByModified SortKey = "modified"
	// BySize orders by size (largest first unless Asc).
	BySize SortKey = "size"
	// ByName orders by path relative to the root (A to Z unless Desc).
	ByName SortKey = "name"
)

// ListRequest asks for files in an order.
type ListRequest struct {
	Filter
	// SortBy defaults to ByModified.
	SortBy SortKey
	// Asc and Desc override the key's natural order (newest, largest
	// first; names A to Z). Setting both is an error.
	Asc, Desc bool
	// Limit is how many files to return; DefaultLimit when <= 0.
	Limit int
}

// ListResult is a page of files and how many passed the filter in all.
type ListResult struct {
	Walk
	Files []File
	// Total and Bytes count every file that passed the filter, listed or not.
	Total int
	Bytes int64
}

// List returns files sorted by modified time, size or name.
func (t *Tools) List(ctx context.Context, req ListRequest) (ListResult, error) {
	if req.Asc && req.Desc {
		return ListResult{}, fmt.Errorf("fstools: list: %w: ask for ascending or descending order, not both", errInvalid)
	}
	key := req.SortBy
	if key == "" {
		key = ByModified
	}
	var less func(a, b File) bool
	switch key {
	case ByModified:
		less = func(a, b File) bool { return a.ModTime.After(b.ModTime) }
	case BySize:
		less = func(a, b File) bool { return a.Size > b.Size }
	case ByName:
		less = func(a, b File) bool { return strings.ToLower(a.Rel) < strings.ToLower(b.Rel) }
	default:
		return ListResult{}, fmt.Errorf("fstools: list: sort key %q: %w: use modified, size or name", key, errInvalid)
	}
	if key == ByName && req.Desc || key != ByName && req.Asc {
		natural := less
		less = func(a, b File) bool { return natural(b, a) }
	}
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	m, err := t.compile(req.Filter)
	if err != nil {
		return ListResult{}, err
	}
	// Ties break on the path so results are deterministic.
	cmp := func(a, b File) bool {
		if less(a, b) {
			return true
		}
		if less(b, a) {
			return false
		}
		return a.Path < b.Path
	}
	top := newTopK(limit, cmp)
	var res ListResult
	res.Walk, err = t.walk(ctx, m, nil, visitor{file: func(f File) {
		res.Total++
		res.Bytes += f.Size
		top.add(f)
	}})
	res.Files = top.sorted()
	return res, err
}

// Find returns the files whose name matches pattern — a glob ("*.pdf",
// "report-202?-*") or else a substring, case-insensitive — sorted by name,
// together with the filter's other conditions.
func (t *Tools) Find(ctx context.Context, pattern string, f Filter, limit int) (ListResult, error) {
	if strings.TrimSpace(pattern) == "" {
		return ListResult{}, fmt.Errorf("fstools: find: %w: give a name or pattern to look for", errInvalid)
	}
	f.Name = pattern
	return t.List(ctx, ListRequest{Filter: f, SortBy: ByName, Limit: limit})
}

// topK keeps the k best files by cmp with bounded memory.
type topK struct {
	k     int
	cmp   func(a, b File) bool
	items []File
}

func newTopK(k int, cmp func(a, b File) bool) *topK { return &topK{k: k, cmp: cmp} }

func (t *topK) add(f File) {
	if len(t.items) < 2*t.k+16 {
		t.items = append(t.items, f)
		return
	}
	// Compact: sort and keep the best k, amortised O(log) per add.
	t.items = append(t.items, f)
	sort.Slice(t.items, func(i, j int) bool { return t.cmp(t.items[i], t.items[j]) })
	t.items = t.items[:t.k]
}

func (t *topK) sorted() []File {
	sort.Slice(t.items, func(i, j int) bool { return t.cmp(t.items[i], t.items[j]) })
	if len(t.items) > t.k {
		t.items = t.items[:t.k]
	}
	return t.items
}
