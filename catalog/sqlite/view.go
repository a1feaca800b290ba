package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
)

// Views live in iceberg_tables with iceberg_type = 'VIEW' (Java's V1
// schema); a catalog without that column cannot hold them
// (ErrViewsUnsupported). Tables and views share one name space: the
// primary key (catalog, namespace, name) refuses a view named like a
// table and the other way round.

// ViewRecord is a view's pointer row.
type ViewRecord = catalog.Record

const onlyViews = " AND iceberg_type = 'VIEW'"

// SupportsViews reports whether the catalog has the V1 iceberg_type
// column that views need.
func (c *Catalog) SupportsViews() bool { return c.hasType() }

func (c *Catalog) requireViews() error {
	if !c.hasType() {
		return ErrViewsUnsupported
	}
	return nil
}

// CreateView inserts the pointer row of a new view whose first metadata
// file is metadataLocation. The namespace must exist
// (iceberg.ErrNoSuchNamespace); a view (iceberg.ErrViewAlreadyExists) or
// table (iceberg.ErrTableAlreadyExists) of that name must not.
func (c *Catalog) CreateView(ctx context.Context, ident Identifier, metadataLocation string) error {
	const op = "create view"
	name := ident.String()
	if err := validateInsert(ident, metadataLocation); err != nil {
		return newError(op, name, err)
	}
	if err := c.requireViews(); err != nil {
		return newError(op, name, err)
	}
	return c.writeTx(ctx, op, name, func(tx *sql.Tx) error {
		if err := c.requireNamespace(ctx, tx, joinNamespace(ident.Namespace)); err != nil {
			return err
		}
		if err := c.requireFree(ctx, tx, ident); err != nil {
			return err
		}
		return c.insertRow(ctx, tx, ident, metadataLocation, "VIEW", iceberg.ErrViewAlreadyExists)
	})
}

// requireFree fails when a table or view is named ident, saying which.
func (c *Catalog) requireFree(ctx context.Context, q querier, ident Identifier) error {
	var typ sql.NullString
	err := q.QueryRowContext(ctx, "SELECT iceberg_type FROM iceberg_tables "+
		"WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?",
		c.name, joinNamespace(ident.Namespace), ident.Name).Scan(&typ)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return err
	case typ.String == "VIEW":
		return wrapf(iceberg.ErrViewAlreadyExists, "%s", ident)
	}
	return wrapf(iceberg.ErrTableAlreadyExists, "a table named %s already exists", ident)
}

func (c *Catalog) loadView(ctx context.Context, q querier, ident Identifier) (ViewRecord, error) {
	rec, err := c.loadRow(ctx, q, ident, c.viewKind())
	return ViewRecord(rec), err
}

// LoadView returns the pointer row of a view (iceberg.ErrNoSuchView if
// there is none; tables are not views). A catalog without view support
// has no views.
func (c *Catalog) LoadView(ctx context.Context, ident Identifier) (ViewRecord, error) {
	rec, err := c.loadRowOp(ctx, "load view", ident, c.viewKind())
	return ViewRecord(rec), err
}

// ViewExists reports whether a view row exists for ident.
func (c *Catalog) ViewExists(ctx context.Context, ident Identifier) (bool, error) {
	return c.rowExists(ctx, "view exists", ident, c.viewKind())
}

// ListViews returns the views directly in ns, sorted by name. The
// namespace must exist (iceberg.ErrNoSuchNamespace).
func (c *Catalog) ListViews(ctx context.Context, ns []string) ([]Identifier, error) {
	return c.listRows(ctx, "list views", ns, c.viewKind())
}

// CommitView swaps the view's metadata location from expectedLocation to
// newLocation if, and only if, it is still expectedLocation (Java's view
// commit statement). Errors follow CommitTable:
// iceberg.ErrCommitFailed when the pointer moved or the view is gone,
// iceberg.ErrCommitStateUnknown when the outcome cannot be known.
func (c *Catalog) CommitView(ctx context.Context, ident Identifier, expectedLocation, newLocation string) error {
	const op = "commit view"
	name := ident.String()
	if err := validateCommit(TableCommit{Ident: ident, Expected: expectedLocation, New: newLocation}); err != nil {
		return newError(op, name, err)
	}
	if c.readOnly {
		return newError(op, name, ErrReadOnly)
	}
	if err := c.requireViews(); err != nil {
		return newError(op, name, err)
	}
	w, err := c.writer(ctx)
	if err != nil {
		return newError(op, name, err)
	}
	res, err := w.ExecContext(ctx, swapSQL+onlyViews,
		newLocation, expectedLocation, c.name, joinNamespace(ident.Namespace), ident.Name, expectedLocation)
	if err := swapOutcome(res, err, wrapf(iceberg.ErrCommitFailed,
		"metadata location of view %s is no longer %s (or the view is gone)", ident, expectedLocation)); err != nil {
		return newError(op, name, err)
	}
	return nil
}

// RenameView moves a view's row to a new identifier. The source must be a
// view (iceberg.ErrNoSuchView), the target namespace must exist
// (iceberg.ErrNoSuchNamespace) and no table or view may have the target
// name (iceberg.ErrTableAlreadyExists / iceberg.ErrViewAlreadyExists).
func (c *Catalog) RenameView(ctx context.Context, from, to Identifier) error {
	const op = "rename view"
	name := from.String() + " to " + to.String()
	if err := validateIdent(from); err != nil {
		return newError(op, name, err)
	}
	if err := validateNewIdent(to); err != nil {
		return newError(op, name, err)
	}
	if err := c.requireViews(); err != nil {
		return newError(op, name, err)
	}
	return c.writeTx(ctx, op, name, func(tx *sql.Tx) error {
		if _, err := c.loadView(ctx, tx, from); err != nil {
			return err
		}
		if from.String() == to.String() {
			return nil
		}
		if err := c.requireNamespace(ctx, tx, joinNamespace(to.Namespace)); err != nil {
			return err
		}
		if err := c.requireFree(ctx, tx, to); err != nil {
			return err
		}
		return c.moveRow(ctx, tx, from, to, c.viewKind())
	})
}

// DropView deletes a view's row and returns it, so the caller can remove
// the view's metadata files. Missing view: iceberg.ErrNoSuchView.
func (c *Catalog) DropView(ctx context.Context, ident Identifier) (ViewRecord, error) {
	const op = "drop view"
	name := ident.String()
	if err := validateIdent(ident); err != nil {
		return ViewRecord{}, newError(op, name, err)
	}
	if err := c.requireViews(); err != nil {
		return ViewRecord{}, newError(op, name, err)
	}
	rec, err := c.dropRow(ctx, op, ident, c.viewKind())
	return ViewRecord(rec), err
}
