package nodes

import (
	"context"
	"regexp"
	"strings"

	"github.com/graphrag/graphrag"
)

// slashPathPattern finds a slash-separated run of lower-case names, the
// way an import path ("net/http", "github.com/acme/tool") or a file-system
// path ("/usr/share/doc") is spelt. Each name starts with a letter, so a
// date ("2024/03/12") or a ratio ("3/4") is none; upper-case pairs
// ("TCP/IP") are acronyms. Word pairs ("and/or", "read/write") have the
// same shape: storePath tells them apart by asking the store.
var slashPathPattern = regexp.MustCompile(`(?:^|[^\w./-])(/?[a-z][a-z0-9_.-]*(?:/[a-z][a-z0-9_.-]*)+)`)

// slashPaths are the lower-case slash paths a question writes, without
// trailing punctuation ("net/http." ends a sentence).
func slashPaths(question string) []string {
	var out []string
	for _, m := range slashPathPattern.FindAllStringSubmatch(question, -1) {
		if p := strings.TrimRight(m[1], ".-"); strings.Contains(strings.Trim(p, "/"), "/") {
			out = append(out, p)
		}
	}
	return out
}

// namesStorePath reports whether the query writes a slash path that names
// a folder or file of the store: its names occur, in order and whole, in
// the path of a stored file ("container/heap" in
// ".../src/container/heap/heap.go"). Such a path is as exact a name of
// something in the files as a qualified identifier, and needs the same
// keyword search; "and/or" names no folder and stays a word pair.
//
// The store is asked with a keyword probe restricted to files whose path
// holds the written one, searching the path's own names: a file in
// "net/http" that never says "net" or "http" is not found, which costs
// the question its keyword search, not its answer.
func (p *pipeline) namesStorePath(ctx context.Context, query string) bool {
	if p.deps.Searcher == nil || !strings.Contains(query, "/") {
		return false
	}
	for _, sp := range slashPaths(query) {
		elems := pathElems(sp)
		res, err := p.probe(ctx, strings.Join(elems, " "), graphrag.Plan{SourceHint: strings.Trim(sp, "/")})
		if err != nil {
			continue
		}
		for _, h := range res.Hits {
			if holdsElems(pathElems(h.Source.Path), elems) {
				return true
			}
		}
	}
	return false
}

// pathElems splits a path into its names, with either separator.
func pathElems(path string) []string {
	return strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' })
}

// holdsElems reports whether elems occur in path as a consecutive run of
// whole names.
func holdsElems(path, elems []string) bool {
	for i := 0; i+len(elems) <= len(path); i++ {
		match := true
		for j, e := range elems {
			if path[i+j] != e {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
