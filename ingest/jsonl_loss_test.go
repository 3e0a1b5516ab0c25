package ingest_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/ingest"
)

// corpusRows is a five-row JSONL corpus, one line a row.
func corpusRows() []string {
	var rows []string
	for i := 1; i <= 5; i++ {
		rows = append(rows, fmt.Sprintf(`{"id": "r%d", "text": "row %d is about the animal number %d"}`, i, i, i))
	}
	return rows
}

// TestCorpusBadLineNeverDeletes: a line that cannot be read is skipped
// with a reason and the lines after it are still read; nothing stored from
// the file is deleted because of it (issue 13, item 1).
func TestCorpusBadLineNeverDeletes(t *testing.T) {
	longLine := func(t *testing.T, path string, rows []string) {
		// A 65 MiB line as line 2: over the reader's 64 MiB line limit.
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		fmt.Fprintln(w, rows[0])
		w.WriteString(`{"id": "huge", "text": "`)
		chunk := []byte(strings.Repeat("x", 1<<20))
		for range 65 {
			w.Write(chunk)
		}
		w.WriteString("\"}\n")
		for _, r := range rows[1:] {
			fmt.Fprintln(w, r)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name        string
		rewrite     func(t *testing.T, path string, rows []string)
		wantProblem string
	}{
		{"line over 64 MiB", longLine, "longer than 64 MiB"},
		{"line that is not JSON", func(t *testing.T, path string, rows []string) {
			write(t, path, []byte(rows[0]+"\n{not json at all\n"+strings.Join(rows[1:], "\n")+"\n"))
		}, "not a JSON object"},
		{"row turned bad in place", func(t *testing.T, path string, rows []string) {
			rows = append([]string(nil), rows...)
			rows[2] = `{"id": "r3", "text": ""}` // its id is known: the stored r3 stays
			write(t, path, []byte(strings.Join(rows, "\n")+"\n"))
		}, `"text" is empty`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "line over 64 MiB" && testing.Short() {
				t.Skip("writes a 65 MiB file; -short")
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "c.jsonl")
			rows := corpusRows()
			write(t, path, []byte(strings.Join(rows, "\n")+"\n"))
			st := openStore(t, nil)
			in := ingest.New(st, ingest.Options{})
			if sum, err := in.Run(context.Background(), dir); err != nil || sum.Added != 5 {
				t.Fatalf("first ingest: %+v, %v; want 5 added", sum, err)
			}
			tc.rewrite(t, path, rows)
			sum, err := in.Run(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Deleted != 0 {
				t.Errorf("a bad line deleted %d stored rows: %+v", sum.Deleted, sum)
			}
			if sum.Skipped[ingest.ReasonBadLine] != 1 || len(sum.Problems) != 1 || !strings.Contains(sum.Problems[0].Detail, tc.wantProblem) {
				t.Errorf("problems %+v, want one bad line saying %q", sum.Problems, tc.wantProblem)
			}
			if stats, _ := st.Stats(context.Background()); stats.Documents != 5 {
				t.Errorf("%d documents stored after the bad line, want all 5", stats.Documents)
			}
		})
	}
}
