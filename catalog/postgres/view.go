package postgres

import (
	"context"

	"github.com/icesql/icesql/catalog"
)

// Views live in iceberg_tables with iceberg_type = 'VIEW' (Java's V1
// schema); a catalog without that column cannot hold them.

// SupportsViews reports whether the catalog has the iceberg_type column.
func (c *Catalog) SupportsViews() bool { return c.hasType }

// CreateView inserts the pointer row of a new view.
func (c *Catalog) CreateView(ctx context.Context, ident Identifier, metadataLocation string) error {
	return c.insertObject(ctx, "create view", ident, metadataLocation, c.viewKind())
}

// LoadView reads a view's pointer (iceberg.ErrNoSuchView).
func (c *Catalog) LoadView(ctx context.Context, ident Identifier) (catalog.Record, error) {
	return c.loadRowOp(ctx, "load view", ident, c.viewKind())
}

// ViewExists reports whether the view has a row.
func (c *Catalog) ViewExists(ctx context.Context, ident Identifier) (bool, error) {
	return c.rowExists(ctx, "view exists", ident, c.viewKind())
}

// ListViews lists the views directly in ns, sorted by name.
func (c *Catalog) ListViews(ctx context.Context, ns []string) ([]Identifier, error) {
	return c.listRows(ctx, "list views", ns, c.viewKind())
}

// CommitView swaps a view's pointer, as CommitTable does for tables.
func (c *Catalog) CommitView(ctx context.Context, ident Identifier, expected, next string) error {
	const op = "commit view"
	if !c.hasType {
		return newError(op, ident.String(), catalog.ErrViewsUnsupported)
	}
	return c.swapOne(ctx, op, ident, expected, next, c.viewKind())
}

// RenameView moves a view's row.
func (c *Catalog) RenameView(ctx context.Context, from, to Identifier) error {
	return c.moveRow(ctx, "rename view", from, to, c.viewKind())
}

// DropView deletes the view's row and returns it.
func (c *Catalog) DropView(ctx context.Context, ident Identifier) (catalog.Record, error) {
	return c.dropRow(ctx, "drop view", ident, c.viewKind())
}
