package interop

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/catalog"
	gotable "github.com/apache/iceberg-go/table"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
)

const (
	benchRows      = 1_000_000
	benchBatchRows = 64 * 1024
	benchCommits   = 200
)

// benchSchema is the flat table of the side-by-side benchmarks.
func benchSchema(tb testing.TB) *iceberg.Schema {
	tb.Helper()
	s, err := iceberg.NewSchema(0, []iceberg.NestedField{
		{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
		{ID: 2, Name: "name", Type: iceberg.StringType{}},
		{ID: 3, Name: "category", Type: iceberg.StringType{}},
		{ID: 4, Name: "ts", Type: iceberg.TimestampTzType{}},
		{ID: 5, Name: "value", Type: iceberg.DoubleType{}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// benchRecords builds rows [0, n) in batches of benchBatchRows.
func benchRecords(sc *arrow.Schema, n int) []arrow.RecordBatch {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	cats := []string{"books", "games", "music", "garden", "tools", "toys", "food", "sport"}
	var recs []arrow.RecordBatch
	for from := 0; from < n; from += benchBatchRows {
		to := min(from+benchBatchRows, n)
		b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		ids := b.Field(0).(*array.Int64Builder)
		names := b.Field(1).(*array.StringBuilder)
		categories := b.Field(2).(*array.StringBuilder)
		tss := b.Field(3).(*array.TimestampBuilder)
		values := b.Field(4).(*array.Float64Builder)
		for i := from; i < to; i++ {
			ids.Append(int64(i))
			names.Append(fmt.Sprintf("customer-%07d", i*7919%n))
			categories.Append(cats[i%len(cats)])
			tss.Append(arrow.Timestamp(base + int64(i)*1_000_003))
			values.Append(float64(i%10007) * 0.37)
		}
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	return recs
}

// benchEnv is one catalog file shared by both engines.
type benchEnv struct {
	dir   string
	ice   *iceSide
	goCat catalog.Catalog
	sc    *arrow.Schema
	seq   int // names fresh tables: sub-benchmarks run several times
}

func newBenchEnv(b *testing.B) *benchEnv {
	b.Helper()
	dir := b.TempDir()
	catFile := filepath.Join(dir, "catalog.db")
	ice := openIce(b, catFile, dir, false)
	e := &benchEnv{dir: dir, ice: ice, goCat: openGoCatalog(b, catFile, dir)}
	e.sc = arrowOf(b, ice.createTable(b, table.Identifier{Namespace: []string{"bench"}, Name: "schema_probe"}, benchSchema(b), nil, nil).Schema())
	return e
}

// newIceTable and newGoTable create an empty table of a fresh name,
// each through its engine's own catalog code.
func (e *benchEnv) newIceTable(b *testing.B) *table.Table {
	b.Helper()
	e.seq++
	return e.ice.createTable(b, table.Identifier{Namespace: []string{"bench"}, Name: fmt.Sprintf("icesql_%d", e.seq)}, benchSchema(b), nil, nil)
}

func (e *benchEnv) newGoTable(b *testing.B) *gotable.Table {
	b.Helper()
	e.seq++
	return goCreateTable(b, e.goCat, e.dir, goIdent([]string{"bench"}, fmt.Sprintf("icebergo_%d", e.seq)), goSchema(b, benchSchema(b)), nil, nil)
}

// BenchmarkWrite1M: one append of 1,000,000 rows (Parquet files plus
// commit) by each engine into a fresh table.
func BenchmarkWrite1M(b *testing.B) {
	e := newBenchEnv(b)
	recs := benchRecords(e.sc, benchRows)
	defer releaseAll(recs)
	ctx := context.Background()
	b.Run("icesql", func(b *testing.B) {
		var cpu int64
		for range b.N {
			b.StopTimer()
			t := e.newIceTable(b)
			b.StartTimer()
			c := processCPU()
			if _, err := iceAppend(ctx, t, recs...); err != nil {
				b.Fatal(err)
			}
			cpu += processCPU() - c
		}
		b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("iceberg-go", func(b *testing.B) {
		var cpu int64
		for range b.N {
			b.StopTimer()
			t := e.newGoTable(b)
			rdr := recordReader(b, recs...)
			b.StartTimer()
			c := processCPU()
			if _, err := t.Append(ctx, rdr, nil); err != nil {
				b.Fatal(err)
			}
			cpu += processCPU() - c
			rdr.Release()
		}
		b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}

// BenchmarkScan1M: a full scan into Arrow records of one 1,000,000-row
// table (written once by icesql) by each engine.
func BenchmarkScan1M(b *testing.B) {
	e := newBenchEnv(b)
	recs := benchRecords(e.sc, benchRows)
	ctx := context.Background()
	iceTbl := e.newIceTable(b)
	iceTbl, err := iceAppend(ctx, iceTbl, recs...)
	releaseAll(recs)
	if err != nil {
		b.Fatal(err)
	}
	goTbl := goLoad(b, e.goCat, goIdent(iceTbl.Ident().Namespace, iceTbl.Ident().Name))
	b.Run("icesql", func(b *testing.B) {
		cpu := processCPU()
		for range b.N {
			n, err := iceCountRows(ctx, iceTbl)
			if err != nil {
				b.Fatal(err)
			}
			if n != benchRows {
				b.Fatalf("icesql scanned %d rows", n)
			}
		}
		reportCPU(b, cpu)
		b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("iceberg-go", func(b *testing.B) {
		cpu := processCPU()
		for range b.N {
			_, it, err := goTbl.Scan().ToArrowRecords(ctx)
			if err != nil {
				b.Fatal(err)
			}
			var n int64
			for rec, err := range it {
				if err != nil {
					b.Fatal(err)
				}
				n += rec.NumRows()
				rec.Release()
			}
			if n != benchRows {
				b.Fatalf("iceberg-go scanned %d rows", n)
			}
		}
		reportCPU(b, cpu)
		b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}

// reportCPU reports the process CPU time per operation since start.
func reportCPU(b *testing.B, start int64) {
	b.ReportMetric(float64(processCPU()-start)/1e6/float64(b.N), "cpu-ms/op")
}

// iceCountRows reads every record of the table's current snapshot,
// unfiltered and in full, and counts the rows.
func iceCountRows(ctx context.Context, t *table.Table) (int64, error) {
	var n int64
	err := iceScan(ctx, t, datafile.ReadOptions{}, func(_ scan.FileScanTask, rec arrow.RecordBatch) error {
		n += rec.NumRows()
		return nil
	})
	return n, err
}

// BenchmarkCommitLatency: benchCommits single-row append commits in a row
// by each engine on a local catalog file with fsync on (icesql's data,
// manifest and metadata files are synced; iceberg-go's local IO does not
// sync). The median per commit is reported as ms/commit-median.
func BenchmarkCommitLatency(b *testing.B) {
	e := newBenchEnv(b)
	ctx := context.Background()
	one := benchRecords(e.sc, 1)[0]
	defer one.Release()
	b.Run("icesql", func(b *testing.B) {
		var durs []time.Duration
		for range b.N {
			b.StopTimer()
			t := e.newIceTable(b)
			b.StartTimer()
			for range benchCommits {
				start := time.Now()
				var err error
				if t, err = iceAppend(ctx, t, one); err != nil {
					b.Fatal(err)
				}
				durs = append(durs, time.Since(start))
			}
		}
		reportMedian(b, durs)
	})
	b.Run("iceberg-go", func(b *testing.B) {
		var durs []time.Duration
		for range b.N {
			b.StopTimer()
			t := e.newGoTable(b)
			b.StartTimer()
			for range benchCommits {
				rdr := recordReader(b, one)
				start := time.Now()
				var err error
				if t, err = t.Append(ctx, rdr, nil); err != nil {
					b.Fatal(err)
				}
				durs = append(durs, time.Since(start))
				rdr.Release()
			}
		}
		reportMedian(b, durs)
	})
}

func reportMedian(b *testing.B, durs []time.Duration) {
	slices.Sort(durs)
	b.ReportMetric(float64(durs[len(durs)/2].Microseconds())/1000, "ms/commit-median")
	b.ReportMetric(float64(durs[len(durs)*9/10].Microseconds())/1000, "ms/commit-p90")
}

func releaseAll(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}
