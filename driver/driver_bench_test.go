package driver_test

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/driver"
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

var appendRows = flag.Int("append-rows", 100_000, "rows per BenchmarkAppendArrow iteration (e.g. 10000000)")

// repeatReader yields one batch until n rows were given (the last batch
// sliced), so a large append needs no large input in memory.
type repeatReader struct {
	batch arrow.RecordBatch
	left  int64
	cur   arrow.RecordBatch
}

func (r *repeatReader) Retain()               {}
func (r *repeatReader) Release()              { r.release() }
func (r *repeatReader) Schema() *arrow.Schema { return r.batch.Schema() }
func (r *repeatReader) Err() error            { return nil }
func (r *repeatReader) Record() arrow.RecordBatch {
	return r.cur
}
func (r *repeatReader) RecordBatch() arrow.RecordBatch { return r.cur }

func (r *repeatReader) release() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func (r *repeatReader) Next() bool {
	r.release()
	if r.left <= 0 {
		return false
	}
	n := min(r.left, r.batch.NumRows())
	r.cur = r.batch.NewSlice(0, n)
	r.left -= n
	return true
}

// BenchmarkAppendArrow appends -append-rows rows per iteration through
// (*sql.Conn).Raw as one commit and reports rows/s.
func BenchmarkAppendArrow(b *testing.B) {
	ctx := context.Background()
	db, err := sql.Open("iceberg", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE ev (id BIGINT NOT NULL, v DOUBLE, name STRING)"); err != nil {
		b.Fatal(err)
	}
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	for i := range 65536 {
		bld.Field(0).(*array.Int64Builder).Append(int64(i))
		bld.Field(1).(*array.Float64Builder).Append(float64(i) / 3)
		bld.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("name-%d", i%1000))
	}
	batch := bld.NewRecordBatch()
	bld.Release()
	defer batch.Release()
	conn, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	var total int64
	for b.Loop() {
		err := conn.Raw(func(dc any) error {
			n, err := dc.(driver.ArrowConn).AppendArrow(ctx, "ev", &repeatReader{batch: batch, left: int64(*appendRows)})
			total += n
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "rows/s")
}
