package fstools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
)

// benchTree writes n small files over 10×10 folders with spread-out
// modified times and a mix of types.
func benchTree(b *testing.B, n int) *Tools {
	b.Helper()
	root := b.TempDir()
	exts := []string{"pdf", "md", "txt", "go", "jpg", "csv", "docx", "png"}
	for i := 0; i < n; i++ {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", i%10), fmt.Sprintf("s%02d", (i/10)%10))
		if i < 100 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		p := filepath.Join(dir, fmt.Sprintf("file-%05d.%s", i, exts[i%len(exts)]))
		if err := os.WriteFile(p, make([]byte, i%4096), 0o644); err != nil {
			b.Fatal(err)
		}
		mt := clock.Add(-time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, mt, mt); err != nil {
			b.Fatal(err)
		}
	}
	return newTools(b, root)
}

func BenchmarkTools(b *testing.B) {
	tools := benchTree(b, 20_000)
	ctx := context.Background()
	cases := []struct {
		name string
		run  func() error
	}{
		{"Count/20k", func() error {
			_, err := tools.Count(ctx, Filter{Types: []string{"pdf"}, Window: graphrag.TimeThisWeek})
			return err
		}},
		{"ListBySize/20k", func() error { _, err := tools.List(ctx, ListRequest{SortBy: BySize, Limit: 10}); return err }},
		{"Tree/20k", func() error { _, err := tools.Tree(ctx, TreeRequest{Depth: 2}); return err }},
		{"FolderSizes/20k", func() error { _, err := tools.FolderSizes(ctx, FolderRequest{Depth: 2}); return err }},
		{"Answer/20k", func() error {
			_, _, err := tools.Answer(ctx, graphrag.Plan{Query: "what are the 5 largest PDFs I changed this month?"})
			return err
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkInterpret(b *testing.B) {
	tools := newTools(b, b.TempDir())
	plan := graphrag.Plan{Query: "Find all regular files in and below the home directory that have been modified in the last 90 minutes and are bigger than 2MB"}
	b.ReportAllocs()
	for b.Loop() {
		tools.Interpret(plan)
	}
}
