package nodes

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// docStore is an SQLite store holding one chunk per path, of the kind
// kindOf gives it (nil: plain text).
func docStore(tb testing.TB, docs map[string]string, kindOf func(path, text string) string) *sqlite.Store {
	tb.Helper()
	var recs []graphrag.Record
	for path, body := range docs {
		kind := ""
		if kindOf != nil {
			kind = kindOf(path, body)
		}
		rec := fileRecord(path)
		rec.Chunks = []graphrag.Chunk{{ID: graphrag.ChunkID(path, 0), DocID: path, Text: body, Kind: kind}}
		recs = append(recs, rec)
	}
	return recordStore(tb, recs)
}

// fileRecord is the record of the file at path, without chunks.
func fileRecord(path string) graphrag.Record {
	return graphrag.Record{Doc: graphrag.Document{ID: path, Path: path, Title: filepath.Base(path), Type: strings.TrimPrefix(filepath.Ext(path), "."),
		ModTime: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), Hash: path}}
}

// recordStore is an SQLite store holding recs, closed when the test ends.
func recordStore(tb testing.TB, recs []graphrag.Record) *sqlite.Store {
	tb.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(tb.TempDir(), "docs.db"), sqlite.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	if err := st.Put(ctx, recs...); err != nil {
		tb.Fatal(err)
	}
	return st
}

// TestAQuestionAboutAProgramsFileReadsTheFiles: a question that names a
// file the way a manual speaks of a program's output ("the output file go
// tool link writes") is answered from the manual, not by the file tools,
// when one passage holds its other words. Questions that ask for files, or
// for what only the file tools know, stay with them.
func TestAQuestionAboutAProgramsFileReadsTheFiles(t *testing.T) {
	st := docStore(t, map[string]string{
		"/go/src/cmd/link/doc.go":   "/*\nLink, typically invoked as \"go tool link\", reads the Go archive or object\nfor a package main, along with its dependencies, and combines them\ninto an executable binary.\n\nFlags:\n\n\t-extldflags flags\n\t\tSet space-separated flags to pass to the external linker.\n\t-o file\n\t\tWrite output to file (default a.out, or a.out.exe on Windows).\n\t-s\n\t\tOmit the symbol table and debug information.\n*/\npackage main",
		"/go/src/cmd/pack/doc.go":   "/*\nPack is a simple version of the traditional Unix ar tool.\nIt implements only the operations needed by Go.\n*/\npackage main",
		"/go/src/os/file.go":        "// Package os provides a platform-independent interface to operating system\n// functionality.\npackage os\n\n// Create creates or truncates the named file.\nfunc Create(name string) (*File, error)",
		"/go/src/cmd/go/alldocs.go": "// Go is a tool for managing Go source code.\n//\n// Usage:\n//\n//\tgo <command> [arguments]\npackage main",
	}, nil)
	r, err := Build(Deps{Searcher: st}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	q := "What's the name of the output file go tool link writes when I don't pass -o?"
	s, err := r.Invoke(ctx, State{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	if !isLocal(s.Plan.Route) || s.Answer.Abstained || !strings.Contains(s.Answer.Text, "a.out") {
		t.Errorf("%q: route %s (%s), answer %q: want link's manual saying a.out", q, s.Plan.Route, s.Plan.Reason, s.Answer.Text)
	}
	// With the file tools configured, questions for files go to them.
	p, err := newPipeline(Deps{Searcher: st, Tools: &fakeTools{}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"which files talk about the linker", "how many files in the cmd folder were modified this week"} {
		plan, _, _, err := p.plan(ctx, q, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		if plan.Route != graphrag.RouteFilesystem {
			t.Errorf("%q: route %s (%s), want filesystem", q, plan.Route, plan.Reason)
		}
	}
}
