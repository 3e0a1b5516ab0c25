package fstools

import (
	"context"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
)

// Defaults for TreeRequest and FolderRequest fields left zero.
const (
	DefaultTreeDepth   = 2
	DefaultMaxChildren = 25
)

// TreeRequest asks for a directory tree.
type TreeRequest struct {
	Filter
	// Dir is where to start: a path relative to a root or absolute inside
	// the roots; every root when empty.
	Dir string
	// Depth is how many levels below Dir to show (DefaultTreeDepth when
	// <= 0). Deeper content still counts in the totals.
	Depth int
	// MaxChildren bounds the entries shown per directory
	// (DefaultMaxChildren when <= 0); the rest are summarised as Omitted.
	MaxChildren int
	// DirsOnly leaves files out of the shown entries (they still count).
	DirsOnly bool
}

// TreeNode is a directory (or a file) in a tree.
type TreeNode struct {
	Name string
	// Path is absolute and cleaned; Rel is relative to the root.
	Path, Rel string
	Dir       bool
	// Files and Bytes total the regular files under a directory that pass
	// the filter (at every depth); for a file, Files is 1.
	Files int
	Bytes int64
	// Children are sorted: directories first, then by name.
	Children []*TreeNode
	// Omitted counts the entries left out past MaxChildren. What lies below
	// the depth limit is not listed but counts in Files and Bytes.
	Omitted int
}

// TreeResult holds one tree per starting directory.
type TreeResult struct {
	Walk
	Trees []*TreeNode
}

// Tree returns the directory structure to a depth, with file counts and
// sizes per directory. With a filter, directories with no matching file are
// left out.
func (t *Tools) Tree(ctx context.Context, req TreeRequest) (TreeResult, error) {
	depth := req.Depth
	if depth <= 0 {
		depth = DefaultTreeDepth
	}
	maxChildren := req.MaxChildren
	if maxChildren <= 0 {
		maxChildren = DefaultMaxChildren
	}
	m, err := t.compile(req.Filter)
	if err != nil {
		return TreeResult{}, err
	}
	starts, err := t.starts(req.Dir)
	if err != nil {
		return TreeResult{}, fmt.Errorf("fstools: tree: %w", err)
	}
	var res TreeResult
	for _, start := range starts {
		r, _ := t.rootOf(start)
		base := relTo(r, start)
		top := &TreeNode{Name: displayRoot(r, base), Path: start, Rel: base, Dir: true}
		nodes := map[string]*TreeNode{base: top}
		// node returns the tree node for a directory rel path within the
		// depth limit, creating it and its parents.
		var node func(rel string) *TreeNode
		node = func(rel string) *TreeNode {
			if n, ok := nodes[rel]; ok {
				return n
			}
			parent := node(parentRel(rel))
			n := &TreeNode{Name: path.Base(rel), Path: joinRoot(r, rel), Rel: rel, Dir: true}
			parent.Children = append(parent.Children, n)
			nodes[rel] = n
			return n
		}
		levels := func(rel string) int { return depthOf(rel) - depthOf(base) }
		w, err := t.walk(ctx, m, []string{start}, visitor{
			dir: func(_ root, rel string, _ int) {
				if rel != base && levels(rel) <= depth && m.isZero() {
					node(rel)
				}
			},
			file: func(f File) {
				dir := parentRel(f.Rel)
				// Count the file in every shown ancestor.
				anc := dir
				for levels(anc) > depth {
					anc = parentRel(anc)
				}
				n := node(anc)
				for x := n; ; {
					x.Files++
					x.Bytes += f.Size
					if x.Rel == base {
						break
					}
					x = nodes[parentRel(x.Rel)]
				}
				if levels(f.Rel) <= depth && !req.DirsOnly {
					n.Children = append(n.Children, &TreeNode{Name: f.Name, Path: f.Path, Rel: f.Rel, Files: 1, Bytes: f.Size})
				}
			},
		})
		res.Walk = mergeWalk(res.Walk, w)
		if err != nil {
			return res, err
		}
		prune(top, maxChildren)
		res.Trees = append(res.Trees, top)
	}
	return res, nil
}

// prune sorts children (directories first, then by name) and drops the ones
// past maxChildren into Omitted.
func prune(n *TreeNode, maxChildren int) {
	sort.Slice(n.Children, func(i, j int) bool {
		a, b := n.Children[i], n.Children[j]
		if a.Dir != b.Dir {
			return a.Dir
		}
		return strings.ToLower(a.Name) < strings.ToLower(b.Name)
	})
	if len(n.Children) > maxChildren {
		n.Omitted += len(n.Children) - maxChildren
		n.Children = n.Children[:maxChildren]
	}
	for _, c := range n.Children {
		if c.Dir {
			prune(c, maxChildren)
		}
	}
}

// starts resolves a starting directory, or returns every root.
func (t *Tools) starts(dir string) ([]string, error) {
	if dir == "" || dir == "." {
		return t.Roots(), nil
	}
	p, err := t.Resolve(dir)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: %w: not a directory", dir, errInvalid)
	}
	return []string{p}, nil
}

func (m *matcher) isZero() bool {
	return m.types == nil && m.since.IsZero() && m.until.IsZero() && m.minSize == 0 && m.maxSize == 0 && m.name == "" && m.source == ""
}

func parentRel(rel string) string {
	d := path.Dir(rel)
	return d
}

func joinRoot(r root, rel string) string {
	if rel == "." {
		return r.path
	}
	return r.path + string(os.PathSeparator) + strings.ReplaceAll(rel, "/", string(os.PathSeparator))
}

func displayRoot(r root, rel string) string {
	if rel == "." {
		return r.path
	}
	return rel
}

func mergeWalk(a, b Walk) Walk {
	a.Visited += b.Visited
	a.Truncated = a.Truncated || b.Truncated
	a.SkippedCount += b.SkippedCount
	for _, s := range b.Skipped {
		if len(a.Skipped) < maxSkipped {
			a.Skipped = append(a.Skipped, s)
		}
	}
	return a
}
