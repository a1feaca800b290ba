package plannertest

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/sqlexec/exec"
)

// loadEvents fills table t with n rows of (action STRING, amount BIGINT).
func loadEvents(db *DB, n int) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "action", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "amount", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	t := NewTable("t", schema)
	actions := []string{"click", "view", "purchase", "signup", "logout", "share", "like", "comment"}
	const batch = 1 << 16
	for start := 0; start < n; start += batch {
		m := min(batch, n-start)
		sb := array.NewStringBuilder(db.Mem)
		ib := array.NewInt64Builder(db.Mem)
		for i := 0; i < m; i++ {
			r := start + i
			sb.Append(actions[(r*7+r/3)%len(actions)])
			ib.Append(int64(r % 1000))
		}
		cols := []arrow.Array{sb.NewArray(), ib.NewArray()}
		b := array.NewRecordBatch(schema, cols, int64(m))
		t.Append(b)
		b.Release()
		exec.ReleaseArrays(cols)
		sb.Release()
		ib.Release()
	}
	db.Cat.Add(t)
}

func BenchmarkGroupBy10M(b *testing.B) {
	const rows = 10_000_000
	db := NewDB(memory.NewGoAllocator())
	loadEvents(db, rows)
	defer db.Cat.Close()
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, bs, err := db.QueryBatches(ctx, "SELECT action, count(*), sum(amount) FROM t GROUP BY action")
		if err != nil {
			b.Fatal(err)
		}
		if bs[0].NumRows() != 8 {
			b.Fatalf("got %d groups", bs[0].NumRows())
		}
		exec.ReleaseAll(bs)
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
