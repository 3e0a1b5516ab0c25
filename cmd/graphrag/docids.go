package main

import (
	"context"
	"sort"
	"strings"
	"sync"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/ingest"
)

// reasonBadDocID is the skip reason of a document whose ID no store can
// keep (graphrag.CheckDocID).
const reasonBadDocID = "invalid document id"

// checkedIDs passes an ingest's writes to the store, leaving out the
// documents whose IDs graphrag.CheckDocID refuses (a file name in Latin-1,
// a JSONL id with a NUL): a store refuses the whole batch for one of them,
// which stopped the ingest there on every run, so deletions never
// happened. They are reported as skipped instead, and the rest is written.
type checkedIDs struct {
	ingest.Store
	mu       sync.Mutex
	stored   map[string]bool // IDs of the manifest, to tell updates from additions
	problems []ingest.Problem
	added    int
	updated  int
	chunks   int
}

func (c *checkedIDs) Manifest(ctx context.Context) ([]graphrag.DocState, error) {
	m, err := c.Store.Manifest(ctx)
	c.mu.Lock()
	c.stored = make(map[string]bool, len(m))
	for _, d := range m {
		c.stored[d.ID] = true
	}
	c.mu.Unlock()
	return m, err
}

func (c *checkedIDs) Put(ctx context.Context, recs ...graphrag.Record) error {
	keep := recs[:0:0]
	c.mu.Lock()
	for _, r := range recs {
		err := graphrag.CheckDocID(r.Doc.ID)
		if err == nil {
			keep = append(keep, r)
			continue
		}
		path := r.Doc.Path
		if path == "" {
			path = r.Doc.ID
		}
		c.problems = append(c.problems, ingest.Problem{Path: strings.ToValidUTF8(strings.ReplaceAll(path, "\x00", ""), "\uFFFD"),
			Reason: reasonBadDocID, Detail: err.Error()})
		if c.stored[r.Doc.ID] {
			c.updated++
		} else {
			c.added++
		}
		c.chunks += len(r.Chunks)
	}
	c.mu.Unlock()
	if len(keep) == 0 {
		return nil
	}
	return c.Store.Put(ctx, keep...)
}

// amend corrects the ingest's summary: the documents left out were counted
// as written.
func (c *checkedIDs) amend(sum *ingest.Summary) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.problems) == 0 {
		return
	}
	sum.Added -= c.added
	sum.Updated -= c.updated
	sum.Chunks -= c.chunks
	if sum.Skipped == nil {
		sum.Skipped = map[string]int{}
	}
	sum.Skipped[reasonBadDocID] += len(c.problems)
	sum.Problems = append(sum.Problems, c.problems...)
	sort.SliceStable(sum.Problems, func(i, j int) bool {
		a, b := sum.Problems[i], sum.Problems[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
}
