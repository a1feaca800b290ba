package maintenance

import (
	"context"
	"sync"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// reachable is the set of files some snapshots reach: their manifest
// lists, manifests and content files (with the content kind, for the
// result counts).
type reachable struct {
	lists     map[string]bool
	manifests map[string]iceberg.ManifestFile
	files     map[string]iceberg.FileContent
}

func newReachable() *reachable {
	return &reachable{lists: map[string]bool{}, manifests: map[string]iceberg.ManifestFile{}, files: map[string]iceberg.FileContent{}}
}

// readWorkers is how many manifests are read at once.
const readWorkers = 8

// collect adds what the snapshots reach. Manifests in skip are recorded
// but their entries are not read (their files are accounted elsewhere).
// With liveOnly, DELETED entries are ignored: a file a manifest only
// records as deleted is not reachable through it.
func (r *reachable) collect(ctx context.Context, tbl *table.Table, meta *iceberg.TableMetadata,
	snaps []*iceberg.Snapshot, skip map[string]iceberg.ManifestFile, liveOnly bool) error {
	mfs, err := r.addSnapshots(ctx, tbl, snaps)
	if err != nil {
		return err
	}
	var toRead []iceberg.ManifestFile
	for _, mf := range mfs {
		if _, skipped := skip[mf.Path]; !skipped {
			toRead = append(toRead, mf)
		}
	}
	return r.readEntries(ctx, tbl, meta, toRead, liveOnly)
}

// addSnapshots records the snapshots' manifest lists and manifests,
// without reading the manifests, and returns the manifests it had not
// seen before.
func (r *reachable) addSnapshots(ctx context.Context, tbl *table.Table, snaps []*iceberg.Snapshot) ([]iceberg.ManifestFile, error) {
	var added []iceberg.ManifestFile
	for _, s := range snaps {
		if s.ManifestList != "" {
			// A v1 snapshot may name its manifests inline instead.
			if r.lists[s.ManifestList] {
				continue
			}
			r.lists[s.ManifestList] = true
		}
		mfs, err := tbl.SnapshotManifests(ctx, s)
		if err != nil {
			return nil, err
		}
		for _, mf := range mfs {
			if _, seen := r.manifests[mf.Path]; seen {
				continue
			}
			r.manifests[mf.Path] = mf
			added = append(added, mf)
		}
	}
	return added, nil
}

// readEntries reads manifests in parallel and records their files.
func (r *reachable) readEntries(ctx context.Context, tbl *table.Table, meta *iceberg.TableMetadata,
	mfs []iceberg.ManifestFile, liveOnly bool) error {
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
		next     = make(chan iceberg.ManifestFile)
	)
	for range min(readWorkers, len(mfs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for mf := range next {
				entries, err := table.EntriesOf(ctx, tbl.IO(), meta, mf)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				for _, e := range entries {
					if liveOnly && e.Status == iceberg.StatusDeleted {
						continue
					}
					r.files[e.DataFile.FilePath] = e.DataFile.Content
				}
				mu.Unlock()
			}
		}()
	}
	for _, mf := range mfs {
		if ctx.Err() != nil {
			break
		}
		next <- mf
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
