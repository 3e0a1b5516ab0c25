package nodes

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// memSearcher is an in-memory BM25 searcher over title and text, the
// reference a Searcher must beat; it stands in for a store in tests.
type memSearcher struct {
	docs   []graphrag.Hit
	tf     []map[string]int
	length []int
	df     map[string]int
	avg    float64
	calls  int
	// fail, when set, is returned by Search.
	fail error
}

func newMemSearcher(hits []graphrag.Hit) *memSearcher {
	m := &memSearcher{df: make(map[string]int)}
	var total int
	for _, h := range hits {
		tf := make(map[string]int)
		n := 0
		for _, t := range tokenize(h.Source.Title + " \n " + h.Chunk.Text) {
			if stopWords[t.Lower] {
				continue
			}
			tf[t.Stem]++
			n++
		}
		// The title counts twice: a field boost.
		for _, t := range tokenize(h.Source.Title) {
			if !stopWords[t.Lower] {
				tf[t.Stem]++
				n++
			}
		}
		for s := range tf {
			m.df[s]++
		}
		m.docs = append(m.docs, h)
		m.tf = append(m.tf, tf)
		m.length = append(m.length, n)
		total += n
	}
	if len(hits) > 0 {
		m.avg = float64(total) / float64(len(hits))
	}
	return m
}

func (m *memSearcher) Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error) {
	m.calls++
	if m.fail != nil {
		return graphrag.SearchResult{}, m.fail
	}
	if err := ctx.Err(); err != nil {
		return graphrag.SearchResult{}, err
	}
	k := q.K
	if k <= 0 {
		k = 10
	}
	var qs []string
	seen := map[string]bool{}
	for _, t := range tokenize(q.Text) {
		if !stopWords[t.Lower] && !seen[t.Stem] {
			seen[t.Stem] = true
			qs = append(qs, t.Stem)
		}
	}
	type scored struct {
		i int
		s float64
	}
	var out []scored
	n := float64(len(m.docs))
	for i, tf := range m.tf {
		h := m.docs[i]
		if !matchFilters(h, q.Filters) {
			continue
		}
		var s float64
		for _, t := range qs {
			f := float64(tf[t])
			if f == 0 {
				continue
			}
			df := float64(m.df[t])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			s += idf * f * 2.2 / (f + 1.2*(0.25+0.75*float64(m.length[i])/m.avg))
		}
		if s > 0 {
			out = append(out, scored{i, s})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].s != out[b].s {
			return out[a].s > out[b].s
		}
		return out[a].i < out[b].i
	})
	if len(out) > k {
		out = out[:k]
	}
	res := graphrag.SearchResult{Mode: graphrag.ModeKeyword}
	if q.Mode != graphrag.ModeKeyword {
		res.Note = "no embedder configured: keyword search only"
	}
	for r, o := range out {
		h := m.docs[o.i]
		h.Score = o.s
		h.Ranks = graphrag.Ranks{Keyword: r + 1}
		res.Hits = append(res.Hits, h)
	}
	return res, nil
}

func matchFilters(h graphrag.Hit, f graphrag.Filters) bool {
	if len(f.Types) > 0 {
		ok := false
		for _, t := range f.Types {
			ok = ok || t == h.Source.Type
		}
		if !ok {
			return false
		}
	}
	if f.Source != "" && !strings.Contains(strings.ToLower(h.Source.Path+" "+h.Source.Title), strings.ToLower(f.Source)) {
		return false
	}
	if !f.Since.IsZero() && h.Source.ModTime.Before(f.Since) {
		return false
	}
	if !f.Until.IsZero() && !h.Source.ModTime.Before(f.Until) {
		return false
	}
	if len(f.DocIDs) > 0 && !slices.Contains(f.DocIDs, h.Chunk.DocID) {
		return false
	}
	return true
}

// evalDir finds shared/evaldata beside the repository root, or "".
func evalDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, "shared", "evaldata")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		// The repository's parent holds shared/ (CI clones it beside the repo).
		p = filepath.Join(filepath.Dir(dir), "shared", "evaldata")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func readJSONL[T any](t testing.TB, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
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
	return out
}

type corpusRow struct {
	ID, Title, Text, Source string
}

type ragQuestion struct {
	QID          string   `json:"qid"`
	Question     string   `json:"question"`
	Answers      []string `json:"answers"`
	GoldPassages []string `json:"gold_passages"`
	Type         string   `json:"type"`
}

type negativeQuestion struct {
	QID      string `json:"qid"`
	Question string `json:"question"`
}

type routingRow struct {
	Query         string `json:"query"`
	Route         string `json:"route"`
	LabelStrength string `json:"label_strength"`
}

// corpusHits turns corpus rows into one-chunk documents.
func corpusHits(rows []corpusRow) []graphrag.Hit {
	hits := make([]graphrag.Hit, len(rows))
	for i, r := range rows {
		hits[i] = graphrag.Hit{
			Chunk:  graphrag.Chunk{ID: graphrag.ChunkID(r.ID, 0), DocID: r.ID, Text: r.Text},
			Source: graphrag.Source{DocID: r.ID, Path: "rag_corpus.jsonl", Title: r.Title, Type: "jsonl"},
		}
	}
	return hits
}

// Copies reads the passages whose text is text in the documents whose IDs
// begin with one of prefixes, ordered by document ID and place, as the
// stores do (retrievers/storetest checks them).
func (m *memSearcher) Copies(ctx context.Context, text string, prefixes []string) ([]graphrag.Hit, error) {
	var out []graphrag.Hit
	for _, h := range m.docs {
		if h.Chunk.Text == text && slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(h.Chunk.DocID, p) }) {
			h.Score, h.Ranks = 0, graphrag.Ranks{}
			out = append(out, h)
		}
	}
	slices.SortStableFunc(out, func(a, b graphrag.Hit) int {
		return cmp.Or(strings.Compare(a.Chunk.DocID, b.Chunk.DocID), cmp.Compare(a.Chunk.Ordinal, b.Chunk.Ordinal))
	})
	return out, nil
}
