package datafile

import (
	"container/list"
	"context"
	"encoding/binary"
	"sync"

	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
)

// Files too large for a FileCache still cost a footer decode per open:
// for a file of many row groups, read in splits by several workers,
// that is milliseconds of every selective query. The cache keeps their
// decoded footers (not their bytes), under the same immutability that
// makes caching whole files safe; each read opens the file again and
// reads its pages from there (parquetfile.Reader.Over).

// footerCacheShare is the part of a FileCache's byte bound its footers
// may take.
const footerCacheShare = 4

// footerCache is the footer part of a FileCache, least recently used
// first out.
type footerCache struct {
	mu       sync.Mutex
	maxBytes int64
	used     int64
	entries  map[fileCacheKey]*list.Element
	lru      *list.List // of *fileCacheEntry
	hits     int64
}

func (c *footerCache) get(k fileCacheKey) *parquetfile.Reader {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok {
		return nil
	}
	c.hits++
	c.lru.MoveToFront(e)
	return e.Value.(*fileCacheEntry).file
}

func (c *footerCache) put(k fileCacheKey, file *parquetfile.Reader, cost int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries, c.lru = map[fileCacheKey]*list.Element{}, list.New()
	}
	if _, ok := c.entries[k]; ok || cost > c.maxBytes {
		return
	}
	c.entries[k] = c.lru.PushFront(&fileCacheEntry{key: k, file: file, cost: cost})
	c.used += cost
	for c.used > c.maxBytes {
		old := c.lru.Back()
		e := old.Value.(*fileCacheEntry)
		c.lru.Remove(old)
		delete(c.entries, e.key)
		c.used -= e.cost
	}
}

// FooterHits counts the opens of large files whose footer was cached.
func (c *FileCache) FooterHits() int64 {
	c.footers.mu.Lock()
	defer c.footers.mu.Unlock()
	return c.footers.hits
}

// openFooterCached opens a file too large for the cache whole, decoding
// its footer only when no earlier open of the same location and
// recorded size has. The caller closes in.
func openFooterCached(ctx context.Context, fio fileio.FileIO, c *FileCache, location string, size int64) (*parquetfile.Reader, fileio.InputFile, error) {
	in, err := fio.Open(ctx, location)
	if err != nil {
		return nil, nil, err
	}
	if in.Size() != size {
		return parquetOver(in) // the manifest disagrees: nothing is kept
	}
	k := fileCacheKey{location, size}
	if pr := c.footers.get(k); pr != nil {
		return pr.Over(in), in, nil
	}
	pr, in, err := parquetOver(in)
	if err != nil {
		return nil, nil, err
	}
	var tail [8]byte
	if _, err := in.ReadAt(tail[:4], size-8); err == nil {
		// parquetOver checked the trailer, so the footer length is sane.
		c.footers.put(k, pr, footerCostFactor*int64(binary.LittleEndian.Uint32(tail[:4]))+1024)
	}
	// The cached Reader is only ever copied (Over): settings a read makes
	// on its Reader (SkipChecksums, FetchAhead) stay with that read.
	return pr.Over(in), in, nil
}
