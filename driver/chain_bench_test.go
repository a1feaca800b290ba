package driver_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkArithmeticChain plans and runs SELECT 0 + 1 + ... + 1 of
// growing length: time per term must stay flat (typing, folding and
// evaluating a chain are linear in its length).
func BenchmarkArithmeticChain(b *testing.B) {
	db, err := sql.Open("iceberg", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, n := range []int{1000, 10000, 100000} {
		q := "SELECT 0" + strings.Repeat(" + 1", n)
		b.Run(fmt.Sprintf("terms=%d", n), func(b *testing.B) {
			for b.Loop() {
				var got int64
				if err := db.QueryRow(q).Scan(&got); err != nil {
					b.Fatal(err)
				}
				if got != int64(n) {
					b.Fatalf("got %d, want %d", got, n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/term")
		})
	}
}
