package sqlite

import (
	"context"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg/table"
)

var (
	_ catalog.Catalog      = (*Catalog)(nil)
	_ catalog.CommitLocker = (*Catalog)(nil)
	_ catalog.CommitLock   = (*TableLock)(nil)
)

// TableCatalog gives the commit protocol (table.Catalog) this catalog's
// pointer operations, including the consistent read of every pointer that
// multi-table transactions pin (table.AllPointers), and the write lock
// that queues committers instead of letting them race (table.CommitLocker).
func (c *Catalog) TableCatalog() table.Catalog { return table.FromCatalog(c) }

// LockForCommit is LockTables as the catalog.CommitLocker capability.
func (c *Catalog) LockForCommit(ctx context.Context, idents []Identifier) (catalog.CommitLock, error) {
	l, err := c.LockTables(ctx, idents)
	if err != nil {
		return nil, err
	}
	return l, nil
}
