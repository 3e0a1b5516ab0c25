package fstools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// reportingStore is the SQLite store with a recorded report, as cmd/graphrag
// gives it: the store itself is real, only its record of ingests is fixed.
type reportingStore struct {
	*sqlite.Store
	rep StoreReport
}

func (r reportingStore) StoreReport(context.Context) (StoreReport, error) { return r.rep, nil }

var (
	_ Index         = (*sqlite.Store)(nil)
	_ StoreReporter = reportingStore{}
	// nodes.StoreQuestions, restated.
	_ interface{ AboutStore(string) bool } = (*Tools)(nil)
)

// indexedFixture writes files under a new root and stores the ones named in
// indexed (rel path → text) in a real SQLite store.
func indexedFixture(t *testing.T, files int, indexed map[string]string) (string, *sqlite.Store) {
	t.Helper()
	root := t.TempDir()
	for i := range files {
		rel := filepath.Join("notes", "n"+string(rune('a'+i))+".md")
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("note "+rel), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := clock.Add(-time.Duration(i) * time.Hour)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "store.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for rel, text := range indexed {
		p := filepath.Join(root, rel)
		doc := graphrag.Document{ID: p, Path: p, Title: filepath.Base(p), Type: "md", Hash: rel, ModTime: clock}
		if err := st.Put(ctx, graphrag.Record{Doc: doc, Chunks: []graphrag.Chunk{{ID: graphrag.ChunkID(p, 0), DocID: p, Text: text}}}); err != nil {
			t.Fatal(err)
		}
	}
	return root, st
}

func toolsWith(t *testing.T, root string, idx Index) *Tools {
	t.Helper()
	tools, err := New([]string{root}, Options{Now: func() time.Time { return clock }, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

// A count lists at most countNamed files, and its sources are those files,
// not every file counted (issue 14: 50 sources for an answer naming 5).
func TestCountSourcesAreTheNamedFiles(t *testing.T) {
	root, _ := indexedFixture(t, 12, nil)
	tools := newTools(t, root)
	text, hits, err := tools.Answer(context.Background(), graphrag.Plan{Query: "how many files do I have"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, "12 files") {
		t.Fatalf("answer %q, want 12 files", text)
	}
	if len(hits) != countNamed {
		t.Fatalf("%d sources, want the %d the answer names", len(hits), countNamed)
	}
	for _, h := range hits {
		if !strings.Contains(text, filepath.Base(h.Source.Path)) {
			t.Errorf("source %s is not named in the answer %q", h.Source.Path, text)
		}
	}
}

// A count that includes files the store does not hold says so, with the
// reasons ingest recorded (issue 14: 11,464 counted vs 10,702 indexed).
func TestCountSaysWhatIsNotIndexed(t *testing.T) {
	root, st := indexedFixture(t, 6, map[string]string{"notes/na.md": "a", "notes/nb.md": "b", "notes/nc.md": "c", "notes/nd.md": "d"})
	ctx := context.Background()
	t.Run("with the skip reasons", func(t *testing.T) {
		idx := reportingStore{st, StoreReport{Roots: []RootReport{{Path: root, Skipped: map[string]int{"too large": 2}}}}}
		text, _, err := toolsWith(t, root, idx).Answer(ctx, graphrag.Plan{Query: "how many files do I have"})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"6 files", "4 are indexed and 2 are not: the last ingest skipped them (2 too large)"} {
			if !strings.Contains(text, want) {
				t.Errorf("answer %q lacks %q", text, want)
			}
		}
	})
	t.Run("a filtered count gives no folder-wide reasons", func(t *testing.T) {
		idx := reportingStore{st, StoreReport{Roots: []RootReport{{Path: root, Skipped: map[string]int{"too large": 2}}}}}
		text, _, err := toolsWith(t, root, idx).Answer(ctx, graphrag.Plan{Query: "how many md files do I have"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "2 are not: ingest skipped them or they are newer") || strings.Contains(text, "too large") {
			t.Errorf("answer %q", text)
		}
	})
	t.Run("all indexed says nothing more", func(t *testing.T) {
		root, st := indexedFixture(t, 2, map[string]string{"notes/na.md": "a", "notes/nb.md": "b"})
		text, _, err := toolsWith(t, root, st).Answer(ctx, graphrag.Plan{Query: "how many files do I have"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(text, "indexed") {
			t.Errorf("answer %q mentions indexing though every file is indexed", text)
		}
	})
}

// "how many files mention X" counts the documents whose text holds X, by
// the store's keyword search (issue 14: it counted nothing).
func TestMentionsCountDocuments(t *testing.T) {
	root, st := indexedFixture(t, 5, map[string]string{
		"notes/na.md": "Raise shared_buffers to a quarter of RAM.",
		"notes/nb.md": "shared_buffers is read at server start.",
		"notes/nc.md": "work_mem is per sort.",
		"notes/nd.md": "Vacuum reclaims space.",
	})
	tools := toolsWith(t, root, st)
	for _, q := range []string{"how many files mention shared_buffers", "which documents contain \"shared_buffers\""} {
		t.Run(q, func(t *testing.T) {
			in := tools.Interpret(graphrag.Plan{Query: q})
			if in.Tool != ToolMentions || in.Term != "shared_buffers" {
				t.Fatalf("intent %s term %q (%s), want mentions of shared_buffers", in.Tool, in.Term, in.Reason)
			}
			text, hits, err := tools.Answer(context.Background(), graphrag.Plan{Query: q})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(text, `2 documents mention "shared_buffers"`) {
				t.Fatalf("answer %q, want a count of 2 documents", text)
			}
			if len(hits) != 2 {
				t.Fatalf("%d sources, want the 2 documents", len(hits))
			}
			if !strings.Contains(text, "notes/na.md") || strings.Contains(text, root) {
				t.Errorf("answer %q should name the documents relative to the folder", text)
			}
		})
	}
	t.Run("without the store it says what it needs", func(t *testing.T) {
		text, hits, err := newTools(t, root).Answer(context.Background(), graphrag.Plan{Query: "how many files mention shared_buffers"})
		if err != nil || len(hits) != 0 || !strings.Contains(text, "needs the store's index") {
			t.Fatalf("answer %q, %d hits, %v", text, len(hits), err)
		}
	})
}

func TestMentionTermWording(t *testing.T) {
	tests := []struct{ query, term string }{
		{"how many files mention shared_buffers", "shared_buffers"},
		{"which notes talk about the word vacuum", "vacuum"},
		{"files containing TODO in the docs folder", "TODO"},
		{"files containing 2024 in the name", ""},
		{"how many files do I have", ""},
		{"what does shared_buffers mean", ""},
		{"which folders contain PDFs", ""},
		{"how many documents contain images", ""},
		{"how many markdown files mention postgres", "postgres"},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			if got := mentionTerm(parse(tc.query)); got != tc.term {
				t.Errorf("term %q, want %q", got, tc.term)
			}
		})
	}
}

func TestAboutStore(t *testing.T) {
	tests := []struct {
		query string
		want  bool
	}{
		{"when did I last ingest", true},
		{"how big is my index", true},
		{"which folders have I ingested", true},
		{"which folders are indexed", true},
		{"how do I ingest a folder", false},
		{"which columns are indexed", false},
		{"how many PDFs have I ingested", false},
		{"how many files do I have", false},
		{"summarize the notes I ingested yesterday", false},
		{"what are the files I ingested about", false},
		{"how many files I ingested mention vacuum", false},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			if got := AboutStore(tc.query); got != tc.want {
				t.Errorf("AboutStore = %v, want %v", got, tc.want)
			}
		})
	}
}

// Questions about the store are answered from its record.
func TestStoreQuestionsAnsweredFromRecord(t *testing.T) {
	root, st := indexedFixture(t, 2, map[string]string{"notes/na.md": "a"})
	last := time.Date(2026, 11, 17, 9, 30, 0, 0, time.UTC)
	idx := reportingStore{st, StoreReport{Documents: 1, Chunks: 1, Bytes: 4096,
		Roots: []RootReport{{Path: root, Files: 1, Chunks: 1, LastIngest: last, Skipped: map[string]int{"unsupported type": 1}}}}}
	tools := toolsWith(t, root, idx)
	for _, q := range []string{"when did I last ingest", "how big is my index", "which folders have I ingested"} {
		t.Run(q, func(t *testing.T) {
			text, hits, err := tools.Answer(context.Background(), graphrag.Plan{Query: q})
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"2026-11-17 09:30", "1 document", "4.00 KB", root, "1 unsupported type"} {
				if !strings.Contains(text, want) {
					t.Errorf("answer %q lacks %q", text, want)
				}
			}
			if len(hits) != 1 || hits[0].Source.Path != root {
				t.Errorf("sources %v, want the ingested folder", hits)
			}
		})
	}
	t.Run("without a record it points to graphrag sources", func(t *testing.T) {
		text, _, err := toolsWith(t, root, st).Answer(context.Background(), graphrag.Plan{Query: "when did I last ingest"})
		if err != nil || !strings.Contains(text, "graphrag sources") {
			t.Fatalf("answer %q, %v", text, err)
		}
	})
}

// fullIndex returns as many hits as a search may, each a different document
// holding the term: the search may have been cut short.
type fullIndex struct{ *sqlite.Store }

func (fullIndex) Search(_ context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	hits := make([]graphrag.Hit, q.K)
	for i := range hits {
		id := filepath.Join("/docs", strings.Repeat("x", i%7+1), string(rune('a'+i%26))+strings.Repeat("y", i/26)+".md")
		hits[i] = graphrag.Hit{Chunk: graphrag.Chunk{DocID: id, Text: "about " + q.Text}, Source: graphrag.Source{DocID: id, Path: id}}
	}
	return graphrag.SearchResult{Hits: hits}, nil
}

func TestMentionCountThatFillsTheSearchIsALowerBound(t *testing.T) {
	root, st := indexedFixture(t, 1, nil)
	text, _, err := toolsWith(t, root, fullIndex{st}).Answer(context.Background(), graphrag.Plan{Query: "how many files mention vacuum"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, "At least 1000 documents mention") {
		t.Errorf("answer %q, want a lower bound", text)
	}
}
