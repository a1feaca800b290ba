package driver_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// TestNoWarehouseUntilFirstWrite: sql.Open, Ping and reads of a path that
// does not exist leave it absent; the first write creates it.
func TestNoWarehouseUntilFirstWrite(t *testing.T) {
	wh := filepath.Join(t.TempDir(), "not", "yet")
	db := openDB(t, wh+"?namespace=sales")
	ctx := context.Background()
	if err := db.PingContext(ctx); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, "SHOW TABLES")
	if err != nil {
		t.Fatal(err)
	}
	if rows.Next() {
		t.Fatal("SHOW TABLES on a new warehouse listed a table")
	}
	rows.Close()
	if _, err := db.ExecContext(ctx, "SELECT * FROM missing"); err == nil {
		t.Fatal("a read of a missing table succeeded")
	}
	if _, err := os.Stat(filepath.Dir(wh)); !os.IsNotExist(err) {
		t.Fatalf("reads created %s: %v", filepath.Dir(wh), err)
	}
	mustExec(t, db, "CREATE TABLE t (x INT)")
	mustExec(t, db, "INSERT INTO t VALUES (1)")
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sales.t").Scan(&n); err != nil || n != 1 {
		t.Fatalf("count %d, %v", n, err)
	}
	db2, err := sql.Open("iceberg", wh)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	var ns string
	if err := db2.QueryRowContext(ctx, "SHOW NAMESPACES").Scan(&ns); err != nil || ns != "sales" {
		t.Fatalf("namespaces: %q, %v", ns, err)
	}
}
