package plannertest

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/sqlexec/exec"
)

// loadDim adds table dim of n rows (k BIGINT, grp STRING) keyed 0..n-1.
func loadDim(db *DB, n int) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "grp", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	t := NewTable("dim", schema)
	ib, sb := array.NewInt64Builder(db.Mem), array.NewStringBuilder(db.Mem)
	for i := 0; i < n; i++ {
		ib.Append(int64(i))
		sb.Append(fmt.Sprintf("g%d", i%10))
	}
	cols := []arrow.Array{ib.NewArray(), sb.NewArray()}
	b := array.NewRecordBatch(schema, cols, int64(n))
	t.Append(b)
	b.Release()
	exec.ReleaseArrays(cols)
	ib.Release()
	sb.Release()
	db.Cat.Add(t)
}

// BenchmarkJoinAggregate joins 2M fact rows with a 1000-row dimension and
// groups the result, serially and with parallel probe workers.
func BenchmarkJoinAggregate(b *testing.B) {
	const rows = 2_000_000
	db := NewDB(memory.NewGoAllocator())
	loadEvents(db, rows)
	loadDim(db, 1000)
	defer db.Cat.Close()
	const q = "SELECT dim.grp, count(*), sum(t.amount) FROM t JOIN dim ON t.amount = dim.k GROUP BY dim.grp"
	for _, workers := range []int{1, 0} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				got, _, err := runWith(context.Background(), b, db, q, workers)
				if err != nil {
					b.Fatal(err)
				}
				if len(got) != 10 {
					b.Fatalf("got %d groups", len(got))
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkOrderByLimit takes the 10 largest of 2M rows: a top-N heap
// against a full sort of every row.
func BenchmarkOrderByLimit(b *testing.B) {
	const rows = 2_000_000
	db := NewDB(memory.NewGoAllocator())
	loadEvents(db, rows)
	defer db.Cat.Close()
	for name, q := range map[string]string{
		"topn":      "SELECT action, amount FROM t ORDER BY amount DESC, action LIMIT 10",
		"full-sort": "SELECT action, amount FROM t ORDER BY amount DESC, action",
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				_, bs, err := db.QueryBatches(context.Background(), q)
				if err != nil {
					b.Fatal(err)
				}
				exec.ReleaseAll(bs)
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
