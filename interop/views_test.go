package interop

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	goiceberg "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	gotable "github.com/apache/iceberg-go/table"
)

func goSQLCatalog(t *testing.T, dir string) *sqlcat.Catalog {
	t.Helper()
	cat, ok := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir).(*sqlcat.Catalog)
	if !ok {
		t.Fatal("iceberg-go's SQL catalog is not a *sql.Catalog")
	}
	return cat
}

func viewRows(t *testing.T, rows interface {
	Next() bool
	Scan(...any) error
	Err() error
	Close() error
}) []string {
	t.Helper()
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestViewsShareCatalog: a view created through database/sql loads in
// iceberg-go's SQL catalog as the spec describes it, and a view
// iceberg-go creates is queried through database/sql.
func TestViewsShareCatalog(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openSQL(t, dir)
	mustExec(t, db, "CREATE TABLE orders (id BIGINT, region STRING)")
	mustExec(t, db, "INSERT INTO orders VALUES (1, 'eu'), (2, 'us'), (3, 'eu')")
	mustExec(t, db, "CREATE VIEW eu (order_id COMMENT 'the id') COMMENT 'eu only' AS SELECT id FROM orders WHERE region = 'eu'")

	cat := goSQLCatalog(t, dir)
	md, err := cat.LoadView(ctx, gotable.Identifier{"default", "eu"})
	if err != nil {
		t.Fatal(err)
	}
	f := md.CurrentSchema().Fields()
	if len(f) != 1 || f[0].Name != "order_id" || f[0].Doc != "the id" || !f[0].Type.Equals(goiceberg.PrimitiveTypes.Int64) {
		t.Fatalf("iceberg-go reads schema %v", md.CurrentSchema())
	}
	v := md.CurrentVersion()
	if len(v.Representations) != 1 || v.Representations[0].Dialect != "spark" ||
		v.Representations[0].Sql != "SELECT id FROM orders WHERE region = 'eu'" ||
		!reflect.DeepEqual([]string(v.DefaultNamespace), []string{"default"}) {
		t.Fatalf("iceberg-go reads version %+v", v)
	}
	if md.Properties()["comment"] != "eu only" || md.FormatVersion() != 1 {
		t.Fatalf("iceberg-go reads properties %v, format %d", md.Properties(), md.FormatVersion())
	}

	schema := goiceberg.NewSchema(0, goiceberg.NestedField{ID: 1, Name: "id", Type: goiceberg.PrimitiveTypes.Int64})
	if err := cat.CreateView(ctx, gotable.Identifier{"default", "us"}, schema, "SELECT id FROM orders WHERE region = 'us'", nil); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SELECT CAST(id AS STRING) FROM us")
	if err != nil {
		t.Fatal(err)
	}
	if got := viewRows(t, rows); !reflect.DeepEqual(got, []string{"2"}) {
		t.Fatalf("view created by iceberg-go reads %v", got)
	}
	rows, err = db.Query("SHOW VIEWS")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var ns, name string
		var temp bool
		if err := rows.Scan(&ns, &name, &temp); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if sort.Strings(names); !reflect.DeepEqual(names, []string{"eu", "us"}) {
		t.Fatalf("SHOW VIEWS = %v", names)
	}
	// Each side's table listing leaves the views out.
	for id, err := range cat.ListTables(ctx, gotable.Identifier{"default"}) {
		if err != nil {
			t.Fatal(err)
		}
		if id[len(id)-1] != "orders" {
			t.Fatalf("iceberg-go lists %v as a table", id)
		}
	}
	mustExec(t, db, "DROP VIEW us")
	if ok, err := cat.CheckViewExists(ctx, gotable.Identifier{"default", "us"}); ok || err != nil {
		t.Fatalf("iceberg-go still sees the dropped view: %v, %v", ok, err)
	}
	if err := cat.DropView(ctx, gotable.Identifier{"default", "eu"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("SELECT * FROM eu"); err == nil {
		t.Fatal("view dropped by iceberg-go still reads")
	}
	if _, err := cat.LoadView(ctx, gotable.Identifier{"default", "eu"}); !errors.Is(err, catalog.ErrNoSuchView) {
		t.Fatalf("LoadView after drop: %v", err)
	}
}
