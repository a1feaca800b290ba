package interop

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/uptrace/bun/driver/sqliteshim"
)

// openGoCatalog opens a catalog file with iceberg-go's SQL catalog.
func openGoCatalog(t testing.TB, file, warehouse string) catalog.Catalog {
	t.Helper()
	cat, err := catalog.Load(context.Background(), "default", iceberg.Properties{
		"type":                "sql",
		"uri":                 "file:" + file,
		sqlcat.DriverKey:      sqliteshim.ShimName,
		sqlcat.DialectKey:     string(sqlcat.SQLite),
		"warehouse":           "file://" + warehouse,
		"init_catalog_tables": "true",
	})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func TestGoCatalogOpens(t *testing.T) {
	dir := t.TempDir()
	cat := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
	if err := cat.CreateNamespace(context.Background(), []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
}
