package evals

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRoutingSkipsBadRows(t *testing.T) {
	in := strings.Join([]string{
		`{"query": "what's 2+2", "route": "direct", "label_strength": "hard", "id": "r1"}`,
		``,
		`{"query": "how many pdfs", "route": "filesystem"}`,
		`{"query": "broken", "route": `,
		`{"route": "web"}`,
		`{"query": "x", "route": "teleport"}`,
		`{"query": "y", "route": "web", "label_strength": "medium"}`,
		`{"query": "dup", "route": "web", "id": "r1"}`,
		`{"query": "a local question", "route": "Local", "label_strength": "SOFT"}`,
	}, "\n")
	rows, bad, err := ReadRouting("routes.jsonl", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("got %d rows, want 3: %+v", len(rows), rows)
	}
	t.Run("defaults", func(t *testing.T) {
		if rows[1].Strength != Hard || rows[1].ID != "routes.jsonl:3" {
			t.Errorf("row without strength and id: %+v", rows[1])
		}
		if rows[2].Route != Local || rows[2].Strength != Soft {
			t.Errorf("case-folded row: %+v", rows[2])
		}
	})
	want := []struct {
		line   int
		reason string
	}{{4, "invalid JSON"}, {5, `missing "query"`}, {6, `unknown route "teleport"`}, {7, `unknown label_strength "medium"`}, {8, `duplicate id "r1" (first on line 1)`}}
	if len(bad) != len(want) {
		t.Fatalf("got %d row errors, want %d: %v", len(bad), len(want), bad)
	}
	for i, w := range want {
		t.Run(w.reason, func(t *testing.T) {
			if bad[i].Line != w.line || !strings.Contains(bad[i].Reason, w.reason) || bad[i].File != "routes.jsonl" {
				t.Errorf("row error %d = %v, want line %d with %q", i, bad[i], w.line, w.reason)
			}
			if !strings.HasPrefix(bad[i].Error(), "routes.jsonl:") {
				t.Errorf("Error() = %q, want file:line first", bad[i].Error())
			}
		})
	}
}

func TestReadQuestionsNegativesCorpus(t *testing.T) {
	tests := []struct {
		name    string
		read    func(io.Reader) (int, []RowError, error)
		in      string
		rows    int
		reasons []string
	}{
		{"questions", func(r io.Reader) (int, []RowError, error) {
			x, b, err := ReadQuestions("q", r)
			return len(x), b, err
		}, `{"qid": "1", "question": "who?", "answers": ["me"], "gold_passages": ["p1"], "type": "single-hop"}
{"qid": "2", "question": "who?", "answers": [" "], "gold_passages": ["p1"]}
{"qid": "3", "question": "who?", "answers": ["me"], "gold_passages": []}
{"qid": "4", "question": "who?", "expected": "abstain"}
{"qid": "1", "question": "again", "answers": ["me"], "gold_passages": ["p1"]}`, 1,
			[]string{`no "answers"`, `no "gold_passages"`, "negatives file", "duplicate qid"}},
		{"negatives", func(r io.Reader) (int, []RowError, error) {
			x, b, err := ReadNegatives("n", r)
			return len(x), b, err
		}, `{"qid": "n1", "question": "what?", "expected": "abstain", "reference_answers": ["x"]}
{"qid": "n2", "question": "what?", "expected": "answer"}
{"qid": "n3", "expected": "abstain"}`, 1, []string{`want "abstain"`, `missing "question"`}},
		{"corpus", func(r io.Reader) (int, []RowError, error) {
			x, b, err := ReadCorpus("c", r)
			return len(x), b, err
		}, `{"id": "a", "title": "A", "text": "alpha"}
{"id": "b", "title": "B", "text": "  "}
{"title": "C", "text": "gamma"}
{"id": "a", "text": "again"}
[1, 2]`, 1, []string{`missing "text"`, `missing "id"`, "duplicate id", "invalid JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, bad, err := tt.read(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if n != tt.rows {
				t.Errorf("got %d rows, want %d", n, tt.rows)
			}
			if len(bad) != len(tt.reasons) {
				t.Fatalf("row errors %v, want %d", bad, len(tt.reasons))
			}
			for i, r := range tt.reasons {
				if !strings.Contains(bad[i].Reason, r) {
					t.Errorf("row error %v, want %q", bad[i], r)
				}
			}
		})
	}
}

func TestOpenGzipAndBundled(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(`{"id": "a", "title": "A", "text": "alpha"}` + "\n"))
	zw.Close()
	gz := filepath.Join(dir, "c.jsonl.gz")
	if err := os.WriteFile(gz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("gzip", func(t *testing.T) {
		rows, bad, err := LoadCorpus(gz)
		if err != nil || len(bad) != 0 || len(rows) != 1 || rows[0].Text != "alpha" {
			t.Fatalf("LoadCorpus(gz) = %v, %v, %v", rows, bad, err)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		_, _, err := LoadRouting(filepath.Join(dir, "nope.jsonl"))
		if err == nil || !strings.Contains(err.Error(), "nope.jsonl") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("not gzip", func(t *testing.T) {
		p := filepath.Join(dir, "plain.jsonl.gz")
		os.WriteFile(p, []byte("{}"), 0o644)
		if _, err := Open(p); err == nil {
			t.Fatal("Open of a non-gzip .gz file succeeded")
		}
	})
	t.Run("unknown bundled", func(t *testing.T) {
		_, err := Open("bundled:nope.jsonl")
		if err == nil || !strings.Contains(err.Error(), "routing.dev.jsonl") {
			t.Fatalf("err = %v, want the bundled names listed", err)
		}
	})
	bundled := []struct {
		name string
		load func(string) (int, []RowError, error)
		want int
	}{
		{"routing.dev.jsonl", func(p string) (int, []RowError, error) { x, b, e := LoadRouting(p); return len(x), b, e }, 156},
		{"routing.extra.jsonl", func(p string) (int, []RowError, error) { x, b, e := LoadRouting(p); return len(x), b, e }, 82},
		{"rag_questions.dev.jsonl", func(p string) (int, []RowError, error) { x, b, e := LoadQuestions(p); return len(x), b, e }, 200},
		{"negative.dev.jsonl", func(p string) (int, []RowError, error) { x, b, e := LoadNegatives(p); return len(x), b, e }, 50},
		{"rag_corpus.jsonl.gz", func(p string) (int, []RowError, error) { x, b, e := LoadCorpus(p); return len(x), b, e }, 5038},
		{"corpus.extra.jsonl", func(p string) (int, []RowError, error) { x, b, e := LoadCorpus(p); return len(x), b, e }, 20},
	}
	for _, b := range bundled {
		t.Run("bundled "+b.name, func(t *testing.T) {
			n, bad, err := b.load(BundledPrefix + b.name)
			if err != nil || len(bad) != 0 || n != b.want {
				t.Fatalf("got %d rows, %v, %v; want %d clean rows", n, bad, err, b.want)
			}
		})
	}
}

// TestBundledMatchesShared checks that the bundled copies are the dev data
// byte for byte (shared/evaldata beside the repository).
func TestBundledMatchesShared(t *testing.T) {
	shared := findShared(t)
	for _, name := range []string{"routing.dev.jsonl", "rag_questions.dev.jsonl", "negative.dev.jsonl", "rag_corpus.jsonl"} {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(shared, name))
			if err != nil {
				t.Fatal(err)
			}
			bundled := name
			if name == "rag_corpus.jsonl" {
				bundled += ".gz"
			}
			f, err := Open(BundledPrefix + bundled)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := io.ReadAll(f)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("bundled %s differs from %s", bundled, filepath.Join(shared, name))
			}
		})
	}
}

// findShared walks up from the package directory to the directory that
// holds shared/evaldata next to the repository root.
func findShared(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", "evaldata")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("shared/evaldata not found beside the repository: skipping the comparison with the bundled copy")
		}
		dir = parent
	}
}
