package rest

import (
	"context"
	"sync"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// metadataCache keeps parsed and encoded metadata files by location: a
// metadata file never changes once written, so a load of an unchanged
// table costs one catalog read.
type metadataCache struct {
	mu      sync.Mutex
	max     int
	entries map[string]*cachedMetadata
}

type cachedMetadata struct {
	meta *iceberg.TableMetadata
	once sync.Once
	json []byte // encoded metadata, made on first load
	err  error

	refsOnce sync.Once
	refsJSON []byte // the snapshots=refs form
	refsErr  error
}

func newMetadataCache(max int) *metadataCache {
	return &metadataCache{max: max, entries: map[string]*cachedMetadata{}}
}

func (c *metadataCache) get(location string) *cachedMetadata {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[location]
}

func (c *metadataCache) put(location string, meta *iceberg.TableMetadata) *cachedMetadata {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[location]; ok {
		return e
	}
	if len(c.entries) >= c.max {
		for k := range c.entries { // evict an arbitrary entry
			delete(c.entries, k)
			break
		}
	}
	e := &cachedMetadata{meta: meta}
	c.entries[location] = e
	return e
}

// encoded returns the metadata's JSON, encoding it once.
func (e *cachedMetadata) encoded() ([]byte, error) {
	e.once.Do(func() { e.json, e.err = iceberg.EncodeMetadata(e.meta, false) })
	return e.json, e.err
}

// refsEncoded returns the metadata's JSON with only the ref heads'
// snapshots, encoding it once.
func (e *cachedMetadata) refsEncoded() ([]byte, error) {
	e.refsOnce.Do(func() {
		data, err := e.encoded()
		if err != nil {
			e.refsErr = err
			return
		}
		e.refsJSON, e.refsErr = onlyRefSnapshots(e.meta, data)
	})
	return e.refsJSON, e.refsErr
}

// readMetadata reads a metadata file through the cache.
func (s *Server) readMetadata(ctx context.Context, location string) (*cachedMetadata, error) {
	if e := s.cache.get(location); e != nil {
		return e, nil
	}
	meta, err := table.ReadMetadata(ctx, s.env.IO, location)
	if err != nil {
		return nil, err
	}
	return s.cache.put(location, meta), nil
}
