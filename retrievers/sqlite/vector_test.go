package sqlite

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
)

func TestNearestMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, rows := range []int{0, 7, parallelRows + 1234} {
		m := &matrix{dim: 12}
		for i := 0; i < rows; i++ {
			v := make([]float32, m.dim)
			for j := range v {
				v[j] = float32(rng.NormFloat64())
			}
			normalise(v)
			m.data = append(m.data, v...)
			m.rowids = append(m.rowids, int64(i*3+1))
		}
		q := make([]float32, m.dim)
		for j := range q {
			q[j] = float32(rng.NormFloat64())
		}
		normalise(q)
		allowed := map[int64]bool{}
		for i := 0; i < rows; i += 5 {
			allowed[int64(i*3+1)] = true
		}
		for _, tc := range []struct {
			name    string
			allowed map[int64]bool
		}{{"all", nil}, {"filtered", allowed}} {
			t.Run(fmt.Sprintf("rows=%d/%s", rows, tc.name), func(t *testing.T) {
				var ref []scored
				for i, id := range m.rowids {
					if tc.allowed == nil || tc.allowed[id] {
						var d float32
						for j := 0; j < m.dim; j++ {
							d += m.data[i*m.dim+j] * q[j]
						}
						ref = append(ref, scored{id, float64(d)})
					}
				}
				sort.Slice(ref, func(i, j int) bool { return better(ref[i], ref[j]) })
				ref = ref[:min(10, len(ref))]
				got := m.nearest(q, 10, tc.allowed)
				if len(got) != len(ref) {
					t.Fatalf("%d results, want %d", len(got), len(ref))
				}
				for i := range ref {
					if got[i].rowid != ref[i].rowid || abs(got[i].score-ref[i].score) > 1e-5 {
						t.Errorf("result %d = %+v, want %+v", i, got[i], ref[i])
					}
				}
			})
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
