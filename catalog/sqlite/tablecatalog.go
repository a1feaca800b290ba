package sqlite

import (
	"context"

	"github.com/icesql/icesql/iceberg/table"
)

// TableCatalog gives the commit protocol (table.Catalog) this catalog's
// pointer operations, including the consistent read of every pointer that
// multi-table transactions pin (table.AllPointers), and the write lock
// that queues committers instead of letting them race (table.CommitLocker).
func (c *Catalog) TableCatalog() table.Catalog { return tableCatalog{c} }

type tableCatalog struct{ c *Catalog }

var (
	_ table.Catalog      = tableCatalog{}
	_ table.AllPointers  = tableCatalog{}
	_ table.CommitLocker = tableCatalog{}
)

func fromTableIdent(id table.Identifier) Identifier { return Identifier(id) }

func (a tableCatalog) CurrentMetadataLocation(ctx context.Context, id table.Identifier) (string, error) {
	rec, err := a.c.LoadTable(ctx, fromTableIdent(id))
	if err != nil {
		return "", err
	}
	return rec.MetadataLocation, nil
}

func (a tableCatalog) CurrentMetadataLocations(ctx context.Context, ids []table.Identifier) ([]string, error) {
	sids := make([]Identifier, len(ids))
	for i, id := range ids {
		sids[i] = fromTableIdent(id)
	}
	recs, err := a.c.LoadTables(ctx, sids)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.MetadataLocation
	}
	return out, nil
}

func (a tableCatalog) AllMetadataLocations(ctx context.Context) (map[string]string, error) {
	all, err := a.c.AllTables(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(all))
	for k, r := range all {
		out[k] = r.MetadataLocation
	}
	return out, nil
}

func (a tableCatalog) Swap(ctx context.Context, id table.Identifier, expected, next string) error {
	return a.c.CommitTable(ctx, fromTableIdent(id), expected, next)
}

func (a tableCatalog) SwapAll(ctx context.Context, swaps []table.Swap) error {
	commits := make([]TableCommit, len(swaps))
	for i, s := range swaps {
		commits[i] = TableCommit{Ident: fromTableIdent(s.Ident), Expected: s.Expected, New: s.Next}
	}
	return a.c.CommitTables(ctx, commits)
}

func (a tableCatalog) Create(ctx context.Context, id table.Identifier, metadataLocation string) error {
	return a.c.CreateTable(ctx, fromTableIdent(id), metadataLocation)
}

func (a tableCatalog) LockPointers(ctx context.Context, ids []table.Identifier) (table.PointerLock, error) {
	sids := make([]Identifier, len(ids))
	for i, id := range ids {
		sids[i] = fromTableIdent(id)
	}
	l, err := a.c.LockTables(ctx, sids)
	if err != nil {
		return nil, err
	}
	return pointerLock{l}, nil
}

type pointerLock struct{ l *TableLock }

func (p pointerLock) Locations() []string { return p.l.Locations() }
func (p pointerLock) Release()            { p.l.Release() }

func (p pointerLock) Swap(ctx context.Context, swaps []table.Swap) error {
	commits := make([]TableCommit, len(swaps))
	for i, s := range swaps {
		commits[i] = TableCommit{Ident: fromTableIdent(s.Ident), Expected: s.Expected, New: s.Next}
	}
	return p.l.Commit(ctx, commits)
}
