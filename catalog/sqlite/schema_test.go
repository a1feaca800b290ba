package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// What sqlite_master holds after Java's JdbcCatalog creates the tables and
// migrates them to V1 (SQLite splices the added column after the last
// column definition).
const (
	wantTablesDDL = "CREATE TABLE iceberg_tables(catalog_name VARCHAR(255) NOT NULL," +
		"table_namespace VARCHAR(255) NOT NULL,table_name VARCHAR(255) NOT NULL," +
		"metadata_location VARCHAR(1000),previous_metadata_location VARCHAR(1000), iceberg_type VARCHAR(5)," +
		"PRIMARY KEY (catalog_name, table_namespace, table_name))"
	wantPropertiesDDL = "CREATE TABLE iceberg_namespace_properties(catalog_name VARCHAR(255) NOT NULL," +
		"namespace VARCHAR(255) NOT NULL,property_key VARCHAR(255),property_value VARCHAR(1000)," +
		"PRIMARY KEY (catalog_name, namespace, property_key))"
)

// DDL other clients use, from the fact sheet: PyIceberg's SQLAlchemy
// models (no iceberg_type, NOT NULL property_value) and iceberg-go's bun
// models (iceberg_type first, untyped VARCHAR; column order approximate).
var foreignDDL = map[string][]string{
	"java-v0": {
		createTablesDDL,
		createPropertiesDDL,
	},
	"pyiceberg": {
		"CREATE TABLE iceberg_tables (\n\tcatalog_name VARCHAR(255) NOT NULL, \n\ttable_namespace VARCHAR(255) NOT NULL, \n" +
			"\ttable_name VARCHAR(255) NOT NULL, \n\tmetadata_location VARCHAR(1000), \n" +
			"\tprevious_metadata_location VARCHAR(1000), \n\tPRIMARY KEY (catalog_name, table_namespace, table_name)\n)",
		"CREATE TABLE iceberg_namespace_properties (\n\tcatalog_name VARCHAR(255) NOT NULL, \n\tnamespace VARCHAR(255) NOT NULL, \n" +
			"\tproperty_key VARCHAR(255) NOT NULL, \n\tproperty_value VARCHAR(1000) NOT NULL, \n" +
			"\tPRIMARY KEY (catalog_name, namespace, property_key)\n)",
	},
	"iceberg-go": {
		`CREATE TABLE IF NOT EXISTS "iceberg_tables" ("catalog_name" VARCHAR NOT NULL, "table_namespace" VARCHAR NOT NULL, ` +
			`"table_name" VARCHAR NOT NULL, "iceberg_type" VARCHAR, "metadata_location" VARCHAR, ` +
			`"previous_metadata_location" VARCHAR, PRIMARY KEY ("catalog_name", "table_namespace", "table_name"))`,
		`CREATE TABLE IF NOT EXISTS "iceberg_namespace_properties" ("catalog_name" VARCHAR NOT NULL, ` +
			`"namespace" VARCHAR NOT NULL, "property_key" VARCHAR NOT NULL, "property_value" VARCHAR, ` +
			`PRIMARY KEY ("catalog_name", "namespace", "property_key"))`,
	},
}

func TestCreatesJDBCSchema(t *testing.T) {
	c, _ := openTest(t, Options{})
	want := map[string]string{"iceberg_tables": wantTablesDDL, "iceberg_namespace_properties": wantPropertiesDDL}
	for table, ddl := range want {
		t.Run(table, func(t *testing.T) {
			var got string
			err := c.reader().QueryRow("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(&got)
			if err != nil {
				t.Fatal(err)
			}
			if got != ddl {
				t.Fatalf("DDL mismatch\n got: %s\nwant: %s", got, ddl)
			}
		})
	}
	var mode string
	if err := c.cur.Load().write.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
	if !c.hasType() {
		t.Fatal("fresh catalog should use the V1 schema")
	}
}

func TestReopenKeepsSchema(t *testing.T) {
	c, path := openTest(t, Options{})
	ctx := context.Background()
	mustCreateNamespace(t, c, "db")
	id := mustCreateTable(t, c, "db.t", "m1")
	c.Close()
	c2, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	rec, err := c2.LoadTable(ctx, id)
	if err != nil || rec.MetadataLocation != "m1" {
		t.Fatalf("LoadTable after reopen = %+v, %v", rec, err)
	}
	var n int
	if err := c2.reader().QueryRow("SELECT count(*) FROM pragma_table_info('iceberg_tables') WHERE name = 'iceberg_type'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("iceberg_type columns = %d, %v", n, err)
	}
}

// createForeignCatalog builds a catalog file with another client's DDL and
// a table row as that client writes it (iceberg_type NULL or absent).
func createForeignCatalog(t *testing.T, ddl []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "foreign.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range ddl {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	stmts := []string{
		"INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, previous_metadata_location) " +
			"VALUES ('default', 'db', 'legacy', 'file:///w/db/legacy/metadata/00000.metadata.json', NULL)",
		"INSERT INTO iceberg_namespace_properties VALUES ('default', 'db', 'exists', 'true')",
		"INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location) " +
			"VALUES ('other', 'db', 'elsewhere', 'x')",
	}
	for _, stmt := range stmts {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	return path
}

func TestOpensForeignCatalogs(t *testing.T) {
	ctx := context.Background()
	for client, ddl := range foreignDDL {
		t.Run(client, func(t *testing.T) {
			path := createForeignCatalog(t, ddl)
			c, err := Open(ctx, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			legacy := ident(t, "db.legacy")
			rec, err := c.LoadTable(ctx, legacy)
			if err != nil {
				t.Fatalf("LoadTable of a row with NULL/absent iceberg_type: %v", err)
			}
			if rec.MetadataLocation != "file:///w/db/legacy/metadata/00000.metadata.json" || rec.PreviousMetadataLocation != "" {
				t.Fatalf("record = %+v", rec)
			}
			tables, err := c.ListTables(ctx, []string{"db"})
			if err != nil || len(tables) != 1 || tables[0].Name != "legacy" {
				t.Fatalf("ListTables = %v, %v (other catalogs' rows must not show)", tables, err)
			}
			if err := c.CommitTable(ctx, legacy, rec.MetadataLocation, "m2"); err != nil {
				t.Fatalf("CommitTable on a legacy row: %v", err)
			}
			// New rows and namespaces must be writable under the foreign DDL
			// (PyIceberg's NOT NULL property_value included).
			if err := c.CreateNamespace(ctx, []string{"ns2"}, map[string]string{"owner": "x"}); err != nil {
				t.Fatal(err)
			}
			if err := c.CreateTable(ctx, ident(t, "ns2.t"), "n1"); err != nil {
				t.Fatal(err)
			}
			if err := c.CommitTable(ctx, ident(t, "ns2.t"), "n1", "n2"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestOpenRejectsNonCatalog(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte("this is not a sqlite database, just some bytes..........................................................."), 0o644); err != nil {
		t.Fatal(err)
	}
	wrongColumns := filepath.Join(dir, "wrong.db")
	db, err := sql.Open("sqlite3", wrongColumns)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE iceberg_tables (catalog_name TEXT, table_namespace TEXT, table_name TEXT)"); err != nil {
		t.Fatal(err)
	}
	db.Close()

	tests := []struct {
		name string
		path string
		opts Options
		want error
	}{
		{"garbage", garbage, Options{}, ErrNotCatalog},
		{"garbage read-only", garbage, Options{ReadOnly: true}, ErrNotCatalog},
		{"missing columns", wrongColumns, Options{}, ErrNotCatalog},
		{"empty path", "", Options{}, ErrInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Open(ctx, tt.path, tt.opts)
			if err == nil {
				c.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestReadOnly(t *testing.T) {
	ctx := context.Background()
	c, path := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	id := mustCreateTable(t, c, "db.t", "m1")
	c.Close()

	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if rec, err := ro.LoadTable(ctx, id); err != nil || rec.MetadataLocation != "m1" {
		t.Fatalf("LoadTable = %+v, %v", rec, err)
	}
	writes := map[string]func() error{
		"create namespace": func() error { return ro.CreateNamespace(ctx, []string{"x"}, nil) },
		"update props": func() error {
			return ro.UpdateNamespaceProperties(ctx, []string{"db"}, nil, map[string]string{"a": "b"})
		},
		"drop namespace": func() error { return ro.DropNamespace(ctx, []string{"db"}) },
		"create table":   func() error { return ro.CreateTable(ctx, ident(t, "db.u"), "m") },
		"register table": func() error { return ro.RegisterTable(ctx, ident(t, "db.u"), "m") },
		"rename table":   func() error { return ro.RenameTable(ctx, id, ident(t, "db.u")) },
		"drop table":     func() error { _, err := ro.DropTable(ctx, id); return err },
		"commit table":   func() error { return ro.CommitTable(ctx, id, "m1", "m2") },
		"commit tables": func() error {
			return ro.CommitTables(ctx, []TableCommit{{Ident: id, Expected: "m1", New: "m2"}})
		},
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			if err := write(); !errors.Is(err, ErrReadOnly) {
				t.Fatalf("err = %v, want ErrReadOnly", err)
			}
		})
	}
	if rec, _ := ro.LoadTable(ctx, id); rec.MetadataLocation != "m1" {
		t.Fatalf("read-only catalog changed the table: %+v", rec)
	}

	if _, err := Open(ctx, filepath.Join(t.TempDir(), "missing.db"), Options{ReadOnly: true}); err == nil {
		t.Fatal("read-only Open of a missing file succeeded")
	}
}
