package table

import (
	"context"
	"slices"
	"sync"

	"github.com/icesql/icesql/iceberg"
)

// commitState serialises the commits one Env makes to each table and
// remembers the version each commit installed. Writers sharing an Env
// (the goroutines of one engine) then never race each other's
// compare-and-swap: the next one applies its changes to the version the
// previous one installed, without reading it back.
type commitState struct {
	mu     sync.Mutex
	tables map[string]*tableState
}

type tableState struct {
	mu     sync.Mutex
	latest *Table // the last version this Env committed, nil before
}

func (c *commitState) state(key string) *tableState {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tables == nil {
		c.tables = map[string]*tableState{}
	}
	ts := c.tables[key]
	if ts == nil {
		ts = &tableState{}
		c.tables[key] = ts
	}
	return ts
}

// lockTables takes the Env's commit locks of idents, in a fixed order so
// that two multi-table commits cannot deadlock, and returns the unlock.
func (e *Env) lockTables(idents ...Identifier) func() {
	keys := make([]string, len(idents))
	for i, id := range idents {
		keys[i] = id.String()
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	held := make([]*tableState, len(keys))
	for i, k := range keys {
		held[i] = e.commits.state(k)
		held[i].mu.Lock()
	}
	return func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i].mu.Unlock()
		}
	}
}

// newest returns t, or the version this Env committed since t was read
// when there is one (same table, later metadata file). The caller holds
// the table's commit lock.
func (e *Env) newest(t *Table) *Table {
	ts := e.commits.state(t.ident.String())
	if l := ts.latest; l != nil && l.location != t.location && newer(l, t) {
		return l
	}
	return t
}

// newer reports whether a is a later version of b's table: the same table
// UUID and a later metadata file number.
func newer(a, b *Table) bool {
	if a.meta.TableUUID() != b.meta.TableUUID() {
		return false
	}
	va, vb := iceberg.ParseMetadataVersion(a.location), iceberg.ParseMetadataVersion(b.location)
	return va > vb && vb >= 0
}

// remember records a version this Env just committed. The caller holds
// the table's commit lock.
func (e *Env) remember(t *Table) {
	e.commits.state(t.ident.String()).latest = t
	if t.list != nil {
		e.lists.put(t.list.location, t.list.manifests)
	}
}

// cachedAt is the table at location when this Env committed exactly that
// version, else nil.
func (e *Env) cachedAt(ident Identifier, location string) *Table {
	ts := e.commits.state(ident.String())
	if l := ts.latest; l != nil && l.location == location {
		return l
	}
	return nil
}

// loadAtCached reads the table at location, reusing the version this Env
// committed when it is that one.
func (e *Env) loadAtCached(ctx context.Context, ident Identifier, location string) (*Table, error) {
	if t := e.cachedAt(ident, location); t != nil {
		return t, nil
	}
	return LoadAt(ctx, e, ident, location)
}
