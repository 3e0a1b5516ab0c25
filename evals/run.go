package evals

import (
	"context"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"
)

// Progress reports how far a run is. Phase is "ingest", or the variant
// being run; Done counts finished items of Total in that phase.
type Progress struct {
	Phase       string
	Done, Total int
}

// ProgressFunc receives progress; calls are serialised.
type ProgressFunc func(Progress)

// forEach runs fn for every index in [0,n) with at most limit at a time,
// stopping at the first error or when ctx is done. Each fn writes its own
// result slot, so the output order does not depend on scheduling.
func forEach(ctx context.Context, n, limit int, phase string, progress ProgressFunc, fn func(ctx context.Context, i int) error) error {
	if limit <= 0 {
		limit = runtime.GOMAXPROCS(0)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	var mu sync.Mutex
	done := 0
	report := func() {
		if progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		done++
		progress(Progress{Phase: phase, Done: done, Total: n})
	}
	for i := range n {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			if err := fn(gctx, i); err != nil {
				return err
			}
			report()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}
