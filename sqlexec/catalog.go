package sqlexec

import (
	"context"

	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg/table"
)

// catalogAdapter gives the commit protocol (table.Catalog) the SQLite
// catalog's pointer operations.
type catalogAdapter struct{ c *sqlite.Catalog }

var _ table.Catalog = catalogAdapter{}

func toSQLiteIdent(id table.Identifier) sqlite.Identifier {
	return sqlite.Identifier{Namespace: id.Namespace, Name: id.Name}
}

func (a catalogAdapter) CurrentMetadataLocation(ctx context.Context, ident table.Identifier) (string, error) {
	rec, err := a.c.LoadTable(ctx, toSQLiteIdent(ident))
	if err != nil {
		return "", err
	}
	return rec.MetadataLocation, nil
}

func (a catalogAdapter) CurrentMetadataLocations(ctx context.Context, idents []table.Identifier) ([]string, error) {
	ids := make([]sqlite.Identifier, len(idents))
	for i, id := range idents {
		ids[i] = toSQLiteIdent(id)
	}
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

func (a catalogAdapter) Swap(ctx context.Context, ident table.Identifier, expected, next string) error {
	return a.c.CommitTable(ctx, toSQLiteIdent(ident), expected, next)
}

func (a catalogAdapter) SwapAll(ctx context.Context, swaps []table.Swap) error {
	commits := make([]sqlite.TableCommit, len(swaps))
	for i, s := range swaps {
		commits[i] = sqlite.TableCommit{Ident: toSQLiteIdent(s.Ident), Expected: s.Expected, New: s.Next}
	}
	return a.c.CommitTables(ctx, commits)
}

func (a catalogAdapter) Create(ctx context.Context, ident table.Identifier, metadataLocation string) error {
	return a.c.CreateTable(ctx, toSQLiteIdent(ident), metadataLocation)
}
