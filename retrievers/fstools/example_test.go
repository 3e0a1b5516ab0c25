package fstools_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/fstools"
)

func ExampleTools_Answer() {
	dir, err := os.MkdirTemp("", "fstools-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	now := time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)
	for name, age := range map[string]time.Duration{
		"invoices/march.pdf": 2 * time.Hour,
		"invoices/april.pdf": 30 * 24 * time.Hour,
		"notes/ideas.md":     time.Hour,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, 1536), 0o644); err != nil {
			log.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			log.Fatal(err)
		}
	}

	tools, err := fstools.New([]string{dir}, fstools.Options{Now: func() time.Time { return now }})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	text, hits, err := tools.Answer(ctx, graphrag.Plan{Query: "how many PDFs do I have?"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(text)
	fmt.Println(len(hits), "hits; first:", filepath.Base(hits[0].Source.DocID))

	// Hybrid with tools: the DocIDs to narrow a search to.
	ids, err := tools.Select(ctx, graphrag.Plan{FileTypes: []string{"pdf"}, Time: graphrag.TimeThisWeek})
	if err != nil {
		log.Fatal(err)
	}
	for _, id := range ids {
		rel, _ := filepath.Rel(dir, id)
		fmt.Println("select:", filepath.ToSlash(rel))
	}

	_, err = tools.Stat(ctx, "../etc/passwd")
	fmt.Println(errors.Is(err, fstools.ErrOutsideRoots))
	// Output:
	// 2 files of type pdfs (3.00 KB in all). They are: invoices/march.pdf, invoices/april.pdf.
	// 2 hits; first: march.pdf
	// select: invoices/march.pdf
	// true
}
