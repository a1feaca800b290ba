package driver_test

import (
	"testing"
)

// TRUE and FALSE are booleans, as in Spark and DuckDB: database/sql scans
// them as Go bools and the column type is BOOLEAN.
func TestBooleanLiterals(t *testing.T) {
	db := openDB(t, t.TempDir())
	rows, err := db.Query("SELECT true, false, NOT false, true AND false")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	for i, ct := range types {
		if ct.DatabaseTypeName() != "BOOLEAN" {
			t.Errorf("column %d is %s, want BOOLEAN", i, ct.DatabaseTypeName())
		}
	}
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	vals := make([]any, 4)
	ptrs := make([]any, 4)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	want := []bool{true, false, true, false}
	for i, v := range vals {
		b, ok := v.(bool)
		if !ok || b != want[i] {
			t.Errorf("column %d = %#v, want %v", i, v, want[i])
		}
	}
	mustExec(t, db, "CREATE TABLE b (x BOOLEAN, n INT)")
	mustExec(t, db, "INSERT INTO b VALUES (true, 1), (false, 2), (NULL, 3)")
	if got := queryInt(t, db, "SELECT n FROM b WHERE x = false"); got != 2 {
		t.Errorf("x = false selects n=%d, want 2", got)
	}
	if got := queryInt(t, db, "SELECT count(*) FROM b WHERE true"); got != 3 {
		t.Errorf("WHERE true keeps %d rows, want 3", got)
	}
}
