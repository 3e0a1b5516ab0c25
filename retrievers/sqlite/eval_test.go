package sqlite_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/evals"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

var sweep = flag.Bool("sweep", false, "TestRetrievalQuality: also print the figures of each ranking variant")

// evalDir finds shared/evaldata beside the repository root by walking up
// from the package directory; "" when absent.
func evalDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", "evaldata")
		if _, err := os.Stat(filepath.Join(p, "rag_corpus.jsonl")); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

type question struct {
	QID      string   `json:"qid"`
	Question string   `json:"question"`
	Gold     []string `json:"gold_passages"`
	Type     string   `json:"type"`
}

func readJSONL[T any](t testing.TB, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// corpusStore ingests rag_corpus.jsonl, one record and one chunk per row,
// into a new store file and returns its path.
func corpusStore(t testing.TB, dir string) string {
	t.Helper()
	type row struct{ ID, Title, Text, Source string }
	rows := readJSONL[row](t, filepath.Join(dir, "rag_corpus.jsonl"))
	path := filepath.Join(t.TempDir(), "corpus.db")
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recs := make([]graphrag.Record, 0, len(rows))
	for _, r := range rows {
		recs = append(recs, graphrag.Record{
			Doc:    graphrag.Document{ID: r.ID, Path: "rag_corpus.jsonl", Title: r.Title, Type: "jsonl", Metadata: map[string]string{"source": r.Source}},
			Chunks: []graphrag.Chunk{{Text: r.Text}},
		})
	}
	if err := s.Put(context.Background(), recs...); err != nil {
		t.Fatal(err)
	}
	return path
}

type metrics struct {
	Recall, BothGold, MRR float64
}

func (m metrics) String() string {
	return fmt.Sprintf("recall@10 %.3f  both-gold@10 %.3f  MRR %.3f", m.Recall, m.BothGold, m.MRR)
}

func evaluate(t testing.TB, path string, rk sqlite.Ranking, qs []question) metrics {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{Ranking: &rk})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var m metrics
	for _, q := range qs {
		res, err := s.Search(context.Background(), graphrag.Query{Text: q.Question, Mode: graphrag.ModeKeyword, K: 10})
		if err != nil {
			t.Fatalf("%s: %v", q.QID, err)
		}
		ranked := evals.RankedDocs(res.Hits)
		m.Recall += evals.RecallAt(ranked, q.Gold, 10)
		if evals.AllGoldAt(ranked, q.Gold, 10) {
			m.BothGold++
		}
		m.MRR += evals.ReciprocalRank(ranked, q.Gold)
	}
	n := float64(len(qs))
	m.Recall /= n
	m.BothGold /= n
	m.MRR /= n
	return m
}

// TestRetrievalQuality measures keyword retrieval on the dev questions and
// fails if the default ranking falls below the figures it reached when it
// was tuned. Run with -v to see them, with -sweep to compare variants:
//
//	go test ./retrievers/sqlite -run RetrievalQuality -v -sweep
func TestRetrievalQuality(t *testing.T) {
	dir := evalDir(t)
	if dir == "" {
		t.Skip("shared/evaldata not found beside the repository: retrieval quality not measured")
	}
	if testing.Short() {
		t.Skip("-short: retrieval quality not measured")
	}
	qs := readJSONL[question](t, filepath.Join(dir, "rag_questions.dev.jsonl"))
	path := corpusStore(t, dir)

	plain := sqlite.Ranking{TitleWeight: 1, TextWeight: 1}
	variants := []struct {
		name string
		rk   sqlite.Ranking
	}{
		{"plain bm25", plain},
		{"default", sqlite.DefaultRanking()},
		{"default without title links", func() sqlite.Ranking { r := sqlite.DefaultRanking(); r.Links = 0; return r }()},
	}
	if raceEnabled {
		variants = variants[1:2] // the default only: the floor still holds
	}
	if *sweep {
		variants = append(variants, sweepVariants()...)
	}
	for _, v := range variants {
		m := evaluate(t, path, v.rk, qs)
		t.Logf("%-40s %s", v.name, m)
		if v.name != "default" {
			continue
		}
		if !raceEnabled {
			byType := map[string][]question{}
			for _, q := range qs {
				byType[q.Type] = append(byType[q.Type], q)
			}
			for _, typ := range []string{"single-hop", "multi-hop", "yes-no"} {
				if len(byType[typ]) > 0 {
					t.Logf("  %-38s %s", fmt.Sprintf("%s (%d)", typ, len(byType[typ])), evaluate(t, path, v.rk, byType[typ]))
				}
			}
		}
		floor := metrics{Recall: 0.96, BothGold: 0.94, MRR: 0.92}
		if m.Recall < floor.Recall || m.BothGold < floor.BothGold || m.MRR < floor.MRR {
			t.Errorf("default ranking: %s, below the floor %s", m, floor)
		}
	}
}

func sweepVariants() []struct {
	name string
	rk   sqlite.Ranking
} {
	var out []struct {
		name string
		rk   sqlite.Ranking
	}
	for _, links := range []float64{0.3, 0.5, 0.7, 0.8, 0.9} {
		for _, from := range []int{1, 2, 3} {
			rk := sqlite.DefaultRanking()
			rk.Links, rk.LinkFrom = links, from
			out = append(out, struct {
				name string
				rk   sqlite.Ranking
			}{fmt.Sprintf("links %g from %d", links, from), rk})
		}
	}
	return out
}
