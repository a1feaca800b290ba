package sqlite

import (
	"context"
	"database/sql"
)

// AllTables reads every table pointer of the catalog in one read
// transaction: a consistent view across tables, which is what a
// multi-table transaction pins at its first read. Keys are "ns.table".
func (c *Catalog) AllTables(ctx context.Context) (map[string]TableRecord, error) {
	const op = "load all tables"
	out := map[string]TableRecord{}
	err := c.readTx(ctx, op, "", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT table_namespace, table_name, metadata_location, previous_metadata_location "+
			"FROM iceberg_tables WHERE catalog_name = ?"+c.onlyTables(), c.name)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var ns, name string
			var loc, prev sql.NullString
			if err := rows.Scan(&ns, &name, &loc, &prev); err != nil {
				return err
			}
			if !loc.Valid {
				continue // a row without a pointer is not a readable table
			}
			out[ns+"."+name] = TableRecord{MetadataLocation: loc.String, PreviousMetadataLocation: prev.String}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
