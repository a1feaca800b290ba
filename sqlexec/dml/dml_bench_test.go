package dml_test

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/sqlexec/dml"
	"github.com/icesql/icesql/sqlexec/exec"
)

// benchRows is the target table size (go test -bench . -dml.rows 1000000).
var benchRows = flag.Int("dml.rows", 20000, "rows of the benchmark target table")

const benchFiles = 10

// fillTable appends rows (id, v) with id in [0, n) to table name, in
// benchFiles data files, writing Arrow directly (no SQL parsing).
func (l *lake) fillTable(b *testing.B, name string, n, idOffset int) {
	b.Helper()
	ctx := context.Background()
	t := l.table(name)
	as, err := arrowschema.ToArrow(t.Schema())
	if err != nil {
		b.Fatal(err)
	}
	u := t.NewAppend()
	per := (n + benchFiles - 1) / benchFiles
	for start := 0; start < n; start += per {
		end := min(start+per, n)
		ib, vb := array.NewInt64Builder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
		for i := start; i < end; i++ {
			ib.Append(int64(i + idOffset))
			vb.Append(int64(i % 1000))
		}
		cols := []arrow.Array{ib.NewArray(), vb.NewArray()}
		rec := array.NewRecordBatch(as, cols, int64(end-start))
		w := datafile.NewWriter(ctx, t.IO(), t.Metadata(), datafile.WriterOptions{})
		if err := w.Write(ctx, rec); err != nil {
			b.Fatal(err)
		}
		files, err := w.Close(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range files {
			u = u.AddDataFile(f)
		}
		rec.Release()
		exec.ReleaseArrays(cols)
		ib.Release()
		vb.Release()
	}
	if _, err := u.Commit(ctx); err != nil {
		b.Fatal(err)
	}
}

func (l *lake) readAll(b *testing.B, name string) int64 {
	recs, err := dml.ReadTable(context.Background(), l.table(name))
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for _, r := range recs {
		n += r.NumRows()
	}
	exec.ReleaseAll(recs)
	return n
}

// BenchmarkDelete1Percent deletes every 100th row of a table spread over
// all its files, then reads the table back.
func BenchmarkDelete1Percent(b *testing.B) {
	for _, mode := range modes {
		b.Run(mode, func(b *testing.B) {
			l := newLake(b)
			var written, readNs int64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				name := fmt.Sprintf("t%d", i)
				l.exec("CREATE TABLE " + name + " (id BIGINT, v BIGINT)")
				l.setModes(name, mode)
				l.fillTable(b, name, *benchRows, 0)
				b.StartTimer()
				n := l.exec("DELETE FROM " + name + " WHERE id % 100 = 0")
				b.StopTimer()
				if n != int64((*benchRows+99)/100) {
					b.Fatalf("deleted %d rows", n)
				}
				size, _ := strconv.ParseInt(l.summary(name)["added-files-size"], 10, 64)
				written += size
				start := time.Now()
				if got := l.readAll(b, name); got != int64(*benchRows)-n {
					b.Fatalf("read %d rows", got)
				}
				readNs += time.Since(start).Nanoseconds()
				b.StartTimer()
			}
			b.ReportMetric(float64(written)/float64(b.N), "bytes-written/op")
			b.ReportMetric(float64(readNs)/float64(b.N), "read-ns/op")
		})
	}
}

// BenchmarkMergeUpsert merges N = rows/10 source rows (half matching,
// half new) into a table of M = rows target rows.
func BenchmarkMergeUpsert(b *testing.B) {
	for _, mode := range modes {
		b.Run(mode, func(b *testing.B) {
			l := newLake(b)
			src := *benchRows / 10
			l.exec("CREATE TABLE src (id BIGINT, v BIGINT)")
			l.fillTable(b, "src", src, *benchRows-src/2)
			var written int64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				name := fmt.Sprintf("t%d", i)
				l.exec("CREATE TABLE " + name + " (id BIGINT, v BIGINT)")
				l.setModes(name, mode)
				l.fillTable(b, name, *benchRows, 0)
				b.StartTimer()
				n := l.exec("MERGE INTO " + name + " t USING src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v + 1 WHEN NOT MATCHED THEN INSERT *")
				b.StopTimer()
				if n != int64(src) {
					b.Fatalf("merged %d rows, want %d", n, src)
				}
				size, _ := strconv.ParseInt(l.summary(name)["added-files-size"], 10, 64)
				written += size
				b.StartTimer()
			}
			b.ReportMetric(float64(written)/float64(b.N), "bytes-written/op")
		})
	}
}
