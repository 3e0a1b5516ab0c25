package fstools

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
)

// fileTools is nodes.FileTools, restated so this test does not depend on
// the nodes package compiling.
type fileTools interface {
	Answer(ctx context.Context, plan graphrag.Plan) (text string, hits []graphrag.Hit, err error)
}

var _ fileTools = (*Tools)(nil)

func TestInterpretEverydayWording(t *testing.T) {
	tools := newTools(t, t.TempDir())
	tests := []struct {
		query  string
		tool   Tool
		check  func(Intent) bool
		detail string
	}{
		{"how many PDFs do I have?", ToolCount, func(in Intent) bool { return slices.Equal(in.Filter.Types, []string{"pdfs"}) }, "types pdfs"},
		{"count my photos", ToolCount, func(in Intent) bool { return slices.Equal(in.Filter.Types, []string{"photos"}) }, "types photos"},
		{"what's the number of spreadsheets I modified this month", ToolCount, func(in Intent) bool { return in.Filter.Window == graphrag.TimeThisMonth }, "this month"},
		{"how many files did I change today", ToolCount, func(in Intent) bool { return in.Filter.Window == graphrag.TimeToday }, "today"},
		{"what are my most recent files", ToolList, func(in Intent) bool { return in.SortBy == ByModified && !in.Reverse }, "newest first"},
		{"show the latest 5 documents", ToolList, func(in Intent) bool { return in.SortBy == ByModified && in.Limit == 5 }, "limit 5"},
		{"which files did I edit this week", ToolList, func(in Intent) bool { return in.Filter.Window == graphrag.TimeThisWeek }, "this week"},
		{"what did I work on yesterday", ToolList, func(in Intent) bool { return !in.Filter.Since.IsZero() && !in.Filter.Until.IsZero() }, "yesterday span"},
		{"files modified in the last 3 days", ToolList, func(in Intent) bool { return in.Filter.Since.Equal(clock.Add(-72 * time.Hour)) }, "since 3 days"},
		{"my oldest notes", ToolList, func(in Intent) bool { return in.SortBy == ByModified && in.Reverse }, "oldest first"},
		{"what are the biggest files", ToolList, func(in Intent) bool { return in.SortBy == BySize && !in.Reverse }, "largest first"},
		{"top 3 largest videos", ToolList, func(in Intent) bool { return in.SortBy == BySize && in.Limit == 3 }, "limit 3"},
		{"smallest images", ToolList, func(in Intent) bool { return in.SortBy == BySize && in.Reverse }, "smallest first"},
		{"files bigger than 10 MB", ToolList, func(in Intent) bool { return in.Filter.MinSize == 10<<20 }, "min size"},
		{"show me the folder structure", ToolTree, nil, ""},
		{"how are my documents organized", ToolTree, nil, ""},
		{"which folders take the most space", ToolFolderSizes, func(in Intent) bool { return in.SortBy == BySize }, "by size"},
		{"which folder has the most files", ToolFolderSizes, func(in Intent) bool { return in.SortBy == ByFiles }, "by files"},
		{"how much disk space do my files use", ToolUsageByType, nil, ""},
		{"how much space do PDFs take up", ToolUsageByType, func(in Intent) bool { return len(in.Filter.Types) == 1 }, "pdf"},
		{"what is the total size of my music", ToolUsageByType, nil, ""},
		{"find files named invoice", ToolFind, func(in Intent) bool { return in.Filter.Name == "invoice" }, "name invoice"},
		{"is there a file called budget.xlsx", ToolFind, func(in Intent) bool { return in.Filter.Name == "budget.xlsx" }, "name budget.xlsx"},
		{"where is my resume", ToolFind, func(in Intent) bool { return in.Filter.Name == "resume" }, "name resume"},
		{"find my invoices", ToolFind, func(in Intent) bool { return in.Filter.Name == "invoice" }, "plural stemmed"},
		{"files starting with 2024", ToolFind, func(in Intent) bool { return in.Filter.Name == "2024*" }, "prefix glob"},
		{`files matching "tax*"`, ToolFind, func(in Intent) bool { return in.Filter.Name == "tax*" }, "quoted glob"},
		{"when was report.pdf last modified?", ToolStat, func(in Intent) bool { return in.Target == "report.pdf" }, "target"},
		{"how big is budget.xlsx", ToolStat, func(in Intent) bool { return in.Target == "budget.xlsx" }, "target"},
		{"when was notes.md created", ToolStat, func(in Intent) bool { return in.Target == "notes.md" }, "target"},
		{`find 'tax 2024*' files`, ToolFind, func(in Intent) bool { return in.Filter.Name == "tax 2024*" }, "single-quoted glob"},
		{"what's the newest file I didn't open", ToolList, func(in Intent) bool { return in.Filter.Name == "" }, "apostrophes quote nothing"},
		{`when was "my report.pdf" modified`, ToolStat, func(in Intent) bool { return in.Target == "my report.pdf" }, "quoted target with a space"},
		{"metadata of docs/report.pdf", ToolStat, func(in Intent) bool { return in.Target == "docs/report.pdf" }, "path target"},
		{"what are my biggest folders", ToolFolderSizes, nil, ""},
		{"what's taking up the most space", ToolUsageByType, nil, ""},
		{"how many files are in the invoices folder", ToolCount, func(in Intent) bool { return in.Filter.Source == "invoices" }, "source invoices"},
		{"what's in my Downloads folder", ToolList, func(in Intent) bool { return in.Filter.Source == "Downloads" }, "source Downloads"},
		{"files older than 2 weeks", ToolList, func(in Intent) bool { return in.Filter.Until.Equal(clock.Add(-14 * 24 * time.Hour)) }, "until 2 weeks ago"},
		{"empty files", ToolList, func(in Intent) bool { return in.Filter.MaxSize == -1 }, "empty"},
		{"list my files", ToolList, func(in Intent) bool { return in.SortBy == ByModified }, "default newest"},
		{"list files alphabetically", ToolList, func(in Intent) bool { return in.SortBy == ByName }, "by name"},
		{"list the PDF files in the invoices folder", ToolList, func(in Intent) bool { return in.Filter.Source == "invoices" && len(in.Filter.Types) == 1 }, "source invoices"},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			in := tools.Interpret(graphrag.Plan{Query: tc.query})
			if in.Tool != tc.tool {
				t.Fatalf("tool %s (%s), want %s; intent %+v", in.Tool, in.Reason, tc.tool, in)
			}
			if tc.check != nil && !tc.check(in) {
				t.Errorf("want %s; got %+v", tc.detail, in)
			}
		})
	}
}

// "the name of …" names nothing: "of" is no file name to look for.
func TestInterpretNameOfIsNoName(t *testing.T) {
	tools := newTools(t, t.TempDir())
	in := tools.Interpret(graphrag.Plan{Query: "zorp 0.17 fixed the name of which directory in frob.theme?"})
	if in.Filter.Name == "of" {
		t.Errorf("name pattern %q: want none from \"the name of\"", in.Filter.Name)
	}
}

func TestInterpretUsesPlanFields(t *testing.T) {
	tools := newTools(t, t.TempDir())
	in := tools.Interpret(graphrag.Plan{Query: "how many", FileTypes: []string{"md"}, Time: graphrag.TimeThisWeek, SourceHint: "notes"})
	if in.Tool != ToolCount || !slices.Equal(in.Filter.Types, []string{"md"}) || in.Filter.Window != graphrag.TimeThisWeek || in.Filter.Source != "notes" {
		t.Fatalf("intent %+v", in)
	}
	in = tools.Interpret(graphrag.Plan{Keywords: []string{"largest", "files"}})
	if in.Tool != ToolList || in.SortBy != BySize {
		t.Fatalf("keywords-only intent %+v", in)
	}
}

// evalData finds shared/evaldata beside the repository root.
func evalData(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(filepath.Dir(dir), "shared", "evaldata")
			if _, err := os.Stat(p); err == nil {
				return p
			}
			t.Skipf("no shared/evaldata next to the repository root %s: skipping the eval-data test", dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("repository root not found")
		}
		dir = parent
	}
}

// TestInterpretShellWording checks that the NL2Bash-style filesystem rows of
// routing.dev.jsonl map to a sensible tool.
func TestInterpretShellWording(t *testing.T) {
	f, err := os.Open(filepath.Join(evalData(t), "routing.dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r struct{ ID, Query, Route string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Route == "filesystem" {
			rows[r.ID] = r.Query
		}
	}
	tools := newTools(t, t.TempDir())
	tests := []struct {
		id    string
		tool  Tool
		check func(Intent) bool
	}{
		{"route-0706", ToolCount, func(in Intent) bool { return in.Filter.Name == "file1" }},
		{"route-0789", ToolCount, func(in Intent) bool { return slices.Equal(in.Filter.Types, []string{"jpg"}) }},
		{"route-0810", ToolCount, func(in Intent) bool { return slices.Equal(in.Filter.Types, []string{"c"}) }},
		{"route-0728", ToolFind, func(in Intent) bool { return in.Filter.Name == "jan92.rpt" }},
		{"route-0764", ToolFind, func(in Intent) bool { return in.Filter.Name == "orm.properties" }},
		{"route-0710", ToolFind, func(in Intent) bool { return in.Filter.Name == "f*" }},
		{"route-0793", ToolFind, func(in Intent) bool { return in.Filter.Name == "*sub*" }},
		{"route-0738", ToolFind, func(in Intent) bool { return in.Filter.Name == "my*" }},
		{"route-0731", ToolFind, func(in Intent) bool { return in.Filter.Name == "readme" && in.Filter.Source == "" }},
		{"route-0809", ToolFind, func(in Intent) bool { return in.Filter.Name == "thumb.png" && in.Filter.Source == "temps" }},
		{"route-0847", ToolFind, func(in Intent) bool { return in.Filter.Name == "cookies.txt" }},
		{"route-0732", ToolList, func(in Intent) bool { return slices.Equal(in.Filter.Types, []string{"log"}) }},
		{"route-0808", ToolList, func(in Intent) bool { return slices.Equal(in.Filter.Types, []string{"mp3"}) }},
		{"route-0820", ToolList, func(in Intent) bool { return slices.Equal(in.Filter.Types, []string{"bam"}) }},
		{"route-0811", ToolList, func(in Intent) bool { return in.Filter.Since.Equal(clock.Add(-24 * time.Hour)) }},
		{"route-0822", ToolList, func(in Intent) bool { return in.Filter.Since.Equal(clock.Add(-90 * time.Minute)) }},
		{"route-0704", ToolList, func(in Intent) bool { return in.Filter.Since.Equal(clock.Add(-time.Minute)) }},
		{"route-0745", ToolList, func(in Intent) bool { return in.SortBy == BySize && in.Filter.MinSize == 2<<20 }},
		{"route-0783", ToolList, func(in Intent) bool { return in.Filter.MaxSize == 100<<20 }},
		{"route-0727", ToolList, func(in Intent) bool { return in.Filter.MinSize == 10<<20 && in.Filter.MaxSize == 50<<20 }},
		{"route-0782", ToolList, func(in Intent) bool { return in.Filter.MaxSize == -1 }},
		{"route-0739", ToolList, func(in Intent) bool { return in.SortBy == BySize && in.Reverse }},
		{"route-0759", ToolList, func(in Intent) bool { return in.Reverse }},
		{"route-0748", ToolTree, nil},
		{"route-0763", ToolUsageByType, func(in Intent) bool { return slices.Equal(in.Filter.Types, []string{"txt"}) }},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			q, ok := rows[tc.id]
			if !ok {
				t.Skipf("%s not in routing.dev.jsonl", tc.id)
			}
			in := tools.Interpret(graphrag.Plan{Query: q})
			if in.Tool != tc.tool {
				t.Fatalf("%q: tool %s (%s), want %s", q, in.Tool, in.Reason, tc.tool)
			}
			if tc.check != nil && !tc.check(in) {
				t.Errorf("%q: unexpected arguments %+v", q, in)
			}
		})
	}
	t.Run("every filesystem row gets a tool", func(t *testing.T) {
		for id, q := range rows {
			in := tools.Interpret(graphrag.Plan{Query: q})
			if in.Tool == "" || in.Reason == "" {
				t.Errorf("%s %q: no tool", id, q)
			}
			if _, _, err := tools.Run(context.Background(), in); err != nil {
				t.Errorf("%s %q: %v", id, q, err)
			}
		}
	})
}

func TestAnswer(t *testing.T) {
	root, _ := fixture(t)
	tools := newTools(t, root)
	ctx := context.Background()
	tests := []struct {
		name     string
		plan     graphrag.Plan
		want     []string // substrings of the answer
		wantHits []string // hit paths relative to root, in order (nil: not checked)
		wantType string   // Source.Type of the first hit
	}{
		{name: "count", plan: graphrag.Plan{Query: "how many PDFs do I have?"}, want: []string{"4 files of type pdfs"},
			wantHits: []string{"docs/report.pdf", "link-inside.pdf", "docs/old-report.pdf", "docs/archive/2025/summary.pdf"}, wantType: "pdf"},
		{name: "count with plan filters", plan: graphrag.Plan{Query: "how many", FileTypes: []string{"pdf"}, Time: graphrag.TimeToday},
			want: []string{"2 files of type pdf", "modified between 2026-11-18 00:00 and 2026-11-19 00:00"}},
		{name: "nothing", plan: graphrag.Plan{Query: "how many mp3 files"}, want: []string{"0 files of type mp3"}, wantHits: []string{}},
		{name: "recent", plan: graphrag.Plan{Query: "what are my 2 most recent files"}, want: []string{"2 of 19 files", "1. code/util.py", "2. docs/report.pdf"},
			wantHits: []string{"code/util.py", "docs/report.pdf"}, wantType: "py"},
		{name: "largest", plan: graphrag.Plan{Query: "largest 2 files"}, want: []string{"largest first", "beach.jpeg — 97.7 KB"},
			wantHits: []string{"photos/2025/beach.jpeg", "photos/cat.jpg"}},
		{name: "find", plan: graphrag.Plan{Query: "find files named report"}, want: []string{`with "report" in the name`, "docs/old-report.pdf"},
			wantHits: []string{"docs/old-report.pdf", "docs/report.pdf"}},
		{name: "find hostile", plan: graphrag.Plan{Query: "find files named line"}, want: []string{`"hostile/new\nline.txt"`},
			wantHits: []string{"hostile/new\nline.txt"}},
		{name: "stat by name", plan: graphrag.Plan{Query: "when was notes.md modified?"}, want: []string{"docs/notes.md: file", "modified 2026-11-16 12:00", "100 B"},
			wantHits: []string{"docs/notes.md"}, wantType: "md"},
		{name: "stat unicode name with a space", plan: graphrag.Plan{Query: `how big is "ünïcödé 文件.txt"?`}, want: []string{"hostile/ünïcödé 文件.txt: file, 12 B"},
			wantHits: []string{"hostile/ünïcödé 文件.txt"}, wantType: "txt"},
		{name: "stat leading dash", plan: graphrag.Plan{Query: `when was "-leading-dash.txt" modified`}, want: []string{"hostile/-leading-dash.txt: file", "modified 2026-11-16 07:00"}},
		{name: "stat missing", plan: graphrag.Plan{Query: "how big is zebra.pdf"}, want: []string{"No file named zebra.pdf"}, wantHits: []string{}},
		{name: "tree", plan: graphrag.Plan{Query: "show the folder structure"}, want: []string{"├── docs/ (5 files", "code/"}, wantType: "dir"},
		{name: "folders", plan: graphrag.Plan{Query: "which folders are the biggest"}, want: []string{"1. photos/ — 166 KB, 3 files"},
			wantHits: []string{"photos", "docs", "code", "hostile"}, wantType: "dir"},
		{name: "usage", plan: graphrag.Plan{Query: "how much disk space is used"}, want: []string{"175 KB in 19 files", "- jpeg: 97.7 KB (56%), 1 file"}},
		{name: "source hint", plan: graphrag.Plan{Query: "list files", SourceHint: "code"}, want: []string{"2 files under paths containing \"code\""},
			wantHits: []string{"code/util.py", "code/main.go"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, hits, err := tools.Answer(ctx, tc.plan)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("answer lacks %q:\n%s", w, text)
				}
			}
			if tc.wantHits != nil {
				got := []string{}
				for _, h := range hits {
					rel, _ := filepath.Rel(root, h.Source.Path)
					got = append(got, filepath.ToSlash(rel))
				}
				if !slices.Equal(got, tc.wantHits) {
					t.Errorf("hits %q, want %q", got, tc.wantHits)
				}
			}
			if tc.wantType != "" && (len(hits) == 0 || hits[0].Source.Type != tc.wantType) {
				t.Errorf("first hit type, want %q: %+v", tc.wantType, hits)
			}
			for i, h := range hits {
				if h.Source.DocID != h.Source.Path || h.Chunk.DocID != h.Source.DocID || !filepath.IsAbs(h.Source.DocID) || filepath.Clean(h.Source.DocID) != h.Source.DocID {
					t.Errorf("hit %d ids: %+v", i, h.Source)
				}
				if h.Chunk.Text == "" {
					t.Errorf("hit %d has no text", i)
				}
				if i > 0 && !(h.Score < hits[i-1].Score) {
					t.Errorf("scores not decreasing at %d: %v then %v", i, hits[i-1].Score, h.Score)
				}
			}
		})
	}
	for _, q := range []string{"how big is ../outside/secret.txt", "metadata of link-outside.txt", "when was /etc/passwd modified", "show the tree of ../outside folder"} {
		t.Run("refused: "+q, func(t *testing.T) {
			in := tools.Interpret(graphrag.Plan{Query: q})
			if _, _, err := tools.Run(ctx, in); !errors.Is(err, ErrOutsideRoots) {
				t.Fatalf("Run err = %v, want ErrOutsideRoots", err)
			}
			text, hits, err := tools.Answer(ctx, graphrag.Plan{Query: q})
			if err != nil || len(hits) != 0 {
				t.Fatalf("Answer: %d hits, err %v; want a refusal as text", len(hits), err)
			}
			if !strings.Contains(text, "outside the folders graphrag can see") || !strings.Contains(text, root) {
				t.Errorf("refusal %q should say why and name the roots", text)
			}
		})
	}
	t.Run("a missing folder is an answer", func(t *testing.T) {
		text, hits, err := tools.Answer(ctx, graphrag.Plan{Query: "show the tree of ./nowhere"})
		if err != nil || len(hits) != 0 || !strings.Contains(text, "./nowhere was not found") {
			t.Fatalf("text %q, %d hits, err %v", text, len(hits), err)
		}
	})
	t.Run("skipped entries are noted relative to the root", func(t *testing.T) {
		text, _, err := tools.Answer(ctx, graphrag.Plan{Query: "how many files"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "Note: skipped 6 entries (e.g. broken.txt: symbolic link") {
			t.Errorf("note missing or not relative:\n%s", text)
		}
	})
	t.Run("hit modified times come from the files", func(t *testing.T) {
		_, hits, err := tools.Answer(ctx, graphrag.Plan{Query: "newest file"})
		if err != nil || len(hits) == 0 {
			t.Fatal(err)
		}
		if !hits[0].Source.ModTime.Equal(clock.Add(-30 * time.Minute)) {
			t.Errorf("ModTime %v", hits[0].Source.ModTime)
		}
	})
}

func TestSelect(t *testing.T) {
	root, _ := fixture(t)
	tools := newTools(t, root)
	abs := func(rels ...string) []string {
		out := []string{}
		for _, r := range rels {
			out = append(out, filepath.Join(root, filepath.FromSlash(r)))
		}
		return out
	}
	tests := []struct {
		name    string
		plan    graphrag.Plan
		want    []string
		wantErr error
	}{
		{name: "pdfs this week", plan: graphrag.Plan{Query: "what do my PDFs from this week say about the budget", FileTypes: []string{"pdf"}, Time: graphrag.TimeThisWeek},
			want: abs("docs/report.pdf", "link-inside.pdf")},
		{name: "source hint", plan: graphrag.Plan{SourceHint: "photos"}, want: abs("photos/cat.jpg", "photos/dog.PNG", "photos/2025/beach.jpeg")},
		{name: "no filters narrows nothing", plan: graphrag.Plan{Query: "what does the report say about pdfs"}, want: nil},
		{name: "no match", plan: graphrag.Plan{FileTypes: []string{"mp3"}}, wantErr: graphrag.ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tools.Select(context.Background(), tc.plan)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// A store ingested folder by folder has hundreds of roots: a message names
// the first few and counts the rest, instead of burying what it says.
func TestMessagesCountManyRoots(t *testing.T) {
	base := t.TempDir()
	var roots []string
	for i := range maxRootsListed + 3 {
		dir := filepath.Join(base, fmt.Sprintf("pkg%02d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		roots = append(roots, dir)
	}
	tools, err := New(roots, Options{})
	if err != nil {
		t.Fatal(err)
	}
	text, _, err := tools.Answer(context.Background(), graphrag.Plan{Query: "how big is ../outside/secret.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, roots[0]) || strings.Contains(text, roots[len(roots)-1]) || !strings.Contains(text, "and 3 more") {
		t.Errorf("refusal %q: want the first roots named and the last 3 counted", text)
	}
}
