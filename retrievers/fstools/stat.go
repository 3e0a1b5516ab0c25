package fstools

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Kind is what a path is.
type Kind string

const (
	KindFile    Kind = "file"
	KindDir     Kind = "directory"
	KindSymlink Kind = "symlink"
	KindOther   Kind = "other"
)

// Info is a path's metadata.
type Info struct {
	File
	Kind Kind
	// Created is the birth time where the OS records it (statx on Linux,
	// stat on macOS); CreatedKnown is false otherwise and Created is zero.
	Created      time.Time
	CreatedKnown bool
	Mode         fs.FileMode
	// Target is a symbolic link's resolved target (inside the roots).
	Target string
	// Files and Bytes count the regular files inside a directory
	// (recursively, like Count); zero for files.
	Files int
	Bytes int64
	Walk  Walk
}

// Stat returns the metadata of a path relative to a root or absolute inside
// the roots. Paths outside, with "..", or links leaving the roots are refused
// (ErrOutsideRoots); a missing path wraps graphrag.ErrNotFound. For a
// directory, Files and Bytes total its contents.
func (t *Tools) Stat(ctx context.Context, name string) (Info, error) {
	p, err := t.Resolve(name)
	if err != nil {
		return Info{}, fmt.Errorf("fstools: stat: %w", err)
	}
	lfi, err := os.Lstat(p)
	if err != nil {
		return Info{}, fmt.Errorf("fstools: stat: %w", err)
	}
	r, _ := t.rootOf(p)
	info := Info{File: File{Path: p, Root: r.path, Rel: relTo(r, p), Name: filepath.Base(p), Type: FileType(p)}}
	target := p
	if lfi.Mode()&fs.ModeSymlink != 0 {
		info.Kind = KindSymlink
		info.Link = true
		if target, err = filepath.EvalSymlinks(p); err != nil {
			return Info{}, fmt.Errorf("fstools: stat %s: %w", name, err)
		}
		info.Target = target
	}
	fi, err := os.Stat(target)
	if err != nil {
		return Info{}, fmt.Errorf("fstools: stat: %w", err)
	}
	info.Size, info.ModTime, info.Mode = fi.Size(), fi.ModTime(), fi.Mode()
	info.Created, info.CreatedKnown = birthTime(target)
	switch {
	case fi.IsDir():
		if info.Kind == "" {
			info.Kind = KindDir
		}
		info.Type = ""
		if info.Kind == KindDir { // a linked directory is not walked
			c, err := t.countUnder(ctx, p)
			if err != nil {
				return Info{}, err
			}
			info.Files, info.Bytes, info.Walk = c.Files, c.Bytes, c.Walk
		}
	case fi.Mode().IsRegular():
		if info.Kind == "" {
			info.Kind = KindFile
		}
	default:
		info.Kind = KindOther
	}
	return info, nil
}

func (t *Tools) countUnder(ctx context.Context, dir string) (CountResult, error) {
	var res CountResult
	var err error
	res.Walk, err = t.walk(ctx, nil, []string{dir}, visitor{file: func(f File) {
		res.Files++
		res.Bytes += f.Size
	}})
	return res, err
}
