package datafile

import (
	"container/list"
	"sync"
)

// DefaultDeleteCacheBytes bounds a DeleteCache made with a size <= 0.
const DefaultDeleteCacheBytes = 256 << 20

// DeleteCache keeps what ReadTask learned from delete files so that the
// tasks of one scan do not parse the same file again: the key sets of
// equality delete files, and whether a position delete file is sorted by
// file_path (which lets later tasks stop reading it early). Make one per
// scan and pass it to every task's ReadTask through ReadOptions; it is safe
// for concurrent use. Only delete files that some task applied are loaded,
// and the sets are evicted least recently used beyond the byte bound (a set
// larger than the bound is used by its task and not kept).
type DeleteCache struct {
	mu       sync.Mutex
	maxBytes int64
	used     int64
	eq       map[eqCacheKey]*eqCacheEntry
	lru      *list.List // of *eqCacheEntry, most recent first
	sorted   map[string]bool
	loads    int64 // equality delete files parsed (for tests)
}

// NewDeleteCache bounds the cached equality delete sets to about maxBytes
// (DefaultDeleteCacheBytes when <= 0).
func NewDeleteCache(maxBytes int64) *DeleteCache {
	if maxBytes <= 0 {
		maxBytes = DefaultDeleteCacheBytes
	}
	return &DeleteCache{maxBytes: maxBytes, eq: map[eqCacheKey]*eqCacheEntry{}, lru: list.New(), sorted: map[string]bool{}}
}

// eqCacheKey identifies a parsed equality delete file: the key encoding
// depends on the field ids and on the schema whose types values are read in.
type eqCacheKey struct {
	path     string
	ids      string // sorted equality ids, encoded
	schemaID int
}

type eqCacheEntry struct {
	key   eqCacheKey
	ready chan struct{} // closed once keys or err is set
	keys  map[string]struct{}
	err   error
	bytes int64
	elem  *list.Element // nil when not (or no longer) in the LRU list
}

// equalityKeys returns the key set of one equality delete file, loading it
// with load unless another task has (or is loading it); concurrent callers
// for the same file wait for one load.
func (c *DeleteCache) equalityKeys(k eqCacheKey, load func() (map[string]struct{}, error)) (map[string]struct{}, error) {
	c.mu.Lock()
	if e, ok := c.eq[k]; ok {
		if e.elem != nil {
			c.lru.MoveToFront(e.elem)
		}
		c.mu.Unlock()
		<-e.ready
		return e.keys, e.err
	}
	e := &eqCacheEntry{key: k, ready: make(chan struct{})}
	c.eq[k] = e
	c.loads++
	c.mu.Unlock()

	e.keys, e.err = load()
	e.bytes = keySetBytes(e.keys)
	close(e.ready)

	c.mu.Lock()
	defer c.mu.Unlock()
	if e.err != nil || e.bytes > c.maxBytes {
		// Errors are not cached (a retry may succeed); oversized sets are
		// not kept.
		if c.eq[k] == e {
			delete(c.eq, k)
		}
		return e.keys, e.err
	}
	e.elem = c.lru.PushFront(e)
	c.used += e.bytes
	for c.used > c.maxBytes {
		old := c.lru.Back().Value.(*eqCacheEntry)
		c.lru.Remove(old.elem)
		old.elem = nil
		delete(c.eq, old.key)
		c.used -= old.bytes
	}
	return e.keys, nil
}

// keySetBytes estimates a key set's memory: key bytes plus map and string
// header overhead per entry.
func keySetBytes(keys map[string]struct{}) int64 {
	const perEntry = 48
	n := int64(0)
	for k := range keys {
		n += int64(len(k)) + perEntry
	}
	return n
}

// positionFileSorted returns what is known about a position delete file's
// order: known is false until some task read the whole file.
func (c *DeleteCache) positionFileSorted(path string) (sorted, known bool) {
	if c == nil {
		return false, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	sorted, known = c.sorted[path]
	return sorted, known
}

func (c *DeleteCache) setPositionFileSorted(path string, sorted bool) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sorted[path] = sorted
}

// CachedBytes is the estimated memory held by cached equality delete sets.
func (c *DeleteCache) CachedBytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}
