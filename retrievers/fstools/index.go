package fstools

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
)

// Index is the store the roots were ingested into, as far as the tools need
// it: which documents it holds, and keyword search over their text. It is
// optional (Options.Index): without it counts are of the files on disk alone,
// and "how many files mention X" and questions about the store itself say
// that they need the store. Both stores satisfy it.
type Index interface {
	Manifest(ctx context.Context) ([]graphrag.DocState, error)
	Search(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error)
}

// StoreReporter is what an Index may also do, found by type assertion:
// report on the store itself (size, ingested folders, last ingest), for
// questions such as "when did I last ingest".
type StoreReporter interface {
	StoreReport(ctx context.Context) (StoreReport, error)
}

// StoreReport is what the store records of itself.
type StoreReport struct {
	Documents, Chunks int
	// Embedder names the embedding model that built the store, "" for none.
	Embedder string
	// Bytes is the store's size on disk, 0 when unknown (PostgreSQL).
	Bytes int64
	Roots []RootReport
}

// RootReport is one folder (or file) given to ingest.
type RootReport struct {
	Path          string
	Files, Chunks int
	LastIngest    time.Time      // zero when no ingest of it finished
	Skipped       map[string]int // files the last ingest skipped, by reason
	Missing       bool           // the folder no longer exists
}

// maxMentionDocs bounds the keyword search behind a mention count: each hit
// is a chunk, so this many chunks are read at most. It is the most hits the
// PostgreSQL store returns for one query (retrievers/pgvector clamps K to
// 1000), so a search that fills it may have been cut short on either store,
// and the count is then reported as a lower bound ("at least").
const maxMentionDocs = 1000

// indexed returns the set of paths the store holds documents for, with the
// same paths as the roots see them (a root reached through a symbolic link
// is stored by its resolved path).
func (t *Tools) indexed(ctx context.Context) (map[string]bool, error) {
	docs, err := t.opts.Index.Manifest(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the store's documents: %w", err)
	}
	set := make(map[string]bool, len(docs))
	for _, d := range docs {
		if d.Path != "" {
			set[filepath.Clean(d.Path)] = true
		}
	}
	return set, nil
}

// isIndexed reports whether the file at p (as a walk sees it) is in set.
func (t *Tools) isIndexed(set map[string]bool, p string) bool {
	if set[p] {
		return true
	}
	if r, ok := t.rootOf(p); ok && r.path != r.resolved && within(r.path, p) {
		return set[filepath.Join(r.resolved, strings.TrimPrefix(p, r.path))]
	}
	return false
}

// skippedNote says why files were not indexed, from the store's record of
// what the last ingest of each root skipped, and how many it skipped; ""
// when it is not known (the count is an aside: a record it cannot read
// leaves the count without it).
func (t *Tools) skippedNote(ctx context.Context) (string, int) {
	sr, ok := t.opts.Index.(StoreReporter)
	if !ok {
		return "", 0
	}
	rep, err := sr.StoreReport(ctx)
	if err != nil {
		return "", 0
	}
	reasons := map[string]int{}
	total := 0
	for _, r := range rep.Roots {
		for reason, n := range r.Skipped {
			reasons[reason] += n
			total += n
		}
	}
	return reasonList(reasons), total
}

// reasonList is "700 unsupported type, 62 too large", most first.
func reasonList(reasons map[string]int) string {
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if reasons[keys[i]] != reasons[keys[j]] {
			return reasons[keys[i]] > reasons[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", reasons[k], k)
	}
	return strings.Join(parts, ", ")
}

// mentions counts the distinct documents whose indexed text holds every
// word of term, by the store's keyword search narrowed by the filter's
// types, folder and time window. It returns the documents' hits, best
// first, and whether the count reached maxMentionDocs (a lower bound).
func (t *Tools) mentions(ctx context.Context, term string, f Filter) (int, []graphrag.Hit, bool, error) {
	filters := graphrag.Filters{Types: f.Types, Source: f.Source, Since: f.Since, Until: f.Until}
	if f.Window != graphrag.TimeAny {
		filters.Since, filters.Until = f.Window.Range(t.opts.Now())
	}
	res, err := t.opts.Index.Search(ctx, graphrag.Query{Text: term, Mode: graphrag.ModeKeyword, K: maxMentionDocs, Filters: filters})
	if err != nil {
		return 0, nil, false, fmt.Errorf("keyword search %q: %w", term, err)
	}
	words := strings.Fields(strings.ToLower(term))
	seen := map[string]bool{}
	var docs []graphrag.Hit
	for _, h := range res.Hits {
		id := h.Source.DocID
		if id == "" {
			id = h.Chunk.DocID
		}
		if seen[id] || !holdsAll(h.Chunk.Text+"\n"+h.Source.Title, words) {
			continue // a ranked neighbour or a link, not a mention
		}
		seen[id] = true
		docs = append(docs, h)
	}
	return len(docs), docs, len(res.Hits) >= maxMentionDocs, nil
}

func holdsAll(text string, words []string) bool {
	low := strings.ToLower(text)
	for _, w := range words {
		if !strings.Contains(low, w) {
			return false
		}
	}
	return len(words) > 0
}
