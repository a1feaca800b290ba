package table

import (
	"context"
	"slices"
	"sync"

	"github.com/icesql/icesql/iceberg"
)

// listCacheManifests bounds how many manifest entries an Env keeps of the
// manifest lists it read or wrote.
const listCacheManifests = 1 << 16

// listCache keeps manifest lists by location. A manifest list is never
// rewritten once a snapshot names it, so what was read stays true; expiry
// on commit reads the lists of every kept snapshot and would otherwise
// read them again at each commit.
type listCache struct {
	mu    sync.Mutex
	lists map[string][]iceberg.ManifestFile
	order []string // oldest first
	held  int      // manifests held
}

func (c *listCache) get(loc string) ([]iceberg.ManifestFile, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	mfs, ok := c.lists[loc]
	return mfs, ok
}

func (c *listCache) put(loc string, mfs []iceberg.ManifestFile) {
	if loc == "" || len(mfs) > listCacheManifests/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lists == nil {
		c.lists = map[string][]iceberg.ManifestFile{}
	}
	if _, ok := c.lists[loc]; ok {
		return
	}
	c.lists[loc] = mfs
	c.order = append(c.order, loc)
	c.held += len(mfs)
	for c.held > listCacheManifests && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.held -= len(c.lists[old])
		delete(c.lists, old)
	}
}

// SnapshotManifests returns the manifests of s, from the list this
// version wrote or the lists its Env read before when it has s's, else
// read from storage. The result may be modified.
func (t *Table) SnapshotManifests(ctx context.Context, s *iceberg.Snapshot) ([]iceberg.ManifestFile, error) {
	if s == nil || s.ManifestList == "" {
		return ManifestsOf(ctx, t.env.IO, s)
	}
	if t.list != nil && t.list.location == s.ManifestList {
		return slices.Clone(t.list.manifests), nil
	}
	if mfs, ok := t.env.lists.get(s.ManifestList); ok {
		return slices.Clone(mfs), nil
	}
	mfs, err := ManifestsOf(ctx, t.env.IO, s)
	if err != nil {
		return nil, err
	}
	t.env.lists.put(s.ManifestList, slices.Clone(mfs))
	return mfs, nil
}
