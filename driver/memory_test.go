package driver_test

import (
	"os"
	"path/filepath"
	"testing"
)

// memory_limit makes large sorts spill to spill_dir and still return the
// right order; the spill files are gone afterwards.
func TestMemoryLimitSpillsSorts(t *testing.T) {
	dir := t.TempDir()
	spill := filepath.Join(dir, "spill")
	if err := os.MkdirAll(spill, 0o755); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, dir+"/lake?memory_limit=16KiB&spill_dir="+spill)
	mustExec(t, db, "CREATE TABLE n (v BIGINT)")
	mustExec(t, db, "INSERT INTO n SELECT 1")
	for i := 0; i < 12; i++ {
		mustExec(t, db, "INSERT INTO n SELECT v * 2 + 1 FROM n")
	}
	rows, err := db.Query("SELECT v FROM n ORDER BY v DESC")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	prev, count := int64(1<<62), 0
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v > prev {
			t.Fatalf("row %d: %d after %d: not descending", count, v, prev)
		}
		prev = v
		count++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if count != 1<<12 {
		t.Fatalf("%d rows, want %d", count, 1<<12)
	}
	left, _ := os.ReadDir(spill)
	if len(left) != 0 {
		t.Fatalf("%d spill files left behind", len(left))
	}
}
