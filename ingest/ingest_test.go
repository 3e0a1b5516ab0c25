package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/internal/unprivileged"
	"github.com/graphrag/graphrag/retrievers/sqlite"
	"github.com/graphrag/graphrag/retrievers/storetest"
)

var _ ingest.Store = (*sqlite.Store)(nil)

func openStore(t *testing.T, e graphrag.Embedder) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "store.db"), sqlite.Options{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func sqliteOpen(b *testing.B) (*sqlite.Store, error) {
	return sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "store.db"), sqlite.Options{})
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// mixedDir builds a directory of every kind of file ingest meets and
// returns it with the number of files a root-run ingest reads as
// unreadable (0 as root, who can read a chmod 000 file).
func mixedDir(t *testing.T) (dir string, unreadable int) {
	t.Helper()
	dir = t.TempDir()
	outside := t.TempDir()
	w := func(name, content string) { write(t, filepath.Join(dir, name), []byte(content)) }
	w("notes.txt", "Quarterly planning notes.\n\nThe wombat budget was approved in March.")
	w("docs/readme.md", "# Readme\n\nInstall with make. The capybara module is optional.")
	w("docs/page.html", `<html><head><title>Status Page</title><script>alert("tapir")</script><style>.x{}</style></head><body><p>All systems nominal for the ocelot service.</p></body></html>`)
	w("src/main.go", "package main\n\n// main prints the armadillo report.\nfunc main() {}\n")
	write(t, filepath.Join(dir, "docs/report.pdf"), tinyPDF("Hello PDF world about the pangolin census."))
	w("corpus.jsonl", strings.Join([]string{
		`{"id": "row-1", "title": "Axolotl", "text": "The axolotl regrows limbs.", "source": "wiki"}`,
		`{"id": "row-2", "title": "Okapi", "text": "The okapi lives in the Congo."}`,
		`this line is broken`,
		`{"id": "row-3", "title": "Narwhal", "text": "The narwhal has a tusk."}`,
		`{"id": "row-4"}`,
	}, "\n"))
	write(t, filepath.Join(dir, "images/photo.png"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00"))
	write(t, filepath.Join(dir, "blob.bin"), []byte{0, 1, 2, 3, 255, 254})
	w("data.xyz", "unknown extension but plain text about the quokka")
	w("empty.txt", "")
	w(".hidden.txt", "hidden secrets")
	w(".git/config", "[core]")
	w("node_modules/pkg/index.js", "module.exports = 1")
	w("we'ird \"name\"; DROP TABLE documents;--.txt", "hostile file name about the gecko")
	w("日本語 ファイル.md", "日本語のテキスト 蜥蜴")
	w("-dash start.txt", "dash named file about the lemur")
	w("line\nbreak.txt", "newline in the name, about the marmot")
	write(t, filepath.Join(outside, "secret.txt"), []byte("outside the root"))
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link-out.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "notes.txt"), filepath.Join(dir, "link-in.txt")); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(dir, "locked.txt")
	w("locked.txt", "locked file about the tarsier")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o644) })
	if f, err := os.Open(locked); err == nil {
		f.Close() // running as root: permissions do not stop us
	} else {
		unreadable = 1
	}
	return dir, unreadable
}

func TestRunMixedDirectory(t *testing.T) {
	dir, unreadable := mixedDir(t)
	st := openStore(t, nil)
	var mu sync.Mutex
	var phases []string
	in := ingest.New(st, ingest.Options{Progress: func(p ingest.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if len(phases) == 0 || phases[len(phases)-1] != p.Phase {
			phases = append(phases, p.Phase)
		}
	}})
	sum, err := in.Run(context.Background(), dir)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	// Documents: notes, readme, page, main.go, pdf, 3 rows, data.xyz,
	// 4 hostile names, locked.txt when readable.
	wantAdded := 13 + (1 - unreadable)
	skipped := map[string]int{
		ingest.ReasonBinary:      1, // blob.bin
		ingest.ReasonNoCaptioner: 1, // photo.png
		ingest.ReasonEmpty:       1,
		ingest.ReasonHidden:      1,
		ingest.ReasonSymlinkOut:  1,
		ingest.ReasonSymlinkIn:   1,
		ingest.ReasonBadLine:     2,
		ingest.ReasonIgnored:     1, // node_modules
	}
	if unreadable > 0 {
		skipped[ingest.ReasonUnreadable] = unreadable
	}
	// Files: 16 written outside .git and node_modules, 2 links, and
	// node_modules (ignored as a whole).
	if sum.Files != 19 || sum.Added != wantAdded || sum.Updated != 0 || sum.Unchanged != 0 || sum.Deleted != 0 {
		t.Errorf("summary = files %d added %d updated %d unchanged %d deleted %d, want 19 %d 0 0 0",
			sum.Files, sum.Added, sum.Updated, sum.Unchanged, sum.Deleted, wantAdded)
	}
	if !reflect.DeepEqual(sum.Skipped, skipped) {
		t.Errorf("skipped = %v, want %v", sum.Skipped, skipped)
	}
	if sum.Chunks != wantAdded || sum.Duration <= 0 {
		t.Errorf("chunks %d (want %d: every file is short), duration %v", sum.Chunks, wantAdded, sum.Duration)
	}
	var lines []string
	for _, p := range sum.Problems {
		if p.Line > 0 {
			lines = append(lines, fmt.Sprintf("%s:%d", filepath.Base(p.Path), p.Line))
		}
	}
	if fmt.Sprint(lines) != "[corpus.jsonl:3 corpus.jsonl:5]" {
		t.Errorf("bad lines reported = %v", lines)
	}
	if fmt.Sprint(phases) != "[scanning ingesting deleting done]" {
		t.Errorf("progress phases = %v", phases)
	}

	find := func(q string) []graphrag.Hit {
		t.Helper()
		res, err := st.Search(context.Background(), graphrag.Query{Text: q, Mode: graphrag.ModeKeyword})
		if err != nil {
			t.Fatal(err)
		}
		return res.Hits
	}
	tests := []struct {
		query, wantTitle, wantType string
	}{
		{"pangolin census", "report.pdf", "pdf"},
		{"ocelot nominal", "Status Page", "html"},
		{"armadillo", "main.go", "go"},
		{"capybara", "readme.md", "md"},
		{"okapi congo", "Okapi", "jsonl"},
		{"quokka", "data.xyz", "xyz"},
		{"gecko", `we'ird "name"; DROP TABLE documents;--.txt`, "txt"},
		{"蜥蜴", "日本語 ファイル.md", "md"},
		{"marmot", "line\nbreak.txt", "txt"},
	}
	for _, tc := range tests {
		t.Run("finds "+tc.query, func(t *testing.T) {
			hits := find(tc.query)
			if len(hits) == 0 || hits[0].Source.Title != tc.wantTitle || hits[0].Source.Type != tc.wantType {
				t.Fatalf("hits = %+v, want %q (%s) first", hits, tc.wantTitle, tc.wantType)
			}
		})
	}
	for _, q := range []string{"tapir", "alert", "outside root", "hidden", "exports"} {
		if hits := find(q); len(hits) != 0 {
			t.Errorf("%q found %q: it should not have been ingested", q, hits[0].Chunk.DocID)
		}
	}
	corpus := filepath.Join(realDir(t, dir), "corpus.jsonl")
	if hits := find("axolotl"); len(hits) != 1 || hits[0].Chunk.DocID != graphrag.RowDocID(corpus, "row-1") || hits[0].Source.Path != corpus {
		t.Errorf("corpus row: %+v", hits)
	}
}

func realDir(t *testing.T, dir string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunIncremental(t *testing.T) {
	dir, _ := mixedDir(t)
	st := openStore(t, nil)
	in := ingest.New(st, ingest.Options{})
	first, err := in.Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	docs := first.Added

	t.Run("unchanged", func(t *testing.T) {
		sum, err := in.Run(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Added != 0 || sum.Updated != 0 || sum.Deleted != 0 || sum.Unchanged != docs || sum.Chunks != 0 {
			t.Errorf("second run: %+v, want all %d unchanged", sum, docs)
		}
	})
	t.Run("changed and deleted", func(t *testing.T) {
		write(t, filepath.Join(dir, "notes.txt"), []byte("Rewritten notes about the dugong."))
		if err := os.Remove(filepath.Join(dir, "docs/readme.md")); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "corpus.jsonl"), []byte(strings.Join([]string{
			`{"id": "row-1", "title": "Axolotl", "text": "The axolotl regrows limbs.", "source": "wiki"}`,
			`{"id": "row-2", "title": "Okapi", "text": "The okapi is related to the giraffe."}`,
		}, "\n")))
		sum, err := in.Run(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		// notes + row-2 updated; readme + row-3 deleted.
		if sum.Added != 0 || sum.Updated != 2 || sum.Deleted != 2 || sum.Unchanged != docs-4 {
			t.Errorf("third run: added %d updated %d deleted %d unchanged %d, want 0 2 2 %d", sum.Added, sum.Updated, sum.Deleted, sum.Unchanged, docs-4)
		}
		for q, want := range map[string]int{"dugong": 1, "wombat": 0, "capybara": 0, "narwhal": 0, "giraffe": 1, "congo": 0} {
			res, _ := st.Search(context.Background(), graphrag.Query{Text: q})
			if len(res.Hits) != want {
				t.Errorf("%q: %d hits, want %d", q, len(res.Hits), want)
			}
		}
	})
	t.Run("other roots untouched", func(t *testing.T) {
		other := t.TempDir()
		write(t, filepath.Join(other, "x.txt"), []byte("separate root about the kinkajou"))
		if _, err := in.Run(context.Background(), other); err != nil {
			t.Fatal(err)
		}
		// Re-ingesting only the first root must not delete the second's files.
		sum, err := in.Run(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		res, _ := st.Search(context.Background(), graphrag.Query{Text: "kinkajou"})
		if sum.Deleted != 0 || len(res.Hits) != 1 {
			t.Errorf("deleted %d, kinkajou hits %d: another root's documents were touched", sum.Deleted, len(res.Hits))
		}
		// A single file given as the path: removing it removes its document.
		if err := os.Remove(filepath.Join(other, "x.txt")); err != nil {
			t.Fatal(err)
		}
		if _, err := in.Run(context.Background(), filepath.Join(other, "x.txt")); err == nil {
			t.Error("a missing path did not fail")
		}
		// The folder lists no file now: like an unmounted disk's mount
		// point, its document is kept and the summary says so.
		sum, err = in.Run(context.Background(), other)
		if err != nil || sum.Deleted != 0 || sum.Skipped[ingest.ReasonEmptiedFolder] != 1 {
			t.Errorf("deleted %d, emptied %d (%v): want the emptied folder's document kept and reported", sum.Deleted, sum.Skipped[ingest.ReasonEmptiedFolder], err)
		}
		// Once it lists a file again, the vanished one is deleted.
		write(t, filepath.Join(other, "y.txt"), []byte("a new note about the coati"))
		sum, err = in.Run(context.Background(), other)
		if err != nil || sum.Deleted != 1 || sum.Added != 1 {
			t.Errorf("added %d, deleted %d (%v), want the new file added and the vanished one deleted", sum.Added, sum.Deleted, err)
		}
	})
}

func TestRunCancel(t *testing.T) {
	dir := t.TempDir()
	const n = 60
	for i := 0; i < n; i++ {
		// Long enough for several chunks each.
		var b strings.Builder
		for j := 0; j < 40; j++ {
			fmt.Fprintf(&b, "File %d sentence %d mentions the aardwolf and many other words to fill the chunk. ", i, j)
		}
		write(t, filepath.Join(dir, fmt.Sprintf("f%03d.txt", i)), []byte(b.String()))
	}
	st := openStore(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := ingest.New(st, ingest.Options{BatchSize: 8, ChunkSize: 500, Workers: 2, Progress: func(p ingest.Progress) {
		if p.Documents >= 5 {
			cancel()
		}
	}})
	sum, err := in.Run(ctx, dir)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if sum.Added == 0 || sum.Added >= n {
		t.Fatalf("added %d before the cancel took effect, want some but not all", sum.Added)
	}
	stats, _ := st.Stats(context.Background())
	if stats.Documents != sum.Added || stats.Chunks != sum.Chunks {
		t.Errorf("store holds %d docs / %d chunks, summary says %d / %d", stats.Documents, stats.Chunks, sum.Added, sum.Chunks)
	}
	// Every stored document is whole: all its chunks are there.
	m, _ := st.Manifest(context.Background())
	for _, d := range m {
		data, err := os.ReadFile(d.ID)
		if err != nil {
			t.Fatal(err)
		}
		chunks := ingest.Chunk(string(data), 500, ingest.DefaultChunkOverlap)
		res, _ := st.Search(context.Background(), graphrag.Query{Text: "aardwolf", K: 10000, Filters: graphrag.Filters{DocIDs: []string{d.ID}}})
		if len(res.Hits) != len(chunks) {
			t.Errorf("%s: %d chunks stored, want %d: a half-written document", filepath.Base(d.ID), len(res.Hits), len(chunks))
		}
	}
	// A second run finishes the job.
	in = ingest.New(st, ingest.Options{BatchSize: 8, ChunkSize: 500})
	rest, err := in.Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if rest.Added != n-sum.Added || rest.Unchanged != sum.Added {
		t.Errorf("resumed: added %d unchanged %d, want %d and %d", rest.Added, rest.Unchanged, n-sum.Added, sum.Added)
	}
}

func TestRunEmbeds(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 5; i++ {
		write(t, filepath.Join(dir, fmt.Sprintf("%d.md", i)), []byte(fmt.Sprintf("Document %d about the serval number %d.", i, i)))
	}
	emb := storetest.NewHashEmbedder(32)
	st := openStore(t, emb)
	in := ingest.New(st, ingest.Options{Embedder: emb, BatchSize: 2})
	sum, err := in.Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	// Batches of at least 2 chunks: 5 documents of one chunk -> 3 calls.
	if sum.Added != 5 || emb.Calls() != 3 {
		t.Errorf("added %d with %d embed calls, want 5 and 3", sum.Added, emb.Calls())
	}
	res, err := st.Search(context.Background(), graphrag.Query{Text: "Document 3 about the serval number 3.", Mode: graphrag.ModeVector, K: 1})
	if err != nil || len(res.Hits) != 1 || filepath.Base(res.Hits[0].Chunk.DocID) != "3.md" {
		t.Errorf("vector search: %+v %v", res.Hits, err)
	}
}

func TestRunErrors(t *testing.T) {
	st := openStore(t, nil)
	in := ingest.New(st, ingest.Options{})
	if _, err := in.Run(context.Background()); err == nil {
		t.Error("no paths: no error")
	}
	if _, err := in.Run(context.Background(), filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing path: err = %v, want os.ErrNotExist", err)
	}
}

func TestLoadersOption(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.txt"), []byte("plain text"))
	write(t, filepath.Join(dir, "b.csv"), []byte("x,y"))
	st := openStore(t, nil)
	upper := func(_ context.Context, _ string, data []byte) (ingest.Loaded, error) {
		return ingest.Loaded{Title: "custom", Text: strings.ToUpper(string(data)) + " CUSTOMLOADED"}, nil
	}
	in := ingest.New(st, ingest.Options{Loaders: map[string]ingest.Loader{".TXT": upper}})
	if _, err := in.Run(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	res, _ := st.Search(context.Background(), graphrag.Query{Text: "customloaded"})
	if len(res.Hits) != 1 || res.Hits[0].Source.Title != "custom" {
		t.Errorf("custom loader not used: %+v", res.Hits)
	}
	var titles []string
	m, _ := st.Manifest(context.Background())
	for _, d := range m {
		titles = append(titles, filepath.Base(d.Path))
	}
	sort.Strings(titles)
	if fmt.Sprint(titles) != "[a.txt b.csv]" {
		t.Errorf("stored %v", titles)
	}
}

// TestRunJSONLIDsScopedByFile: a row's id is scoped by its corpus. Rows
// of two corpora with the same id, and a row whose id is a file's path,
// are different documents; before, the later one replaced the earlier and
// they flipped on each re-ingest.
func TestRunJSONLIDsScopedByFile(t *testing.T) {
	dir := realDir(t, t.TempDir())
	notes := filepath.Join(dir, "notes.txt")
	write(t, notes, []byte("The file about the pangolin."))
	write(t, filepath.Join(dir, "a.jsonl"), []byte(`{"id": "shared", "text": "from a, about the axolotl"}`+"\n"+`{"id": "only-a", "text": "alpha"}`))
	row := fmt.Sprintf(`{"id": %q, "text": "a row whose id is a path, about the okapi"}`, notes)
	write(t, filepath.Join(dir, "b.jsonl"), []byte(`{"id": "shared", "text": "from b, about the narwhal"}`+"\n"+row))
	st := openStore(t, nil)
	in := ingest.New(st, ingest.Options{})
	sum, err := in.Run(context.Background(), dir)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if sum.Added != 5 || len(sum.Problems) != 0 {
		t.Fatalf("added %d (problems %v), want every row and the file: 5", sum.Added, sum.Problems)
	}
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for _, tc := range []struct{ word, doc, path, row string }{
		{"pangolin", notes, notes, ""},
		{"axolotl", graphrag.RowDocID(a, "shared"), a, "shared"},
		{"narwhal", graphrag.RowDocID(b, "shared"), b, "shared"},
		{"okapi", graphrag.RowDocID(b, notes), b, notes},
	} {
		res, err := st.Search(context.Background(), graphrag.Query{Text: tc.word, Mode: graphrag.ModeKeyword, K: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 1 || res.Hits[0].Chunk.DocID != tc.doc || res.Hits[0].Source.Path != tc.path {
			t.Errorf("%s: hits %v, want one in %s", tc.word, res.Hits, tc.doc)
			continue
		}
		// A citation names the row by its own id.
		if row, ok := graphrag.RowID(tc.doc, tc.path); row != tc.row || ok != (tc.row != "") {
			t.Errorf("%s: RowID = %q, %v; want %q", tc.word, row, ok, tc.row)
		}
	}
	sum, err = in.Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Unchanged != 5 || sum.Added+sum.Updated+sum.Deleted != 0 {
		t.Errorf("second run: %+v, want all 5 unchanged", sum)
	}
}

func TestRunLargeCorpusStreams(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	const rows = 1000
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&b, `{"id": "r%04d", "title": "Row %d", "text": "row number %d about the caracal"}`+"\n", i, i, i)
	}
	write(t, filepath.Join(dir, "big.jsonl"), []byte(b.String()))
	write(t, filepath.Join(dir, "big.txt"), []byte(b.String())) // the size limit still applies to files
	st := openStore(t, nil)
	var maxDone, total int
	in := ingest.New(st, ingest.Options{MaxFileSize: 1024, BatchSize: 100, Progress: func(p ingest.Progress) {
		maxDone, total = max(maxDone, p.FilesDone), p.FilesTotal
	}})
	sum, err := in.Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Added != rows || sum.Chunks != rows || sum.Skipped[ingest.ReasonTooLarge] != 1 || sum.Files != 2 {
		t.Errorf("summary %+v, want %d rows added from the corpus, big.txt too large", sum, rows)
	}
	if maxDone != 1 || total != 1 {
		t.Errorf("progress reached %d of %d files, want 1 of 1 (the corpus, in several parts)", maxDone, total)
	}
	sum, err = in.Run(context.Background(), dir)
	if err != nil || sum.Unchanged != rows || sum.Added != 0 || sum.Deleted != 0 {
		t.Errorf("re-run %+v %v", sum, err)
	}
}

func TestRunUnreadableDirectoryKeepsItsDocuments(t *testing.T) {
	if unprivileged.Rerun(t) {
		return
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "sub", "a.txt"), []byte("inside the dhole directory"))
	write(t, filepath.Join(dir, "b.txt"), []byte("top level"))
	st := openStore(t, nil)
	in := ingest.New(st, ingest.Options{})
	if _, err := in.Run(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Chmod(sub, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(sub, 0o755)
	if _, err := os.ReadDir(sub); err == nil {
		t.Fatal("a chmod 000 directory is still readable: the test cannot check anything")
	}
	sum, err := in.Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Deleted != 0 || sum.Skipped[ingest.ReasonUnreadable] != 1 {
		t.Errorf("deleted %d, unreadable %d: want the unreadable directory's document kept and reported", sum.Deleted, sum.Skipped[ingest.ReasonUnreadable])
	}
}

// A folder given to ingest that can no longer be listed (its permissions
// changed, a network share that refuses) keeps everything stored from it:
// a read error is never a deletion.
func TestRunUnreadableRootKeepsItsDocuments(t *testing.T) {
	if unprivileged.Rerun(t) {
		return
	}
	dir := filepath.Join(t.TempDir(), "root")
	write(t, filepath.Join(dir, "a.txt"), []byte("the first note about the kinkajou"))
	write(t, filepath.Join(dir, "sub", "b.txt"), []byte("the second note about the binturong"))
	st := openStore(t, nil)
	in := ingest.New(st, ingest.Options{})
	if sum, err := in.Run(context.Background(), dir); err != nil || sum.Added != 2 {
		t.Fatalf("first ingest: %+v %v", sum, err)
	}
	if err := os.Chmod(dir, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if _, err := os.ReadDir(dir); err == nil {
		t.Fatal("a chmod 000 directory is still readable: the test cannot check anything")
	}
	sum, err := in.Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Deleted != 0 || sum.Skipped[ingest.ReasonUnreadable] != 1 {
		t.Errorf("deleted %d, unreadable %d: want the unreadable folder's documents kept and reported", sum.Deleted, sum.Skipped[ingest.ReasonUnreadable])
	}
	if n := countDocs(t, st); n != 2 {
		t.Errorf("%d documents stored after ingesting an unreadable folder, want the 2 kept", n)
	}
}

// An unplugged disk often leaves its mount point behind as an empty folder:
// its documents are kept, and the summary says so; a folder that still
// lists files loses the ones that are gone as before.
func TestRunEmptiedRootKeepsItsDocuments(t *testing.T) {
	base := t.TempDir()
	disk, notes := filepath.Join(base, "disk"), filepath.Join(base, "notes")
	write(t, filepath.Join(disk, "photos.txt"), []byte("index of the photo archive on the external disk"))
	write(t, filepath.Join(disk, "deep", "scan.txt"), []byte("a scanned letter from the notary"))
	write(t, filepath.Join(notes, "keep.txt"), []byte("a note that stays"))
	write(t, filepath.Join(notes, "gone.txt"), []byte("a note the user deletes"))
	st := openStore(t, nil)
	in := ingest.New(st, ingest.Options{})
	if sum, err := in.Run(context.Background(), disk, notes); err != nil || sum.Added != 4 {
		t.Fatalf("first ingest: %+v %v", sum, err)
	}
	for _, p := range []string{filepath.Join(disk, "photos.txt"), filepath.Join(disk, "deep"), filepath.Join(notes, "gone.txt")} {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := in.Run(context.Background(), disk, notes)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Deleted != 1 || sum.Skipped[ingest.ReasonEmptiedFolder] != 1 {
		t.Errorf("deleted %d, emptied folders %d: want the emptied folder's 2 documents kept and reported, the deleted note removed", sum.Deleted, sum.Skipped[ingest.ReasonEmptiedFolder])
	}
	if n := countDocs(t, st); n != 3 {
		t.Errorf("%d documents stored, want 3 (2 kept from the emptied folder, 1 note)", n)
	}
}

func countDocs(t *testing.T, st ingest.Store) int {
	t.Helper()
	m, err := st.Manifest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

// TestChunkSettingsReingest: a file is unchanged only when it was read
// with the same chunk settings; ingesting again with another chunk size
// re-chunks it rather than keeping the old chunks.
func TestChunkSettingsReingest(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "Zorp line %d says the frob is ready for the quill.\n\n", i)
	}
	write(t, filepath.Join(dir, "zorp.txt"), []byte(b.String()))
	write(t, filepath.Join(dir, "rows.jsonl"), []byte(`{"id":"a","text":"`+strings.Repeat("frob quill zorp ", 150)+`"}`+"\n"))
	s := openStore(t, nil)
	chunks := func() int {
		st, err := s.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st.Chunks
	}
	sum, err := ingest.New(s, ingest.Options{ChunkSize: 1500}).Run(ctx, dir)
	if err != nil || sum.Added != 2 {
		t.Fatalf("first run %+v, %v", sum, err)
	}
	before := chunks()
	sum, err = ingest.New(s, ingest.Options{ChunkSize: 1500}).Run(ctx, dir)
	if err != nil || sum.Unchanged != 2 || sum.Updated != 0 {
		t.Fatalf("same settings: %+v, %v; want both unchanged", sum, err)
	}
	sum, err = ingest.New(s, ingest.Options{ChunkSize: 400}).Run(ctx, dir)
	if err != nil || sum.Updated != 2 || sum.Unchanged != 0 {
		t.Fatalf("smaller chunks: %+v, %v; want both read again", sum, err)
	}
	if after := chunks(); after <= before {
		t.Errorf("%d chunks after re-chunking at 400 characters, %d at 1500: want more", after, before)
	}
}
