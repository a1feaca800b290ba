package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/icesql/icesql/catalog"
)

// Java's JdbcCatalog DDL (JdbcUtil.CREATE_CATALOG_TABLE and
// CREATE_NAMESPACE_PROPERTIES_TABLE) and its V1 migration.
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

// initLockKey is the advisory lock that serialises concurrent first opens
// of a fresh database (CREATE TABLE races on the catalog's system rows).
const initLockKey = 0x1ceb3e6c

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
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// initSchema creates whichever catalog table is missing, as Java does; a
// freshly created iceberg_tables gets the V1 iceberg_type column, an
// existing V0 table is left as it is.
func initSchema(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(initLockKey)); err != nil {
		return err
	}
	for _, t := range []struct{ name, ddl, more string }{
		{"iceberg_tables", createTablesDDL, addTypeColumnDDL},
		{"iceberg_namespace_properties", createPropertiesDDL, ""},
	} {
		var present bool
		if err := tx.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", t.name).Scan(&present); err != nil {
			return err
		}
		if present {
			continue
		}
		if _, err := tx.Exec(ctx, t.ddl); err != nil {
			return fmt.Errorf("create %s: %w", t.name, err)
		}
		if t.more != "" {
			if _, err := tx.Exec(ctx, t.more); err != nil {
				return fmt.Errorf("add iceberg_type column: %w", err)
			}
		}
	}
	return nil
}

// inspectSchema checks the catalog tables (those the search path finds)
// and reports whether iceberg_tables has the V1 iceberg_type column.
func inspectSchema(ctx context.Context, q querier) (hasType bool, err error) {
	for table, want := range requiredColumns {
		rows, err := q.Query(ctx, "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) "+
			"AND attnum > 0 AND NOT attisdropped", table)
		if err != nil {
			return false, err
		}
		cols, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return false, err
		}
		have := map[string]bool{}
		for _, c := range cols {
			have[c] = true
		}
		if len(have) == 0 {
			return false, wrapf(catalog.ErrNotCatalog, "table %s is missing", table)
		}
		for _, c := range want {
			if !have[c] {
				return false, wrapf(catalog.ErrNotCatalog, "table %s has no column %s", table, c)
			}
		}
		if table == "iceberg_tables" {
			hasType = have["iceberg_type"]
		}
	}
	return hasType, nil
}
