package table

import (
	"context"

	"github.com/icesql/icesql/catalog"
)

// FromCatalog gives the commit protocol a catalog's pointer operations,
// including the consistent read of every pointer that transactions pin
// (AllPointers). When c offers catalog.CommitLocker, so does the result;
// when c writes metadata itself (MetadataCommitter), so does the result.
func FromCatalog(c catalog.Catalog) Catalog {
	a := catalogAdapter{c}
	if m, ok := c.(MetadataCommitter); ok {
		return committingAdapter{a, m}
	}
	if l, ok := c.(catalog.CommitLocker); ok {
		return lockingAdapter{a, l}
	}
	return a
}

type committingAdapter struct {
	catalogAdapter
	MetadataCommitter
}

type catalogAdapter struct{ c catalog.Catalog }

type lockingAdapter struct {
	catalogAdapter
	l catalog.CommitLocker
}

func (a lockingAdapter) LockPointers(ctx context.Context, ids []Identifier) (PointerLock, error) {
	lk, err := a.l.LockForCommit(ctx, ids)
	if err != nil {
		return nil, err
	}
	return pointerLock{lk}, nil
}

type pointerLock struct{ catalog.CommitLock }

func (p pointerLock) Swap(ctx context.Context, swaps []Swap) error {
	return p.Commit(ctx, toCommits(swaps))
}

var (
	_ Catalog      = catalogAdapter{}
	_ AllPointers  = catalogAdapter{}
	_ CommitLocker = lockingAdapter{}

	_ MetadataCommitter = committingAdapter{}
)

func (a catalogAdapter) CurrentMetadataLocation(ctx context.Context, id Identifier) (string, error) {
	rec, err := a.c.LoadTable(ctx, id)
	if err != nil {
		return "", err
	}
	return rec.MetadataLocation, nil
}

func (a catalogAdapter) CurrentMetadataLocations(ctx context.Context, ids []Identifier) ([]string, error) {
	recs, err := a.c.LoadTables(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.MetadataLocation
	}
	return out, nil
}

func (a catalogAdapter) AllMetadataLocations(ctx context.Context) (map[string]string, error) {
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

func (a catalogAdapter) Swap(ctx context.Context, id Identifier, expected, next string) error {
	return a.c.CommitTable(ctx, id, expected, next)
}

func (a catalogAdapter) SwapAll(ctx context.Context, swaps []Swap) error {
	return a.c.CommitTables(ctx, toCommits(swaps))
}

func toCommits(swaps []Swap) []catalog.TableCommit {
	commits := make([]catalog.TableCommit, len(swaps))
	for i, s := range swaps {
		commits[i] = catalog.TableCommit{Ident: s.Ident, Expected: s.Expected, New: s.Next}
	}
	return commits
}

func (a catalogAdapter) Create(ctx context.Context, id Identifier, metadataLocation string) error {
	return a.c.CreateTable(ctx, id, metadataLocation)
}
