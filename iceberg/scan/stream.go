package scan

import (
	"context"
	"iter"
	"sync"

	"github.com/icesql/icesql/iceberg"
)

// stream reads manifests on a few goroutines and yields their results in
// list order. At most 2*workers results are decoded ahead of the
// consumer, so memory stays bounded however many manifests there are.
// Stopping early or a cancelled ctx ends the workers before it returns.
func (p *planner) stream(ctx context.Context, open Opener, mfs []iceberg.ManifestFile, workers int) iter.Seq2[manifestResult, error] {
	return func(yield func(manifestResult, error) bool) {
		if len(mfs) == 0 {
			return
		}
		if workers <= 0 {
			workers = 4
		}
		ctx, cancel := context.WithCancel(ctx)
		type slot struct {
			res manifestResult
			err error
		}
		// Each slot is written once, so workers never block on a send.
		slots := make([]chan slot, len(mfs))
		for i := range slots {
			slots[i] = make(chan slot, 1)
		}
		window := make(chan struct{}, 2*workers)
		next := make(chan int)
		var wg sync.WaitGroup
		for range min(workers, len(mfs)) {
			wg.Go(func() {
				for i := range next {
					r, err := p.readManifest(open, &mfs[i])
					slots[i] <- slot{r, err}
				}
			})
		}
		wg.Go(func() {
			defer close(next)
			for i := range mfs {
				select {
				case window <- struct{}{}:
				case <-ctx.Done():
					return
				}
				select {
				case next <- i:
				case <-ctx.Done():
					return
				}
			}
		})
		defer func() {
			cancel()
			wg.Wait()
		}()
		for i := range mfs {
			var s slot
			select {
			case s = <-slots[i]:
			case <-ctx.Done():
				yield(manifestResult{}, ctx.Err())
				return
			}
			<-window
			if err := ctx.Err(); err != nil {
				// Both may be ready; a cancelled plan stops either way.
				yield(manifestResult{}, err)
				return
			}
			if s.err != nil {
				yield(manifestResult{}, &PlanError{Path: mfs[i].Path, Err: s.err})
				return
			}
			if !yield(s.res, nil) {
				return
			}
		}
	}
}
