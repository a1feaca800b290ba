package driver_test

import (
	"database/sql"
	"testing"
)

func BenchmarkInsertSingleRow(b *testing.B) {
	db, err := sql.Open("iceberg", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t (id BIGINT, s STRING)"); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		if _, err := db.Exec("INSERT INTO t VALUES (?, ?)", i, "x"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSelectCount(b *testing.B) {
	db, err := sql.Open("iceberg", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t (id BIGINT, s STRING)"); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		var n int64
		if err := db.QueryRow("SELECT count(*) FROM t WHERE id > 1").Scan(&n); err != nil {
			b.Fatal(err)
		}
	}
}
