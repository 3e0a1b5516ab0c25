package fstools

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestStat(t *testing.T) {
	root, _ := fixture(t)
	tools := newTools(t, root)
	ctx := context.Background()
	tests := []struct {
		name      string
		path      string
		wantKind  Kind
		wantSize  int64
		wantType  string
		wantFiles int
		wantErr   error
	}{
		{name: "file", path: "docs/report.pdf", wantKind: KindFile, wantSize: 2000, wantType: "pdf"},
		{name: "upper-case extension", path: "photos/dog.PNG", wantKind: KindFile, wantSize: 20_000, wantType: "png"},
		{name: "no extension", path: "README", wantKind: KindFile, wantSize: 50, wantType: ""},
		{name: "directory counts its files", path: "docs", wantKind: KindDir, wantFiles: 5},
		{name: "link inside", path: "link-inside.pdf", wantKind: KindSymlink, wantSize: 2000, wantType: "pdf"},
		{name: "hostile newline", path: "hostile/new\nline.txt", wantKind: KindFile, wantSize: 13, wantType: "txt"},
		{name: "dot-dot look-alike", path: "hostile/..dotdot.txt", wantKind: KindFile, wantSize: 16, wantType: "txt"},
		{name: "outside", path: "../outside/secret.txt", wantErr: ErrOutsideRoots},
		{name: "link outside", path: "link-outside.txt", wantErr: ErrOutsideRoots},
		{name: "missing", path: "nope.txt", wantErr: errNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info, err := tools.Stat(ctx, tc.path)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if info.Kind != tc.wantKind || info.Type != tc.wantType || tc.wantKind != KindDir && info.Size != tc.wantSize {
				t.Errorf("got kind %s type %q size %d, want %s %q %d", info.Kind, info.Type, info.Size, tc.wantKind, tc.wantType, tc.wantSize)
			}
			if info.Files != tc.wantFiles {
				t.Errorf("Files = %d, want %d", info.Files, tc.wantFiles)
			}
			if info.CreatedKnown == info.Created.IsZero() {
				t.Errorf("CreatedKnown %v but Created %v", info.CreatedKnown, info.Created)
			}
			if info.CreatedKnown && info.Created.After(time.Now().Add(time.Minute)) {
				t.Errorf("Created %v is in the future", info.Created)
			}
		})
	}
	t.Run("modified time is the file's", func(t *testing.T) {
		info, err := tools.Stat(ctx, "docs/notes.md")
		if err != nil {
			t.Fatal(err)
		}
		if want := clock.Add(-48 * time.Hour); !info.ModTime.Equal(want) {
			t.Errorf("ModTime = %v, want %v", info.ModTime, want)
		}
	})
	t.Run("link target is reported", func(t *testing.T) {
		info, err := tools.Stat(ctx, "link-inside.pdf")
		if err != nil {
			t.Fatal(err)
		}
		want, _ := filepath.EvalSymlinks(filepath.Join(root, "docs", "report.pdf"))
		if info.Target != want {
			t.Errorf("Target = %q, want %q", info.Target, want)
		}
	})
}

func childNames(n *TreeNode) []string {
	var out []string
	for _, c := range n.Children {
		out = append(out, c.Name)
	}
	return out
}

func TestTree(t *testing.T) {
	root, _ := fixture(t)
	tools := newTools(t, root)
	ctx := context.Background()
	t.Run("depth one", func(t *testing.T) {
		res, err := tools.Tree(ctx, TreeRequest{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Trees) != 1 {
			t.Fatalf("%d trees, want 1", len(res.Trees))
		}
		top := res.Trees[0]
		want := []string{"code", "docs", "hostile", "photos", "empty.log", "link-inside.pdf", "README"}
		if got := childNames(top); !slices.Equal(got, want) {
			t.Errorf("children %q, want %q", got, want)
		}
		if top.Files != 19 {
			t.Errorf("top Files = %d, want 19", top.Files)
		}
		for _, c := range top.Children {
			if c.Dir && len(c.Children) != 0 {
				t.Errorf("%s has children below the depth limit", c.Name)
			}
			if c.Name == "docs" && (c.Files != 5 || c.Bytes != 2000+500+100+3000+700) {
				t.Errorf("docs: %d files %d bytes", c.Files, c.Bytes)
			}
		}
	})
	t.Run("depth two shows nested folders and counts deeper files", func(t *testing.T) {
		res, err := tools.Tree(ctx, TreeRequest{Depth: 2, Dir: "docs"})
		if err != nil {
			t.Fatal(err)
		}
		top := res.Trees[0]
		if top.Name != "docs" || top.Files != 5 {
			t.Fatalf("top %q with %d files", top.Name, top.Files)
		}
		archive := top.Children[0]
		if archive.Name != "archive" || !archive.Dir || archive.Files != 1 {
			t.Fatalf("first child %+v, want archive/ with 1 file", archive)
		}
		if got := childNames(archive); !slices.Equal(got, []string{"2025"}) {
			t.Errorf("archive children %q", got)
		}
	})
	t.Run("max children truncates with a count", func(t *testing.T) {
		res, err := tools.Tree(ctx, TreeRequest{Depth: 1, MaxChildren: 2})
		if err != nil {
			t.Fatal(err)
		}
		top := res.Trees[0]
		if len(top.Children) != 2 || top.Omitted != 5 {
			t.Fatalf("%d children, %d omitted; want 2 and 5", len(top.Children), top.Omitted)
		}
		if s := top.String(); !strings.Contains(s, "… 5 more") {
			t.Errorf("rendering lacks the omitted count:\n%s", s)
		}
	})
	t.Run("filter hides folders without matches", func(t *testing.T) {
		res, err := tools.Tree(ctx, TreeRequest{Depth: 1, Filter: Filter{Types: []string{"pdf"}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := childNames(res.Trees[0]); !slices.Equal(got, []string{"docs", "link-inside.pdf"}) {
			t.Errorf("children %q", got)
		}
	})
	t.Run("dirs only", func(t *testing.T) {
		res, err := tools.Tree(ctx, TreeRequest{Depth: 3, DirsOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		s := res.Trees[0].String()
		if strings.Contains(s, ".pdf") || !strings.Contains(s, "2025/") {
			t.Errorf("dirs-only tree:\n%s", s)
		}
	})
	t.Run("rendering keeps one entry per line", func(t *testing.T) {
		res, err := tools.Tree(ctx, TreeRequest{Depth: 1, Dir: "hostile"})
		if err != nil {
			t.Fatal(err)
		}
		s := res.Trees[0].String()
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		if len(lines) != 7 { // the folder and its six visible files
			t.Errorf("%d lines, want 7:\n%s", len(lines), s)
		}
		if !strings.Contains(s, `"new\nline.txt"`) {
			t.Errorf("newline name not escaped:\n%s", s)
		}
	})
	t.Run("outside dir refused", func(t *testing.T) {
		_, err := tools.Tree(ctx, TreeRequest{Dir: "../outside"})
		if !errors.Is(err, ErrOutsideRoots) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("file is not a dir", func(t *testing.T) {
		_, err := tools.Tree(ctx, TreeRequest{Dir: "README"})
		if !errors.Is(err, errInvalid) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestFolderSizes(t *testing.T) {
	root, _ := fixture(t)
	tools := newTools(t, root)
	tests := []struct {
		name string
		req  FolderRequest
		want []string
	}{
		{name: "by size", req: FolderRequest{}, want: []string{"photos", "docs", "code", "hostile"}},
		{name: "by files", req: FolderRequest{SortBy: ByFiles}, want: []string{"hostile", "docs", "photos", "code"}},
		{name: "by name", req: FolderRequest{SortBy: ByName}, want: []string{"code", "docs", "hostile", "photos"}},
		{name: "depth two", req: FolderRequest{Depth: 2, Limit: 3}, want: []string{"photos", "photos/2025", "docs"}},
		{name: "filtered", req: FolderRequest{Filter: Filter{Types: []string{"pdf"}}, Depth: 3}, want: []string{"docs", "docs/archive", "docs/archive/2025"}},
		{name: "inside a dir", req: FolderRequest{Dir: "docs", Depth: 5}, want: []string{"docs/archive", "docs/archive/2025"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tools.FolderSizes(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range res.Folders {
				got = append(got, f.Rel)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("totals are recursive", func(t *testing.T) {
		res, err := tools.FolderSizes(context.Background(), FolderRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Folders {
			if f.Rel == "photos" && (f.Files != 3 || f.Bytes != 170_000) {
				t.Errorf("photos: %d files, %d bytes", f.Files, f.Bytes)
			}
		}
		if res.Files != 19 {
			t.Errorf("Files = %d", res.Files)
		}
	})
}

func TestUsageByType(t *testing.T) {
	root, _ := fixture(t)
	tools := newTools(t, root)
	res, err := tools.UsageByType(context.Background(), Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	files := 0
	for _, u := range res.Types {
		got = append(got, u.Type)
		files += u.Files
	}
	want := []string{"jpeg", "jpg", "png", "pdf", "xlsx", "go", "py", "md", "txt", "", "log"}
	if !slices.Equal(got, want) {
		t.Errorf("types %q, want %q", got, want)
	}
	if files != 19 || res.Files != 19 {
		t.Errorf("files %d / %d, want 19", files, res.Files)
	}
	for _, u := range res.Types {
		if u.Type == "pdf" && (u.Files != 4 || u.Largest.Size != 2000) {
			t.Errorf("pdf usage %+v", u)
		}
	}
}
