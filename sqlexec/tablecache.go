package sqlexec

import (
	"container/list"
	"context"
	"strings"
	"sync"

	"github.com/icesql/icesql/iceberg/table"
)

// tableCacheSize bounds the parsed tables an engine keeps.
const tableCacheSize = 128

// tableCache keeps parsed tables by identifier and metadata location. A
// metadata.json file never changes once written and a *table.Table is
// immutable, so a hit is exactly what reading the file again would give;
// only the catalog's pointer must be read each time.
type tableCache struct {
	mu    sync.Mutex
	max   int
	items map[tableCacheKey]*list.Element
	lru   *list.List // of *tableCacheEntry, most recent first
}

type tableCacheKey struct {
	ident    string
	location string
}

type tableCacheEntry struct {
	key tableCacheKey
	t   *table.Table
}

func newTableCache(max int) *tableCache {
	return &tableCache{max: max, items: map[tableCacheKey]*list.Element{}, lru: list.New()}
}

func cacheKey(id table.Identifier, location string) tableCacheKey {
	// NUL separates parts that may themselves hold dots.
	return tableCacheKey{ident: strings.Join(id.Namespace, "\x00") + "\x00\x00" + id.Name, location: location}
}

func (c *tableCache) get(id table.Identifier, location string) *table.Table {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[cacheKey(id, location)]
	if !ok {
		return nil
	}
	c.lru.MoveToFront(el)
	return el.Value.(*tableCacheEntry).t
}

// put remembers a committed (never a staged) table.
func (c *tableCache) put(t *table.Table) {
	if t == nil || t.MetadataLocation() == "" {
		return
	}
	k := cacheKey(t.Ident(), t.MetadataLocation())
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		c.lru.MoveToFront(el)
		return
	}
	c.items[k] = c.lru.PushFront(&tableCacheEntry{key: k, t: t})
	for c.lru.Len() > c.max {
		last := c.lru.Back()
		c.lru.Remove(last)
		delete(c.items, last.Value.(*tableCacheEntry).key)
	}
}

// loadTable reads a table's current version through the catalog, parsing
// its metadata.json only when no session has seen that version yet.
func (e *Engine) loadTable(ctx context.Context, id table.Identifier) (*table.Table, error) {
	loc, err := e.env.Catalog.CurrentMetadataLocation(ctx, id)
	if err != nil {
		return nil, err
	}
	return e.tableAt(ctx, id, loc)
}

// tableAt is the table at a metadata location, parsed once per engine.
func (e *Engine) tableAt(ctx context.Context, id table.Identifier, loc string) (*table.Table, error) {
	if t := e.tables.get(id, loc); t != nil {
		return t, nil
	}
	t, err := table.LoadAt(ctx, e.env, id, loc)
	if err != nil {
		return nil, err
	}
	e.tables.put(t)
	return t, nil
}
