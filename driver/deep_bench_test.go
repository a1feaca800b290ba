package driver_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkDeepStatements plans and runs an AND chain in WHERE and nested
// scalar subqueries at two sizes: ns/term must stay flat from 1,000 to
// 10,000 (no pass may walk each subtree again, or restore each level).
func BenchmarkDeepStatements(b *testing.B) {
	db, err := sql.Open("iceberg", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"CREATE TABLE t (x int)", "INSERT INTO t VALUES (1), (2)"} {
		if _, err := db.Exec(q); err != nil {
			b.Fatal(err)
		}
	}
	shapes := []struct {
		name string
		sql  func(n int) string
		want int64
	}{
		{"and-chain", func(n int) string {
			return "SELECT count(*) FROM t WHERE x = 1" + strings.Repeat(" AND x = 1", n-1)
		}, 1},
		{"scalar-subqueries", func(n int) string {
			return "SELECT " + deep(n, "(SELECT ", "7", ")")
		}, 7},
	}
	for _, s := range shapes {
		for _, n := range []int{1000, 10000} {
			q := s.sql(n)
			b.Run(fmt.Sprintf("%s/n=%d", s.name, n), func(b *testing.B) {
				for b.Loop() {
					var got int64
					if err := db.QueryRow(q).Scan(&got); err != nil {
						b.Fatal(err)
					}
					if got != s.want {
						b.Fatalf("got %d, want %d", got, s.want)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/term")
			})
		}
	}
}
