package driver_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/internal/pgtest"
	"github.com/icesql/icesql/internal/s3test"
)

// storageSetups are the warehouses the storage benchmarks compare, in one
// run: SQLite catalog on local disk (the default), Postgres catalog on
// local disk, and Postgres catalog with the data in S3 (a loopback
// versitygw serving a local directory, so the ratio to local disk is the
// cost of the protocol, not of a network).
var storageSetups = []struct {
	name string
	dsn  func(b *testing.B) string
}{
	{"sqlite", func(b *testing.B) string { return filepath.Join(b.TempDir(), "lake") }},
	{"postgres", func(b *testing.B) string {
		return filepath.Join(b.TempDir(), "lake") + "?catalog_uri=" + url.QueryEscape(pgtest.Database(b))
	}},
	{"s3+postgres", func(b *testing.B) string {
		st := s3test.Bucket(b)
		q := url.Values{"catalog_uri": {pgtest.Database(b)}}
		for k, v := range st.Props {
			q.Set(k, v)
		}
		return st.Warehouse("lake") + "?" + q.Encode()
	}},
}

// BenchmarkCommitLatency: one single-row INSERT (one commit) at a time.
func BenchmarkCommitLatency(b *testing.B) {
	for _, s := range storageSetups {
		b.Run(s.name, func(b *testing.B) {
			db := benchDB(b, s.dsn(b))
			benchExec(b, db, "CREATE TABLE t (id BIGINT)")
			b.ResetTimer()
			for i := range b.N {
				benchExec(b, db, "INSERT INTO t VALUES (?)", i)
			}
		})
	}
}

// BenchmarkCommitsEightWriters: 8 writers, each its own *sql.DB (as 8
// machines would be), appending single rows to one table; commits/s.
func BenchmarkCommitsEightWriters(b *testing.B) {
	for _, s := range storageSetups {
		b.Run(s.name, func(b *testing.B) {
			dsn := s.dsn(b)
			benchExec(b, benchDB(b, dsn), "CREATE TABLE t (id BIGINT)")
			dbs := make([]*sql.DB, 8)
			for i := range dbs {
				dbs[i] = benchDB(b, dsn)
			}
			var next atomic.Int64
			b.ResetTimer()
			var wg sync.WaitGroup
			for _, db := range dbs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := next.Add(1)
						if i > int64(b.N) {
							return
						}
						if _, err := db.Exec("INSERT INTO t VALUES (?)", i); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
		})
	}
}

// BenchmarkScanStorage: a full scan with an aggregate over 1M rows in 4
// files, local disk vs S3; rows/s.
func BenchmarkScanStorage(b *testing.B) {
	const rows = 1 << 20
	for _, s := range []int{0, 2} {
		setup := storageSetups[s]
		name := "local"
		if s == 2 {
			name = "s3"
		}
		b.Run(name, func(b *testing.B) {
			db := benchDB(b, setup.dsn(b))
			benchExec(b, db, "CREATE TABLE t (id BIGINT, v DOUBLE, s STRING)")
			appendBatches(b, db, "t", 4, rows/4)
			b.ResetTimer()
			for range b.N {
				var n int64
				var sum float64
				if err := db.QueryRow("SELECT count(*), sum(v) FROM t WHERE s <> 'x'").Scan(&n, &sum); err != nil {
					b.Fatal(err)
				}
				if n != rows {
					b.Fatalf("count %d", n)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// appendBatches appends files files of n rows each (id, v, s) through
// AppendArrow, one commit per file.
func appendBatches(b *testing.B, db *sql.DB, tbl string, files, n int) {
	ctx := context.Background()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	for i := range 65536 {
		bld.Field(0).(*array.Int64Builder).Append(int64(i))
		bld.Field(1).(*array.Float64Builder).Append(float64(i) / 2)
		bld.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("s%d", i%1000))
	}
	batch := bld.NewRecordBatch()
	bld.Release()
	defer batch.Release()
	conn, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	for range files {
		err := conn.Raw(func(dc any) error {
			_, err := dc.(driver.ArrowConn).AppendArrow(ctx, tbl, &repeatReader{batch: batch, left: int64(n)})
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
