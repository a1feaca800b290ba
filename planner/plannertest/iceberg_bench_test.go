package plannertest

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/icesql/icesql/driver"
)

var icebergRows = flag.Int("iceberg-rows", 1_000_000, "rows in the Iceberg benchmark table (e.g. 10000000)")

// eventsReader yields n rows of (action, amount, day) in 64Ki-row batches;
// day takes 10 values so a day filter prunes 9 of 10 partitions.
type eventsReader struct {
	n, next int
	cur     arrow.RecordBatch
	schema  *arrow.Schema
}

var eventsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "action", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "amount", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
}, nil)

var benchActions = []string{"click", "view", "purchase", "signup", "logout", "share", "like", "comment"}

func (r *eventsReader) Retain()                        {}
func (r *eventsReader) Release()                       { r.drop() }
func (r *eventsReader) Schema() *arrow.Schema          { return eventsSchema }
func (r *eventsReader) Err() error                     { return nil }
func (r *eventsReader) Record() arrow.RecordBatch      { return r.cur }
func (r *eventsReader) RecordBatch() arrow.RecordBatch { return r.cur }
func (r *eventsReader) drop() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}
func (r *eventsReader) Next() bool {
	r.drop()
	if r.next >= r.n {
		return false
	}
	m := min(1<<16, r.n-r.next)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, eventsSchema)
	defer bld.Release()
	// rows are clustered by day, as an ingest by time would be
	day0 := arrow.Date32(20_000)
	for i := 0; i < m; i++ {
		row := r.next + i
		bld.Field(0).(*array.StringBuilder).Append(benchActions[(row*7+row/3)%len(benchActions)])
		bld.Field(1).(*array.Int64Builder).Append(int64(row % 1000))
		bld.Field(2).(*array.Date32Builder).Append(day0 + arrow.Date32(row*10/r.n))
	}
	r.next += m
	r.cur = bld.NewRecordBatch()
	return true
}

type icebergFixture struct {
	db   *sql.DB
	dir  string
	rows int
}

var (
	fixtureOnce sync.Once
	fixture     *icebergFixture
	fixtureErr  error
)

// icebergEvents creates (once per run) a partitioned Iceberg table of
// -iceberg-rows rows through the driver.
func icebergEvents(b *testing.B) *icebergFixture {
	fixtureOnce.Do(func() {
		dir, err := os.MkdirTemp("", "icesql-bench-")
		if err != nil {
			fixtureErr = err
			return
		}
		db, err := sql.Open("iceberg", dir)
		if err != nil {
			fixtureErr = err
			return
		}
		if _, err := db.Exec("CREATE TABLE events (action STRING, amount BIGINT, day DATE) PARTITIONED BY (day)"); err != nil {
			fixtureErr = err
			return
		}
		ctx := context.Background()
		conn, err := db.Conn(ctx)
		if err != nil {
			fixtureErr = err
			return
		}
		defer conn.Close()
		fixtureErr = conn.Raw(func(dc any) error {
			_, err := dc.(driver.ArrowConn).AppendArrow(ctx, "events", &eventsReader{n: *icebergRows})
			return err
		})
		fixture = &icebergFixture{db: db, dir: dir, rows: *icebergRows}
	})
	if fixtureErr != nil {
		b.Fatal(fixtureErr)
	}
	return fixture
}

func BenchmarkIcebergGroupBy(b *testing.B) {
	f := icebergEvents(b)
	for b.Loop() {
		rows, err := f.db.Query("SELECT action, count(*), sum(amount) FROM events GROUP BY action")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		if err := rows.Err(); err != nil || n != len(benchActions) {
			b.Fatalf("%d groups, err %v", n, err)
		}
		rows.Close()
	}
	b.ReportMetric(float64(f.rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkIcebergPrunedFilter(b *testing.B) {
	f := icebergEvents(b)
	for b.Loop() {
		var n, s int64
		if err := f.db.QueryRow("SELECT count(*), sum(amount) FROM events WHERE day = DATE '2024-10-04' AND amount < 500").Scan(&n, &s); err != nil {
			b.Fatal(err)
		}
		if n == 0 {
			b.Fatal("no rows matched")
		}
	}
	// rows/s counts the whole table: pruning is the point
	b.ReportMetric(float64(f.rows)*float64(b.N)/b.Elapsed().Seconds(), "table-rows/s")
}

// BenchmarkPqarrowScan reads every data file of the table with arrow-go's
// pqarrow: the floor the engine's scan is compared with.
func BenchmarkPqarrowScan(b *testing.B) {
	f := icebergEvents(b)
	var files []string
	err := filepath.WalkDir(f.dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") && strings.Contains(p, "events") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		b.Fatalf("data files: %v (%d)", err, len(files))
	}
	for b.Loop() {
		total := 0
		for _, p := range files {
			rdr, err := file.OpenParquetFile(p, false)
			if err != nil {
				b.Fatal(err)
			}
			fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
			if err != nil {
				b.Fatal(err)
			}
			rr, err := fr.GetRecordReader(context.Background(), nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			for rr.Next() {
				total += int(rr.RecordBatch().NumRows())
			}
			rr.Release()
			rdr.Close()
		}
		if total != f.rows {
			b.Fatalf("read %d rows, want %d", total, f.rows)
		}
	}
	b.ReportMetric(float64(f.rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkIcebergInsert1000Rows(b *testing.B) {
	db, err := sql.Open("iceberg", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t (id BIGINT, s STRING)"); err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("INSERT INTO t VALUES ")
	for i := 0; i < 1000; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "(%d, 'row %d')", i, i)
	}
	stmt := sb.String()
	for b.Loop() {
		if _, err := db.Exec(stmt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkIcebergInsertSingleRow(b *testing.B) {
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

// TestMain removes the benchmark table's directory after the run.
func TestMain(m *testing.M) {
	code := m.Run()
	if fixture != nil {
		fixture.db.Close()
		os.RemoveAll(fixture.dir)
	}
	os.Exit(code)
}
