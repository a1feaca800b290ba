package driver_test

import (
	"reflect"
	"testing"
)

// A bare uuid column is typed UUID, scans as a string and reads back as
// canonical text, whatever case it was written in.
func TestUUIDColumnType(t *testing.T) {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE u (id INT, k UUID)",
		"INSERT INTO u VALUES (1, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11')",
	)
	rows, err := db.Query("SELECT id, k FROM u")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	if got := types[1].DatabaseTypeName(); got != "UUID" {
		t.Errorf("DatabaseTypeName = %q, want UUID", got)
	}
	if got := types[1].ScanType(); got != reflect.TypeOf("") {
		t.Errorf("ScanType = %v, want string", got)
	}
	if !rows.Next() {
		t.Fatalf("no row: %v", rows.Err())
	}
	var id int
	var k any
	if err := rows.Scan(&id, &k); err != nil {
		t.Fatal(err)
	}
	if k != "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11" {
		t.Errorf("k = %#v, want canonical text", k)
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM u WHERE k = ?", k).Scan(&n); err != nil || n != 1 {
		t.Errorf("read-back parameter matched %d rows (err %v), want 1", n, err)
	}
}
