package scan

import (
	"container/list"
	"strconv"
	"strings"
	"sync"

	"github.com/icesql/icesql/iceberg"
)

// ManifestCache holds decoded manifest lists and manifests, which are
// immutable once written, so repeated plans of the same snapshot (point
// reads, prepared statements) skip reading and decoding Avro. It is an
// LRU bounded by an estimate of the decoded bytes, safe for concurrent
// use by many scans. Cached values are shared: planning copies what it
// hands out, and nothing a scan returns may be mutated in place (the
// maps and slices of a FileScanTask's DataFile are shared with the cache).
type ManifestCache struct {
	maxBytes int64

	mu        sync.Mutex
	lru       *list.List // of *cacheItem, most recently used first
	items     map[string]*list.Element
	bytes     int64
	hits      int64
	misses    int64
	evictions int64
}

// CacheStats are a ManifestCache's counters.
type CacheStats struct {
	Hits, Misses, Evictions int64
	Items                   int   // manifest lists and manifests held
	Bytes                   int64 // estimated decoded size held
}

type cacheItem struct {
	key   string
	size  int64
	list  []iceberg.ManifestFile  // a manifest list
	files []iceberg.ManifestEntry // a manifest's live entries
}

// DefaultManifestCacheBytes is a size for one cache per engine: about the
// decoded form of a few hundred thousand data file entries.
const DefaultManifestCacheBytes = 256 << 20

// NewManifestCache returns a cache holding up to about maxBytes of decoded
// metadata (DefaultManifestCacheBytes when maxBytes <= 0). A single
// manifest larger than maxBytes is read but not kept.
func NewManifestCache(maxBytes int64) *ManifestCache {
	if maxBytes <= 0 {
		maxBytes = DefaultManifestCacheBytes
	}
	return &ManifestCache{maxBytes: maxBytes, lru: list.New(), items: map[string]*list.Element{}}
}

// Stats returns the cache's counters.
func (c *ManifestCache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{Hits: c.hits, Misses: c.misses, Evictions: c.evictions, Items: c.lru.Len(), Bytes: c.bytes}
}

func (c *ManifestCache) get(key string) (*cacheItem, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		c.misses++
		return nil, false
	}
	c.hits++
	c.lru.MoveToFront(el)
	return el.Value.(*cacheItem), true
}

func (c *ManifestCache) put(it *cacheItem) {
	if it.size > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[it.key]; ok {
		// Another scan decoded the same file meanwhile; keep one.
		c.lru.MoveToFront(el)
		return
	}
	c.items[it.key] = c.lru.PushFront(it)
	c.bytes += it.size
	for c.bytes > c.maxBytes {
		last := c.lru.Back()
		old := last.Value.(*cacheItem)
		c.lru.Remove(last)
		delete(c.items, old.key)
		c.bytes -= old.size
		c.evictions++
	}
}

// manifestList returns the decoded manifest list at path, reading it
// with load on a miss. Paths of manifest lists are never reused.
func (c *ManifestCache) manifestList(path string, load func() ([]iceberg.ManifestFile, error)) ([]iceberg.ManifestFile, error) {
	if c == nil {
		return load()
	}
	return c.cachedList("L"+path, load)
}

// cachedList returns the list of manifests cached under key, reading it
// with load on a miss.
func (c *ManifestCache) cachedList(key string, load func() ([]iceberg.ManifestFile, error)) ([]iceberg.ManifestFile, error) {
	if it, ok := c.get(key); ok {
		return it.list, nil
	}
	list, err := load()
	if err != nil {
		return nil, err
	}
	c.put(&cacheItem{key: key, size: manifestListSize(key, list), list: list})
	return list, nil
}

// manifestEntries returns the live entries of manifest mf decoded with
// partition type ptype (its fingerprint ptypeKey), reading them with load
// on a miss.
func (c *ManifestCache) manifestEntries(mf *iceberg.ManifestFile, ptypeKey string, load func() ([]iceberg.ManifestEntry, error)) ([]iceberg.ManifestEntry, error) {
	if c == nil {
		return load()
	}
	key := manifestKey(mf, ptypeKey)
	if it, ok := c.get(key); ok {
		return it.files, nil
	}
	files, err := load()
	if err != nil {
		return nil, err
	}
	c.put(&cacheItem{key: key, size: entriesSize(key, files), files: files})
	return files, nil
}

// manifestKey names a manifest's decoded entries: its path and length,
// plus everything decoding takes from outside the file (the inherited
// list-entry fields and the partition type values are read as).
func manifestKey(mf *iceberg.ManifestFile, ptypeKey string) string {
	var b strings.Builder
	b.WriteString("M")
	b.WriteString(strconv.Itoa(len(mf.Path)))
	b.WriteByte(':')
	b.WriteString(mf.Path)
	for _, n := range []int64{mf.Length, int64(mf.SpecID), mf.SequenceNumber, mf.AddedSnapshotID} {
		b.WriteByte('|')
		b.WriteString(strconv.FormatInt(n, 10))
	}
	b.WriteByte('|')
	if mf.FirstRowID != nil {
		b.WriteString(strconv.FormatInt(*mf.FirstRowID, 10))
	}
	b.WriteByte('|')
	b.WriteString(ptypeKey)
	return b.String()
}

// partitionTypeKey fingerprints a partition type by field ids and types.
func partitionTypeKey(pt *iceberg.StructType) string {
	if pt == nil {
		return ""
	}
	var b strings.Builder
	for _, f := range pt.FieldList {
		b.WriteString(strconv.Itoa(f.ID))
		b.WriteByte(':')
		b.WriteString(f.Type.String())
		b.WriteByte(';')
	}
	return b.String()
}

// inlineManifests returns the manifests a v1 snapshot lists inline, built
// with load on a miss. The key is every path in order: manifests are
// never rewritten in place, so the same paths build the same list (but
// for the adding snapshot id, also in the key).
func (c *ManifestCache) inlineManifests(snap *iceberg.Snapshot, load func() ([]iceberg.ManifestFile, error)) ([]iceberg.ManifestFile, error) {
	if c == nil {
		return load()
	}
	var b strings.Builder
	b.WriteString("I")
	b.WriteString(strconv.FormatInt(snap.SnapshotID, 10))
	for _, p := range snap.Manifests {
		b.WriteByte(0)
		b.WriteString(p)
	}
	return c.cachedList(b.String(), load)
}
