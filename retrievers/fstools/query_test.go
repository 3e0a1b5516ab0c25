package fstools

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
)

func rels(files []File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Rel
	}
	return out
}

func TestCount(t *testing.T) {
	root, _ := fixture(t)
	tools := newTools(t, root)
	tests := []struct {
		name      string
		filter    Filter
		wantFiles int
		wantBytes int64
	}{
		{name: "everything", filter: Filter{}, wantFiles: 19},
		{name: "pdf", filter: Filter{Types: []string{"pdf"}}, wantFiles: 4, wantBytes: 2000 + 500 + 700 + 2000},
		{name: "pdfs synonym", filter: Filter{Types: []string{"PDFs"}}, wantFiles: 4},
		{name: "dotted and starred", filter: Filter{Types: []string{".pdf", "*.md"}}, wantFiles: 5},
		{name: "images", filter: Filter{Types: []string{"images"}}, wantFiles: 3, wantBytes: 170_000},
		{name: "jpeg means jpg too", filter: Filter{Types: []string{"jpeg"}}, wantFiles: 2},
		{name: "upper-case extension on disk", filter: Filter{Types: []string{"png"}}, wantFiles: 1},
		{name: "spreadsheets", filter: Filter{Types: []string{"spreadsheets"}}, wantFiles: 1},
		{name: "code", filter: Filter{Types: []string{"code"}}, wantFiles: 2},
		{name: "documents", filter: Filter{Types: []string{"documents"}}, wantFiles: 4 + 1 + 6},
		{name: "no extension", filter: Filter{Types: []string{"nope"}}, wantFiles: 0},
		{name: "today", filter: Filter{Window: graphrag.TimeToday}, wantFiles: 5},
		{name: "this week", filter: Filter{Window: graphrag.TimeThisWeek}, wantFiles: 13},
		{name: "this month", filter: Filter{Window: graphrag.TimeThisMonth}, wantFiles: 15},
		{name: "pdfs today", filter: Filter{Types: []string{"pdf"}, Window: graphrag.TimeToday}, wantFiles: 2},
		{name: "since", filter: Filter{Since: clock.Add(-4 * time.Hour)}, wantFiles: 4},
		{name: "until", filter: Filter{Until: clock.Add(-100 * 24 * time.Hour)}, wantFiles: 2},
		{name: "since and window intersect", filter: Filter{Window: graphrag.TimeThisWeek, Since: clock.Add(-2 * time.Hour)}, wantFiles: 3},
		{name: "min size", filter: Filter{MinSize: 20_000}, wantFiles: 3},
		{name: "size range", filter: Filter{MinSize: 1000, MaxSize: 20_000}, wantFiles: 4},
		{name: "empty files", filter: Filter{MaxSize: -1}, wantFiles: 1},
		{name: "name glob", filter: Filter{Name: "*REPORT*"}, wantFiles: 2},
		{name: "path glob", filter: Filter{Name: "docs/*.pdf"}, wantFiles: 2},
		{name: "source", filter: Filter{Source: "Photos"}, wantFiles: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tools.Count(context.Background(), tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			if res.Files != tc.wantFiles {
				t.Errorf("Files = %d, want %d", res.Files, tc.wantFiles)
			}
			if tc.wantBytes != 0 && res.Bytes != tc.wantBytes {
				t.Errorf("Bytes = %d, want %d", res.Bytes, tc.wantBytes)
			}
		})
	}
	t.Run("bad window", func(t *testing.T) {
		_, err := tools.Count(context.Background(), Filter{Window: "next_year"})
		if !errors.Is(err, graphrag.ErrInvalidQuery) {
			t.Fatalf("err = %v, want ErrInvalidQuery", err)
		}
	})
	t.Run("bad glob", func(t *testing.T) {
		_, err := tools.Count(context.Background(), Filter{Name: "[a"})
		if !errors.Is(err, graphrag.ErrInvalidQuery) {
			t.Fatalf("err = %v, want ErrInvalidQuery", err)
		}
	})
}

func TestList(t *testing.T) {
	root, _ := fixture(t)
	tools := newTools(t, root)
	tests := []struct {
		name      string
		req       ListRequest
		want      []string
		wantTotal int
		wantErr   error
	}{
		{name: "newest", req: ListRequest{Limit: 3}, want: []string{"code/util.py", "docs/report.pdf", "link-inside.pdf"}, wantTotal: 19},
		{name: "oldest", req: ListRequest{Asc: true, Limit: 2}, want: []string{"photos/2025/beach.jpeg", "docs/archive/2025/summary.pdf"}, wantTotal: 19},
		{name: "largest", req: ListRequest{SortBy: BySize, Limit: 3}, want: []string{"photos/2025/beach.jpeg", "photos/cat.jpg", "photos/dog.PNG"}, wantTotal: 19},
		{name: "smallest", req: ListRequest{SortBy: BySize, Asc: true, Limit: 3}, want: []string{"empty.log", "hostile/with space.txt", "hostile/ünïcödé 文件.txt"}, wantTotal: 19},
		{name: "by name", req: ListRequest{SortBy: ByName, Limit: 3}, want: []string{"code/main.go", "code/util.py", "docs/archive/2025/summary.pdf"}, wantTotal: 19},
		{name: "by name descending", req: ListRequest{SortBy: ByName, Desc: true, Limit: 2}, want: []string{"README", "photos/dog.PNG"}, wantTotal: 19},
		{name: "pdfs by size", req: ListRequest{Filter: Filter{Types: []string{"pdf"}}, SortBy: BySize}, want: []string{"docs/report.pdf", "link-inside.pdf", "docs/archive/2025/summary.pdf", "docs/old-report.pdf"}, wantTotal: 4},
		{name: "default limit", req: ListRequest{}, wantTotal: 19},
		{name: "nothing matches", req: ListRequest{Filter: Filter{Types: []string{"mp3"}}}, want: []string{}, wantTotal: 0},
		{name: "both orders", req: ListRequest{Asc: true, Desc: true}, wantErr: graphrag.ErrInvalidQuery},
		{name: "bad key", req: ListRequest{SortBy: "colour"}, wantErr: graphrag.ErrInvalidQuery},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tools.List(context.Background(), tc.req)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Total != tc.wantTotal {
				t.Errorf("Total = %d, want %d", res.Total, tc.wantTotal)
			}
			if tc.want == nil {
				if len(res.Files) != DefaultLimit {
					t.Errorf("got %d files, want the default %d", len(res.Files), DefaultLimit)
				}
				return
			}
			if got := rels(res.Files); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("paths are absolute and clean", func(t *testing.T) {
		res, err := tools.List(context.Background(), ListRequest{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			if !filepath.IsAbs(f.Path) || filepath.Clean(f.Path) != f.Path || f.Path != filepath.Join(root, filepath.FromSlash(f.Rel)) {
				t.Errorf("path %q (rel %q) is not the absolute cleaned path", f.Path, f.Rel)
			}
		}
	})
	t.Run("top-k equals a full sort", func(t *testing.T) {
		full, err := tools.List(context.Background(), ListRequest{SortBy: BySize, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= 19; k++ {
			res, err := tools.List(context.Background(), ListRequest{SortBy: BySize, Limit: k})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rels(res.Files), rels(full.Files[:k])) {
				t.Fatalf("k=%d: %q, want %q", k, rels(res.Files), rels(full.Files[:k]))
			}
		}
	})
}

func TestFind(t *testing.T) {
	root, _ := fixture(t)
	tools := newTools(t, root)
	tests := []struct {
		name    string
		pattern string
		filter  Filter
		want    []string
		wantErr error
	}{
		{name: "substring", pattern: "report", want: []string{"docs/old-report.pdf", "docs/report.pdf"}},
		{name: "case-insensitive", pattern: "REPORT.PDF", want: []string{"docs/old-report.pdf", "docs/report.pdf"}},
		{name: "glob", pattern: "*.PDF", want: []string{"docs/archive/2025/summary.pdf", "docs/old-report.pdf", "docs/report.pdf", "link-inside.pdf"}},
		{name: "glob prefix", pattern: "c*", want: []string{"photos/cat.jpg"}},
		{name: "path glob", pattern: "photos/*", want: []string{"photos/cat.jpg", "photos/dog.PNG"}},
		{name: "unicode", pattern: "文件", want: []string{"hostile/ünïcödé 文件.txt"}},
		{name: "leading dash is a name, not a flag", pattern: "-leading", want: []string{"hostile/-leading-dash.txt"}},
		{name: "quotes", pattern: `quote"d'`, want: []string{"hostile/quote\"d'.txt"}},
		{name: "newline", pattern: "new\nline", want: []string{"hostile/new\nline.txt"}},
		{name: "literal glob characters", pattern: escapeGlob("*glob?[x].txt"), want: []string{"hostile/*glob?[x].txt"}},
		{name: "with a filter", pattern: "report", filter: Filter{Window: graphrag.TimeToday}, want: []string{"docs/report.pdf"}},
		{name: "no match", pattern: "zebra", want: []string{}},
		{name: "empty pattern", pattern: " ", wantErr: graphrag.ErrInvalidQuery},
		{name: "bad glob", pattern: "[", wantErr: graphrag.ErrInvalidQuery},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tools.Find(context.Background(), tc.pattern, tc.filter, 20)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := rels(res.Files); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
