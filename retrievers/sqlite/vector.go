package sqlite

import (
	"container/heap"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/graphrag/graphrag"
)

// matrix holds every embedding, L2-normalised, row after row in one
// contiguous slice, so a query is one pass of dot products.
type matrix struct {
	dim    int
	rowids []int64
	data   []float32
}

func (s *Store) invalidate() {
	s.vmu.Lock()
	s.gen++
	s.vec = nil
	s.titles = nil
	s.vmu.Unlock()
}

// matrix returns the in-memory matrix, loading it if a write dropped it.
func (s *Store) matrix(ctx context.Context) (*matrix, error) {
	s.vload.Lock() // one loader at a time; the others wait and reuse
	defer s.vload.Unlock()
	s.vmu.Lock()
	if m := s.vec; m != nil {
		s.vmu.Unlock()
		return m, nil
	}
	gen := s.gen
	s.vmu.Unlock()

	m := &matrix{dim: s.dim}
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks WHERE embedding IS NOT NULL").Scan(&n); err != nil {
		return nil, fmt.Errorf("load embeddings: %w", err)
	}
	m.data = make([]float32, 0, n*m.dim) // a hint: writes may land in between
	m.rowids = make([]int64, 0, n)
	rows, err := s.db.QueryContext(ctx, "SELECT rowid, embedding FROM chunks WHERE embedding IS NOT NULL ORDER BY rowid")
	if err != nil {
		return nil, fmt.Errorf("load embeddings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var blob []byte
		if err := rows.Scan(&id, &blob); err != nil {
			return nil, fmt.Errorf("load embeddings: %w", err)
		}
		if len(blob) != 4*m.dim {
			return nil, fmt.Errorf("load embeddings: chunk row %d has %d bytes, want %d: the store file is damaged", id, len(blob), 4*m.dim)
		}
		n := len(m.data)
		m.data = append(m.data, make([]float32, m.dim)...)
		row := m.data[n:]
		decodeVector(blob, row)
		normalise(row)
		m.rowids = append(m.rowids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load embeddings: %w", err)
	}
	s.vmu.Lock()
	if s.gen == gen { // no write since we started reading
		s.vec = m
	}
	s.vmu.Unlock()
	return m, nil
}

func normalise(v []float32) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= inv
	}
}

// vector returns the n chunks nearest to the query by cosine similarity.
func (s *Store) vector(ctx context.Context, q graphrag.Query, n int) ([]scored, error) {
	qv := q.Vector
	if qv == nil {
		vs, err := s.emb.Embed(ctx, []string{q.Text})
		if err != nil {
			return nil, fmt.Errorf("embed query with %s: %w", s.builtBy, err)
		}
		if len(vs) != 1 || len(vs[0]) != s.dim {
			return nil, fmt.Errorf("embedder %s returned %d vectors, want one of dimension %d", s.builtBy, len(vs), s.dim)
		}
		qv = vs[0]
	}
	qv = append([]float32(nil), qv...)
	normalise(qv)
	m, err := s.matrix(ctx)
	if err != nil {
		return nil, err
	}
	var allowed map[int64]bool
	if !q.Filters.IsZero() {
		if allowed, err = s.allowed(ctx, q.Filters); err != nil {
			return nil, err
		}
		if len(allowed) == 0 {
			return nil, nil
		}
	}
	return m.nearest(qv, n, allowed), nil
}

// parallelRows is the matrix size from which a scan is split across cores.
const parallelRows = 20000

// nearest scans the matrix for the n rows with the highest dot product
// with q (cosine: rows and q are normalised), split across GOMAXPROCS
// goroutines for large matrices.
func (m *matrix) nearest(q []float32, n int, allowed map[int64]bool) []scored {
	parts := 1
	if len(m.rowids) >= parallelRows {
		parts = runtime.GOMAXPROCS(0)
	}
	heaps := make([]minHeap, parts)
	var wg sync.WaitGroup
	per := (len(m.rowids) + parts - 1) / parts
	for p := 0; p < parts; p++ {
		lo, hi := p*per, min((p+1)*per, len(m.rowids))
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := &heaps[p]
			for i := lo; i < hi; i++ {
				id := m.rowids[i]
				if allowed != nil && !allowed[id] {
					continue
				}
				c := scored{id, float64(dot(m.data[i*m.dim:(i+1)*m.dim], q))}
				if h.Len() < n {
					heap.Push(h, c)
				} else if better(c, (*h)[0]) {
					(*h)[0] = c
					heap.Fix(h, 0)
				}
			}
		}()
	}
	wg.Wait()
	all := &minHeap{}
	for _, h := range heaps {
		for _, c := range h {
			if all.Len() < n {
				heap.Push(all, c)
			} else if better(c, (*all)[0]) {
				(*all)[0] = c
				heap.Fix(all, 0)
			}
		}
	}
	out := make([]scored, all.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(all).(scored)
	}
	return out
}

// better orders by score, then by rowid so results are deterministic.
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.rowid < b.rowid
}

// dot is the dot product of two equal-length vectors, four lanes at a time.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// allowed returns the rowids of the chunks that pass the filters.
func (s *Store) allowed(ctx context.Context, f graphrag.Filters) (map[int64]bool, error) {
	where, args := filterSQL(f)
	return s.chunkSet(ctx, "SELECT c.rowid FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE "+where, args...)
}

// allowedAmong is allowed for the chunks of rowids alone.
func (s *Store) allowedAmong(ctx context.Context, f graphrag.Filters, rowids []int64) (map[int64]bool, error) {
	where, args := filterSQL(f)
	b, _ := json.Marshal(rowids)
	return s.chunkSet(ctx, "SELECT c.rowid FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE c.rowid IN (SELECT value FROM json_each(?)) AND "+where,
		append([]any{string(b)}, args...)...)
}

// chunkSet runs a query for chunk rowids and returns them as a set.
func (s *Store) chunkSet(ctx context.Context, query string, args ...any) (map[int64]bool, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("filter: %w", err)
		}
		out[id] = true
	}
	return out, rows.Err()
}

// minHeap keeps the best n by score, worst on top.
type minHeap []scored

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
