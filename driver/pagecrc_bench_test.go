package driver_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkScanPageChecksums scans a table of 2,000,000 rows (a BIGINT and
// a short STRING, zstd as written by default) through database/sql with
// page CRCs verified (the default) and with verify_page_checksums=false:
// the difference is what verification costs a scan.
func BenchmarkScanPageChecksums(b *testing.B) {
	const rows = 2_000_000
	wh := b.TempDir()
	setup, err := sql.Open("iceberg", wh)
	if err != nil {
		b.Fatal(err)
	}
	defer setup.Close()
	var values []string
	for i := range 2000 {
		values = append(values, fmt.Sprintf("(%d)", i))
	}
	for _, q := range []string{
		"CREATE TABLE n (x BIGINT)",
		"INSERT INTO n VALUES " + strings.Join(values, ", "),
		"CREATE TABLE t (id BIGINT, s STRING)",
		"INSERT INTO t SELECT a.x * 1000 + b.x, concat('row ', CAST(b.x AS STRING)) FROM n a CROSS JOIN n b WHERE b.x < 1000",
	} {
		if _, err := setup.Exec(q); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct{ name, dsn string }{
		{"verify", wh},
		{"skip", wh + "?verify_page_checksums=false"},
	} {
		b.Run(c.name, func(b *testing.B) {
			db, err := sql.Open("iceberg", c.dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			for b.Loop() {
				var n, total int64
				if err := db.QueryRow("SELECT count(*), sum(id + length(s)) FROM t").Scan(&n, &total); err != nil {
					b.Fatal(err)
				}
				if n != rows {
					b.Fatalf("%d rows, want %d", n, rows)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/rows, "ns/row")
		})
	}
}
