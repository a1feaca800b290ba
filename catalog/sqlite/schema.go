package sqlite

import (
	"context"
	"database/sql"
	"fmt"
)

// The DDL Java's JdbcCatalog issues (JdbcUtil.CREATE_CATALOG_TABLE and
// CREATE_NAMESPACE_PROPERTIES_TABLE), byte for byte, followed by its V1
// migration. Creating the tables the same way keeps sqlite_master identical
// to a Java-created catalog.
const (
	createTablesDDL = "CREATE TABLE iceberg_tables(" +
		"catalog_name VARCHAR(255) NOT NULL," +
		"table_namespace VARCHAR(255) NOT NULL," +
		"table_name VARCHAR(255) NOT NULL," +
		"metadata_location VARCHAR(1000)," +
		"previous_metadata_location VARCHAR(1000)," +
		"PRIMARY KEY (catalog_name, table_namespace, table_name))"
	addTypeColumnDDL = "ALTER TABLE iceberg_tables ADD COLUMN iceberg_type VARCHAR(5)"

	createPropertiesDDL = "CREATE TABLE iceberg_namespace_properties(" +
		"catalog_name VARCHAR(255) NOT NULL," +
		"namespace VARCHAR(255) NOT NULL," +
		"property_key VARCHAR(255)," +
		"property_value VARCHAR(1000)," +
		"PRIMARY KEY (catalog_name, namespace, property_key))"
)

// requiredColumns are the columns every writer of the format has; a file
// missing one of them is not a catalog this package can use.
var requiredColumns = map[string][]string{
	"iceberg_tables": {
		"catalog_name", "table_namespace", "table_name",
		"metadata_location", "previous_metadata_location",
	},
	"iceberg_namespace_properties": {
		"catalog_name", "namespace", "property_key", "property_value",
	},
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// initSchema creates whichever catalog table is missing, as Java does. A
// freshly created iceberg_tables gets the V1 iceberg_type column; an
// existing V0 table (PyIceberg, older Java) is left as it is.
func initSchema(ctx context.Context, tx *sql.Tx) error {
	present, err := existingTables(ctx, tx)
	if err != nil {
		return err
	}
	if !present["iceberg_tables"] {
		if _, err := tx.ExecContext(ctx, createTablesDDL); err != nil {
			return fmt.Errorf("create iceberg_tables: %w", err)
		}
		if _, err := tx.ExecContext(ctx, addTypeColumnDDL); err != nil {
			return fmt.Errorf("add iceberg_type column: %w", err)
		}
	}
	if !present["iceberg_namespace_properties"] {
		if _, err := tx.ExecContext(ctx, createPropertiesDDL); err != nil {
			return fmt.Errorf("create iceberg_namespace_properties: %w", err)
		}
	}
	return nil
}

func existingTables(ctx context.Context, q querier) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, "SELECT name FROM sqlite_master WHERE type = 'table' "+
		"AND name IN ('iceberg_tables', 'iceberg_namespace_properties')")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	present := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		present[name] = true
	}
	return present, rows.Err()
}

// inspectSchema checks the catalog tables and reports whether
// iceberg_tables has the V1 iceberg_type column.
func inspectSchema(ctx context.Context, q querier) (hasType bool, err error) {
	for table, want := range requiredColumns {
		cols, err := tableColumns(ctx, q, table)
		if err != nil {
			return false, err
		}
		if len(cols) == 0 {
			return false, wrapf(ErrNotCatalog, "table %s is missing", table)
		}
		for _, c := range want {
			if !cols[c] {
				return false, wrapf(ErrNotCatalog, "table %s has no column %s", table, c)
			}
		}
		if table == "iceberg_tables" {
			hasType = cols["iceberg_type"]
		}
	}
	return hasType, nil
}

func tableColumns(ctx context.Context, q querier, table string) (map[string]bool, error) {
	// table comes from requiredColumns, never from input.
	rows, err := q.QueryContext(ctx, "SELECT name FROM pragma_table_info('"+table+"')")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		cols[name] = true
	}
	return cols, rows.Err()
}
