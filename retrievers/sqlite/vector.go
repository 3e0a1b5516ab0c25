package sqlite

import (
	"container/heap"
	"context"
	"fmt"
	"math"

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
	s.vmu.Lock()
	if m := s.vec; m != nil {
		s.vmu.Unlock()
		return m, nil
	}
	gen := s.gen
	s.vmu.Unlock()

	m := &matrix{dim: s.dim}
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
	h := &minHeap{}
	for i, id := range m.rowids {
		if allowed != nil && !allowed[id] {
			continue
		}
		row := m.data[i*m.dim : (i+1)*m.dim]
		var dot float32
		for j, x := range row {
			dot += x * qv[j]
		}
		c := scored{id, float64(dot)}
		if h.Len() < n {
			heap.Push(h, c)
		} else if c.score > (*h)[0].score {
			(*h)[0] = c
			heap.Fix(h, 0)
		}
	}
	out := make([]scored, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(scored)
	}
	return out, nil
}

// allowed returns the rowids of the chunks that pass the filters.
func (s *Store) allowed(ctx context.Context, f graphrag.Filters) (map[int64]bool, error) {
	where, args := filterSQL(f)
	rows, err := s.db.QueryContext(ctx, "SELECT c.rowid FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE "+where, args...)
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

func (h minHeap) Len() int { return len(h) }
func (h minHeap) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score < h[j].score
	}
	return h[i].rowid > h[j].rowid
}
func (h minHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)   { *h = append(*h, x.(scored)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
