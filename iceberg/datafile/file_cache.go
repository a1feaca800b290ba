package datafile

import (
	"bytes"
	"container/list"
	"context"
	"encoding/binary"
	"sync"
	"sync/atomic"

	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
)

const (
	// DefaultFileCacheBytes bounds a FileCache made with a size <= 0.
	DefaultFileCacheBytes = 64 << 20
	// MaxCachedFileBytes is the largest data file a FileCache keeps: one
	// INSERT's file is a few KiB, and a file of real size costs more to
	// decode than to open, so caching it would only evict small ones.
	MaxCachedFileBytes = 256 << 10
)

// FileCache keeps small Parquet data files in memory, their bytes with
// the decoded and validated footer, so that a query reading hundreds of
// one-row files (a table built by single-row INSERTs) neither opens them
// nor decodes their footers again. One cache serves every scan of an
// engine and is safe for concurrent use; entries are evicted least
// recently used beyond the byte bound.
//
// No invalidation is needed: Iceberg data files are immutable, a location
// is never rewritten (DELETE, UPDATE, MERGE and compaction write new
// files under new names), and the key also holds the size the manifest
// records, which the file read must have for its entry to be kept.
type FileCache struct {
	mu       sync.Mutex
	maxBytes int64
	used     int64
	entries  map[fileCacheKey]*list.Element
	lru      *list.List // of *fileCacheEntry, most recent first

	hits, misses atomic.Int64

	footers footerCache // of files too large to keep whole
}

type fileCacheKey struct {
	location string
	size     int64 // file_size_in_bytes of the manifest entry
}

type fileCacheEntry struct {
	key  fileCacheKey
	file *parquetfile.Reader // over the cached bytes; handed out through Share
	cost int64
}

// NewFileCache bounds the cache to about maxBytes (DefaultFileCacheBytes
// when <= 0).
func NewFileCache(maxBytes int64) *FileCache {
	if maxBytes <= 0 {
		maxBytes = DefaultFileCacheBytes
	}
	return &FileCache{maxBytes: maxBytes, entries: map[fileCacheKey]*list.Element{}, lru: list.New(),
		footers: footerCache{maxBytes: maxBytes / footerCacheShare}}
}

// Hits and Misses count the lookups of files small enough to be cached.
func (c *FileCache) Hits() int64   { return c.hits.Load() }
func (c *FileCache) Misses() int64 { return c.misses.Load() }

// Len is the number of files held.
func (c *FileCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// admits reports whether a file of the manifest's size is cached at all.
func (c *FileCache) admits(size int64) bool {
	return c != nil && size > 0 && size <= MaxCachedFileBytes
}

func (c *FileCache) get(k fileCacheKey) *parquetfile.Reader {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok {
		c.misses.Add(1)
		return nil
	}
	c.hits.Add(1)
	c.lru.MoveToFront(e)
	return e.Value.(*fileCacheEntry).file.Share()
}

func (c *FileCache) put(k fileCacheKey, file *parquetfile.Reader, cost int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[k]; ok || cost > c.maxBytes {
		return // another scan read it meanwhile
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

// footerCostFactor estimates the memory of a decoded footer from its
// encoded length (thrift's compact encoding is several times denser than
// the Go structs and parquet-go's schema tree built from it).
const footerCostFactor = 8

// openCached opens the Parquet file at location, whose manifest entry
// records size, through the cache: a hit touches no storage; a miss
// reads the file whole and keeps it when it has the recorded size. in is
// the open file the Reader reads from when it was not cached (the caller
// closes it), nil otherwise.
func openCached(ctx context.Context, fio fileio.FileIO, c *FileCache, location string, size int64, st *ReadStats) (pr *parquetfile.Reader, in fileio.InputFile, err error) {
	if !c.admits(size) {
		if c != nil && size > MaxCachedFileBytes {
			return openFooterCached(ctx, fio, c, location, size)
		}
		return openUncached(ctx, fio, location)
	}
	k := fileCacheKey{location, size}
	if pr := c.get(k); pr != nil {
		if st != nil {
			st.CacheHits.Add(1)
		}
		return pr, nil, nil
	}
	in, err = fio.Open(ctx, location)
	if err != nil {
		return nil, nil, err
	}
	if in.Size() != size {
		// The manifest disagrees with the file: read it as it is, and
		// keep nothing under a key that does not describe it.
		return parquetOver(in)
	}
	data, err := fileio.ReadAll(in, size)
	in.Close()
	if err != nil {
		return nil, nil, err
	}
	pr, err = openParquet(&bytesFile{Reader: bytes.NewReader(data), loc: location})
	if err != nil {
		return nil, nil, err
	}
	// openParquet checked the trailer, so the footer length is sane.
	footer := int64(binary.LittleEndian.Uint32(data[len(data)-8:]))
	c.put(k, pr, size+footerCostFactor*footer+1024)
	return pr.Share(), nil, nil
}

func openUncached(ctx context.Context, fio fileio.FileIO, location string) (*parquetfile.Reader, fileio.InputFile, error) {
	in, err := fio.Open(ctx, location)
	if err != nil {
		return nil, nil, err
	}
	return parquetOver(in)
}

// parquetOver opens the Parquet file in reads from, closing in if it is
// not one.
func parquetOver(in fileio.InputFile) (*parquetfile.Reader, fileio.InputFile, error) {
	pr, err := openParquet(in)
	if err != nil {
		in.Close()
		return nil, nil, err
	}
	return pr, in, nil
}

// bytesFile is a cached file's bytes as a fileio.InputFile; ReadAt is safe
// for concurrent use, so scans share it.
type bytesFile struct {
	*bytes.Reader
	loc string
}

func (f *bytesFile) Close() error     { return nil }
func (f *bytesFile) Location() string { return f.loc }
