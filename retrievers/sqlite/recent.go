package sqlite

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/graphrag/graphrag"
)

// recentKeywordLists is how many keyword candidate lists a store keeps.
// One question asks the store the same keyword query twice within
// milliseconds (the route's probe, then the retrieval: nodes/route.go and
// nodes/retrieve.go), and a chat or `graphrag serve` may repeat a
// question; a handful covers that. Each list is at most Ranking.Depth
// (plus linked) rowids and scores, a few KB.
const recentKeywordLists = 16

// recentLists remembers the last keyword candidate lists, reranked and
// before they are cut to the caller's K, with the store generation they
// were computed at: a write through this Store (Put, Delete) bumps the
// generation and so forgets them, as it drops the title index and the
// embedding matrix. Writes by another process are not seen, as they are
// not by those either.
type recentLists struct {
	mu   sync.Mutex
	next int
	ring [recentKeywordLists]recentList
}

type recentList struct {
	key   string
	gen   uint64
	depth int // the depth the list was computed with
	list  []scored
}

// remembered returns the first n of the list that rank computes at depth
// for key: from lists when an earlier call computed it at that depth or
// deeper since the last write, else from rank, whose list lists keeps when
// no write came while it ran.
func (s *Store) remembered(lists *recentLists, key string, n, depth int, rank func() ([]scored, error)) ([]scored, error) {
	gen := s.generation()
	out, ok := lists.get(key, gen, depth)
	if !ok {
		var err error
		if out, err = rank(); err != nil {
			return nil, err
		}
		if s.generation() == gen { // no write since the query began
			lists.put(key, gen, depth, out)
		}
	}
	return out[:min(n, len(out))], nil
}

// keywordKey identifies a keyword query: its text and filters.
func keywordKey(text string, f graphrag.Filters) string {
	var b strings.Builder
	b.WriteString(text)
	b.WriteByte(0)
	b.WriteString(strings.Join(f.Types, "\x01"))
	b.WriteByte(0)
	b.WriteString(f.Source)
	b.WriteByte(0)
	if !f.Since.IsZero() {
		b.WriteString(strconv.FormatInt(f.Since.UnixNano(), 10))
	}
	b.WriteByte(0)
	if !f.Until.IsZero() {
		b.WriteString(strconv.FormatInt(f.Until.UnixNano(), 10))
	}
	b.WriteByte(0)
	b.WriteString(strings.Join(f.DocIDs, "\x01"))
	return b.String()
}

// get returns a copy of the list for key computed at generation gen with
// at least depth candidates asked for.
func (r *recentLists) get(key string, gen uint64, depth int) ([]scored, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range r.ring {
		e := &r.ring[i]
		if e.list != nil && e.gen == gen && e.depth >= depth && e.key == key {
			return slices.Clone(e.list), true
		}
	}
	return nil, false
}

// put remembers a list, replacing the oldest.
func (r *recentLists) put(key string, gen uint64, depth int, list []scored) {
	if list == nil {
		list = []scored{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ring[r.next] = recentList{key: key, gen: gen, depth: depth, list: slices.Clone(list)}
	r.next = (r.next + 1) % len(r.ring)
}

// generation is the store's write generation (see invalidate).
func (s *Store) generation() uint64 {
	s.vmu.Lock()
	defer s.vmu.Unlock()
	return s.gen
}
