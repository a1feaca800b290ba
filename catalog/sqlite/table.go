package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/mattn/go-sqlite3"
)

// TableRecord is a table's pointer row.
type TableRecord = catalog.Record

// onlyTables restricts a query to table rows (not views) on a V1 schema;
// NULL iceberg_type is a table written by a V0 client.
func (c *Catalog) onlyTables() string {
	if c.hasType() {
		return " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)"
	}
	return ""
}

// CreateTable inserts the pointer row of a new table whose first metadata
// file is metadataLocation. The namespace must exist
// (iceberg.ErrNoSuchNamespace); a table or view of that name must not
// (iceberg.ErrTableAlreadyExists).
func (c *Catalog) CreateTable(ctx context.Context, ident Identifier, metadataLocation string) error {
	return c.insertTable(ctx, "create table", ident, metadataLocation)
}

// RegisterTable adds an existing table, whose current metadata file is
// metadataLocation, to the catalog. Same rules as CreateTable.
func (c *Catalog) RegisterTable(ctx context.Context, ident Identifier, metadataLocation string) error {
	return c.insertTable(ctx, "register table", ident, metadataLocation)
}

func (c *Catalog) insertTable(ctx context.Context, op string, ident Identifier, location string) error {
	if err := validateInsert(ident, location); err != nil {
		return newError(op, ident.String(), err)
	}
	typ := ""
	if c.hasType() {
		typ = "TABLE"
	}
	return c.writeTx(ctx, op, ident.String(), func(tx *sql.Tx) error {
		if err := c.requireNamespace(ctx, tx, joinNamespace(ident.Namespace)); err != nil {
			return err
		}
		return c.insertRow(ctx, tx, ident, location, typ, iceberg.ErrTableAlreadyExists)
	})
}

func (c *Catalog) loadTable(ctx context.Context, q querier, ident Identifier) (TableRecord, error) {
	rec, err := c.loadRow(ctx, q, ident, c.tableKind())
	return TableRecord(rec), err
}

// LoadTable returns the pointer row of a table (iceberg.ErrNoSuchTable if
// there is none; views are not tables).
func (c *Catalog) LoadTable(ctx context.Context, ident Identifier) (TableRecord, error) {
	rec, err := c.loadRowOp(ctx, "load table", ident, c.tableKind())
	return TableRecord(rec), err
}

// TableExists reports whether a table row exists for ident.
func (c *Catalog) TableExists(ctx context.Context, ident Identifier) (bool, error) {
	return c.rowExists(ctx, "table exists", ident, c.tableKind())
}

// ListTables returns the tables directly in ns, sorted by name. The
// namespace must exist (iceberg.ErrNoSuchNamespace).
func (c *Catalog) ListTables(ctx context.Context, ns []string) ([]Identifier, error) {
	return c.listRows(ctx, "list tables", ns, c.tableKind())
}

// RenameTable moves a table's row to a new identifier. The source must be
// a table (iceberg.ErrNoSuchTable), the target namespace must exist
// (iceberg.ErrNoSuchNamespace) and the target name must be free
// (iceberg.ErrTableAlreadyExists).
func (c *Catalog) RenameTable(ctx context.Context, from, to Identifier) error {
	const op = "rename table"
	name := from.String() + " to " + to.String()
	if err := validateIdent(from); err != nil {
		return newError(op, name, err)
	}
	if err := validateNewIdent(to); err != nil {
		return newError(op, name, err)
	}
	return c.writeTx(ctx, op, name, func(tx *sql.Tx) error {
		if _, err := c.loadTable(ctx, tx, from); err != nil {
			return err
		}
		if err := c.requireNamespace(ctx, tx, joinNamespace(to.Namespace)); err != nil {
			return err
		}
		return c.moveRow(ctx, tx, from, to, c.tableKind())
	})
}

// DropTable deletes a table's row and returns it, so the caller can purge
// the table's files. Missing table: iceberg.ErrNoSuchTable.
func (c *Catalog) DropTable(ctx context.Context, ident Identifier) (TableRecord, error) {
	const op = "drop table"
	if err := validateIdent(ident); err != nil {
		return TableRecord{}, newError(op, ident.String(), err)
	}
	rec, err := c.dropRow(ctx, op, ident, c.tableKind())
	return TableRecord(rec), err
}

func isConstraint(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.Code == sqlite3.ErrConstraint
}
