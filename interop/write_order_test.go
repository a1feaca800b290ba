package interop

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestSQLWriteOrderIcebergGoReads: ALTER TABLE ... WRITE ORDERED BY
// through database/sql records a sort order iceberg-go reads field for
// field, the distribution mode Spark would set, and data files whose
// sort_order_id names it; iceberg-go's rows equal the SQL rows.
func TestSQLWriteOrderIcebergGoReads(t *testing.T) {
	dir := t.TempDir()
	db := openSQL(t, dir)
	mustExec(t, db, "CREATE NAMESPACE lake")
	mustExec(t, db, "CREATE TABLE lake.o ("+flatSQLColumns+")")
	mustExec(t, db, "ALTER TABLE lake.o WRITE ORDERED BY category DESC, bucket(4, id), ts NULLS LAST")
	var sb strings.Builder
	var args []any
	sb.WriteString("INSERT INTO lake.o VALUES ")
	for i := range 60 {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString("(?, ?, ?, ?)")
		for _, v := range flatSQLRow(i) {
			args = append(args, sqlArg(v))
		}
	}
	mustExec(t, db, sb.String(), args...)

	goTbl := goLoad(t, openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir), goIdent([]string{"lake"}, "o"))
	order := goTbl.SortOrder()
	var got []string
	for _, f := range order.Fields() {
		got = append(got, f.String())
	}
	want := []string{"2 desc nulls-last", "bucket[4](1) asc nulls-first", "3 asc nulls-last"}
	if order.OrderID() != 1 || strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("iceberg-go reads sort order %d %q, want 1 %q", order.OrderID(), got, want)
	}
	if m := goTbl.Properties()["write.distribution-mode"]; m != "range" {
		t.Fatalf("write.distribution-mode = %q, want range", m)
	}
	tasks, err := goTbl.Scan().PlanFiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if id := task.File.SortOrderID(); id == nil || *id != 1 {
			t.Fatalf("%s: sort_order_id %v, want 1", task.File.FilePath(), id)
		}
	}
	requireSameRows(t, "SQL SELECT", sqlRows(t, db, "SELECT id, category, ts, amount FROM lake.o"), "iceberg-go", goRows(t, goTbl))
}
