package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/icesql/icesql/catalog"
)

// CreateTable inserts the pointer row of a new table whose first metadata
// file is metadataLocation. The namespace must exist
// (iceberg.ErrNoSuchNamespace); a table or view of that name must not.
func (c *Catalog) CreateTable(ctx context.Context, ident Identifier, metadataLocation string) error {
	return c.insertObject(ctx, "create table", ident, metadataLocation, c.tableKind())
}

// RegisterTable adds an existing table at its current metadata file.
func (c *Catalog) RegisterTable(ctx context.Context, ident Identifier, metadataLocation string) error {
	return c.insertObject(ctx, "register table", ident, metadataLocation, c.tableKind())
}

// LoadTable reads a table's pointer (iceberg.ErrNoSuchTable).
func (c *Catalog) LoadTable(ctx context.Context, ident Identifier) (catalog.Record, error) {
	return c.loadRowOp(ctx, "load table", ident, c.tableKind())
}

// TableExists reports whether the table has a row.
func (c *Catalog) TableExists(ctx context.Context, ident Identifier) (bool, error) {
	return c.rowExists(ctx, "table exists", ident, c.tableKind())
}

// ListTables lists the tables directly in ns, sorted by name.
func (c *Catalog) ListTables(ctx context.Context, ns []string) ([]Identifier, error) {
	return c.listRows(ctx, "list tables", ns, c.tableKind())
}

// RenameTable moves a table's row to another name or namespace.
func (c *Catalog) RenameTable(ctx context.Context, from, to Identifier) error {
	return c.moveRow(ctx, "rename table", from, to, c.tableKind())
}

// DropTable deletes the table's row and returns it; files stay.
func (c *Catalog) DropTable(ctx context.Context, ident Identifier) (catalog.Record, error) {
	return c.dropRow(ctx, "drop table", ident, c.tableKind())
}

// LoadTables reads several table pointers from one snapshot, in order.
func (c *Catalog) LoadTables(ctx context.Context, idents []Identifier) ([]catalog.Record, error) {
	const op = "load tables"
	for _, id := range idents {
		if err := validateIdent(id); err != nil {
			return nil, newError(op, id.String(), err)
		}
	}
	out := make([]catalog.Record, len(idents))
	if len(idents) == 0 {
		return out, nil
	}
	err := c.readTx(ctx, op, "", func(tx pgx.Tx) error {
		for i, id := range idents {
			rec, err := c.loadRow(ctx, tx, id, c.tableKind())
			if err != nil {
				return err
			}
			out[i] = rec
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AllTables reads every table pointer of the catalog in one statement (one
// snapshot), keyed by "ns.table".
func (c *Catalog) AllTables(ctx context.Context) (map[string]catalog.Record, error) {
	const op = "load all tables"
	rows, err := c.pool.Query(ctx, "SELECT table_namespace, table_name, metadata_location, previous_metadata_location "+
		"FROM iceberg_tables WHERE catalog_name = $1"+c.onlyTables(), c.name)
	if err != nil {
		return nil, newError(op, "", err)
	}
	out := map[string]catalog.Record{}
	var ns, name string
	var loc, prev pgtype.Text
	_, err = pgx.ForEachRow(rows, []any{&ns, &name, &loc, &prev}, func() error {
		if loc.Valid {
			out[ns+"."+name] = catalog.Record{MetadataLocation: loc.String, PreviousMetadataLocation: prev.String}
		}
		return nil
	})
	if err != nil {
		return nil, newError(op, "", err)
	}
	return out, nil
}
