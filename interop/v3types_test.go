package interop

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/variant"
	goiceberg "github.com/apache/iceberg-go"
	gotable "github.com/apache/iceberg-go/table"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/internal/sqltest"
)

// nanoRows are (id, ts, tz) rows whose timestamps have nanoseconds that a
// microsecond reader would lose, with nulls and a pre-1970 value.
var nanoRows = []struct {
	id     int64
	ts, tz *int64
}{
	{1, ptrTo(int64(1767225600123456789)), ptrTo(int64(1767225600000000001))},
	{2, ptrTo(int64(-1)), nil},
	{3, nil, ptrTo(int64(1767229200999999999))},
}

func ptrTo[T any](v T) *T { return &v }

func nanoText(v *int64) string {
	if v == nil {
		return "NULL"
	}
	return fmt.Sprint(*v)
}

// wantNanoRows renders nanoRows as renderNanoRecord does.
func wantNanoRows() []string {
	var out []string
	for _, r := range nanoRows {
		out = append(out, fmt.Sprintf("%d|%s|%s", r.id, nanoText(r.ts), nanoText(r.tz)))
	}
	return out
}

// renderNanoRecords prints id|ts|tz with the raw nanosecond values, and
// fails unless both timestamps are nanosecond Arrow columns (tz in UTC).
func renderNanoRecords(tb testing.TB, tbl arrow.Table) []string {
	tb.Helper()
	var out []string
	forEachRecord(tbl, func(rec arrow.RecordBatch) {
		ts, ok1 := rec.Column(1).(*array.Timestamp)
		tz, ok2 := rec.Column(2).(*array.Timestamp)
		if !ok1 || !ok2 {
			tb.Fatalf("timestamp columns are %v and %v", rec.Column(1).DataType(), rec.Column(2).DataType())
		}
		if tt := ts.DataType().(*arrow.TimestampType); tt.Unit != arrow.Nanosecond || tt.TimeZone != "" {
			tb.Fatalf("ts is %v, want timestamp[ns]", tt)
		}
		if tt := tz.DataType().(*arrow.TimestampType); tt.Unit != arrow.Nanosecond || tt.TimeZone == "" {
			tb.Fatalf("tz is %v, want timestamp[ns, UTC]", tt)
		}
		ids := rec.Column(0).(*array.Int64)
		for i := range int(rec.NumRows()) {
			cell := func(a *array.Timestamp) string {
				if a.IsNull(i) {
					return "NULL"
				}
				return fmt.Sprint(int64(a.Value(i)))
			}
			out = append(out, fmt.Sprintf("%d|%s|%s", ids.Value(i), cell(ts), cell(tz)))
		}
	})
	slices.Sort(out)
	return out
}

// TestNanoTimestampsSQLWritesIcebergGoReads: a v3 table with
// timestamp_ns and timestamptz_ns columns (partitioned by hour and bucket
// of them) written through SQL reads the same in iceberg-go, to the
// nanosecond; nanosecond filters prune files by their bounds.
func TestNanoTimestampsSQLWritesIcebergGoReads(t *testing.T) {
	dir := t.TempDir()
	db := openSQL(t, dir)
	mustExec(t, db, "CREATE NAMESPACE lake")
	mustExec(t, db, "CREATE TABLE lake.ns (id BIGINT NOT NULL, ts TIMESTAMP_NS, tz TIMESTAMPTZ_NS) "+
		"PARTITIONED BY (hours(tz), bucket(4, ts)) TBLPROPERTIES ('format-version' = '3')")
	for _, r := range nanoRows {
		var args []any
		for _, v := range []*int64{r.ts, r.tz} {
			if v == nil {
				args = append(args, nil)
			} else {
				args = append(args, nanoSQLText(*v))
			}
		}
		mustExec(t, db, "INSERT INTO lake.ns VALUES (?, CAST(? AS TIMESTAMP_NS), CAST(? AS TIMESTAMPTZ_NS))", r.id, args[0], args[1])
	}

	show := strings.Join(sqltest.QueryStrings(t, db, "SHOW CREATE TABLE lake.ns"), "\n")
	for _, want := range []string{"ts TIMESTAMP_NS", "tz TIMESTAMPTZ_NS", "hour(tz)", "'format-version' = '3'"} {
		if !strings.Contains(show, want) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, show)
		}
	}
	// a time.Time parameter keeps its nanoseconds
	param := time.Unix(0, 1767225600123456789).UTC()
	if got := sqltest.QueryStrings(t, db, "SELECT count(*) FROM lake.ns WHERE ts = ?", param); len(got) != 1 || got[0] != "1" {
		t.Fatalf("rows matching a nanosecond parameter: %v", got)
	}
	var back time.Time
	if err := db.QueryRow("SELECT ts FROM lake.ns WHERE id = 1").Scan(&back); err != nil || !back.Equal(param) {
		t.Fatalf("SELECT gives %v (%v), want %v", back, err, param)
	}
	goCat := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
	goTbl := goLoad(t, goCat, goIdent([]string{"lake"}, "ns"))
	if v := goTbl.Metadata().Version(); v != 3 {
		t.Fatalf("iceberg-go sees format version %d", v)
	}
	for name, want := range map[string]goiceberg.Type{"ts": goiceberg.TimestampNsType{}, "tz": goiceberg.TimestampTzNsType{}} {
		f, ok := goTbl.Schema().FindFieldByName(name)
		if !ok || !f.Type.Equals(want) {
			t.Fatalf("iceberg-go reads column %s as %v", name, f.Type)
		}
	}
	tbl, err := goTbl.Scan().ToArrowTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if got, want := renderNanoRecords(t, tbl), wantNanoRows(); !slices.Equal(got, want) {
		t.Fatalf("iceberg-go reads\n%v\nwant\n%v", got, want)
	}

	for _, where := range []string{
		"ts = CAST('" + nanoSQLText(1767225600123456789) + "' AS TIMESTAMP_NS)",
		"tz < '2026-01-01 00:00:00.000000002'",
	} {
		t.Run(where, func(t *testing.T) {
			plan := strings.Join(sqltest.QueryStrings(t, db, "EXPLAIN SELECT id FROM lake.ns WHERE "+where), "\n")
			if !strings.Contains(plan, "manifests 1/3") { // one manifest per INSERT
				t.Errorf("plan does not prune to one file:\n%s", plan)
			}
			if got := sqltest.QueryStrings(t, db, "SELECT id FROM lake.ns WHERE "+where); len(got) != 1 || got[0] != "1" {
				t.Errorf("rows %v, want [1]", got)
			}
		})
	}
}

// nanoSQLText is the SQL text of a nanosecond instant (UTC).
func nanoSQLText(ns int64) string {
	return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05.999999999")
}

// goV3Table has iceberg-go create the format v3 table lake.<name> in a
// catalog file in dir: a required long id (field 1), then fields (ids 2..).
func goV3Table(t *testing.T, dir, name string, fields ...iceberg.NestedField) (*gotable.Table, *iceberg.Schema) {
	t.Helper()
	all := []iceberg.NestedField{{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true}}
	for i, f := range fields {
		f.ID = i + 2
		all = append(all, f)
	}
	schema := iceberg.MustSchema(0, all...)
	goCat := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
	return goCreateTable(t, goCat, dir, goIdent([]string{"lake"}, name), goSchema(t, schema), nil, goiceberg.Properties{"format-version": "3"}), schema
}

// TestNanoTimestampsIcebergGoWritesSQLReads: iceberg-go creates and
// appends to a v3 table with nanosecond timestamps; SELECT returns them
// to the nanosecond.
func TestNanoTimestampsIcebergGoWritesSQLReads(t *testing.T) {
	dir := t.TempDir()
	goTbl, schema := goV3Table(t, dir, "ns", iceberg.NestedField{Name: "ts", Type: iceberg.TimestampNsType{}},
		iceberg.NestedField{Name: "tz", Type: iceberg.TimestampTzNsType{}})
	sc := arrowOf(t, schema)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	for _, r := range nanoRows {
		b.Field(0).(*array.Int64Builder).Append(r.id)
		for i, v := range []*int64{r.ts, r.tz} {
			tb := b.Field(1 + i).(*array.TimestampBuilder)
			if v == nil {
				tb.AppendNull()
			} else {
				tb.Append(arrow.Timestamp(*v))
			}
		}
	}
	rec := b.NewRecordBatch()
	b.Release()
	goAppend(t, goTbl, rec)
	rec.Release()

	db := openSQL(t, dir)
	got := sqltest.QueryStrings(t, db, "SELECT concat_ws('|', CAST(id AS STRING), coalesce(CAST(ts AS STRING), 'NULL'), coalesce(CAST(tz AS STRING), 'NULL')) FROM lake.ns ORDER BY id")
	want := []string{
		"1|2026-01-01 00:00:00.123456789|2026-01-01 00:00:00.000000001",
		"2|1969-12-31 23:59:59.999999999|NULL",
		"3|NULL|2026-01-01 01:00:00.999999999",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("SQL reads\n%v\nwant\n%v", got, want)
	}
}

// TestUnknownColumnInterop: a v3 table with an unknown column written
// through SQL reads in iceberg-go with the column all null, and the data
// files hold no such column.
func TestUnknownColumnInterop(t *testing.T) {
	dir := t.TempDir()
	db := openSQL(t, dir)
	mustExec(t, db, "CREATE NAMESPACE lake")
	mustExec(t, db, "CREATE TABLE lake.u (id BIGINT NOT NULL, nothing UNKNOWN) TBLPROPERTIES ('format-version' = '3')")
	mustExec(t, db, "INSERT INTO lake.u VALUES (1, NULL), (2, NULL)")

	goCat := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
	goTbl := goLoad(t, goCat, goIdent([]string{"lake"}, "u"))
	f, ok := goTbl.Schema().FindFieldByName("nothing")
	if !ok || !f.Type.Equals(goiceberg.UnknownType{}) {
		t.Fatalf("iceberg-go reads the column as %v", f.Type)
	}
	tbl, err := goTbl.Scan().ToArrowTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if tbl.NumRows() != 2 {
		t.Fatalf("iceberg-go reads %d rows", tbl.NumRows())
	}
	for _, chunk := range tbl.Column(1).Data().Chunks() {
		if chunk.NullN() != chunk.Len() {
			t.Fatalf("iceberg-go reads non-null unknown values: %v", chunk)
		}
	}
	for _, path := range sqltest.QueryStrings(t, db, "SELECT file_path FROM lake.u.files") {
		if cols := parquetColumnNames(t, path); !slices.Equal(cols, []string{"id"}) {
			t.Fatalf("data file %s stores columns %v", path, cols)
		}
	}
}

// parquetColumnNames lists the top-level columns of a Parquet data file.
func parquetColumnNames(tb testing.TB, location string) []string {
	tb.Helper()
	path, err := fileio.LocalPath(location)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	root := r.MetaData().Schema.Root()
	var out []string
	for i := range root.NumFields() {
		out = append(out, root.Field(i).Name())
	}
	return out
}

// TestUnknownColumnIcebergGoWrites: iceberg-go's table with an unknown
// column reads through SQL as nulls.
func TestUnknownColumnIcebergGoWrites(t *testing.T) {
	dir := t.TempDir()
	goTbl, schema := goV3Table(t, dir, "u", iceberg.NestedField{Name: "nothing", Type: iceberg.UnknownType{}})
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrowOf(t, schema))
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 3}, nil)
	b.Field(1).AppendNulls(3)
	rec := b.NewRecordBatch()
	b.Release()
	goAppend(t, goTbl, rec)
	rec.Release()

	db := openSQL(t, dir)
	got := sqltest.QueryStrings(t, db, "SELECT concat_ws('|', CAST(id AS STRING), coalesce(CAST(nothing AS STRING), 'NULL')) FROM lake.u ORDER BY id")
	if want := []string{"1|NULL", "2|NULL", "3|NULL"}; !slices.Equal(got, want) {
		t.Fatalf("SQL reads %v, want %v", got, want)
	}
}

// TestVariantInterop: a v3 table with a variant column written through
// SQL reads in iceberg-go as the same variant values, and iceberg-go's
// variant table reads through SQL.
func TestVariantInterop(t *testing.T) {
	docs := map[int64]string{1: `{"a":1,"b":["x",null]}`, 2: `null`, 3: "", 4: `"text"`}
	t.Run("SQL writes, iceberg-go reads", func(t *testing.T) {
		dir := t.TempDir()
		db := openSQL(t, dir)
		mustExec(t, db, "CREATE NAMESPACE lake")
		mustExec(t, db, "CREATE TABLE lake.ev (id BIGINT NOT NULL, v VARIANT) TBLPROPERTIES ('format-version' = '3')")
		for id, doc := range docs {
			if doc == "" {
				mustExec(t, db, "INSERT INTO lake.ev VALUES (?, NULL)", id)
			} else {
				mustExec(t, db, "INSERT INTO lake.ev VALUES (?, parse_json(?))", id, doc)
			}
		}
		goCat := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
		goTbl := goLoad(t, goCat, goIdent([]string{"lake"}, "ev"))
		if f, ok := goTbl.Schema().FindFieldByName("v"); !ok || !f.Type.Equals(goiceberg.VariantType{}) {
			t.Fatalf("iceberg-go reads the column as %v", f.Type)
		}
		tbl, err := goTbl.Scan().ToArrowTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer tbl.Release()
		got := map[int64]string{}
		forEachRecord(tbl, func(rec arrow.RecordBatch) {
			ids := rec.Column(0).(*array.Int64)
			va, ok := rec.Column(1).(*extensions.VariantArray)
			if !ok {
				t.Fatalf("iceberg-go reads v as %v", rec.Column(1).DataType())
			}
			for i := range int(rec.NumRows()) {
				if va.Storage().IsNull(i) {
					got[ids.Value(i)] = ""
					continue
				}
				v, err := va.Value(i)
				if err != nil {
					t.Fatal(err)
				}
				text, _ := v.MarshalJSON()
				got[ids.Value(i)] = string(text)
			}
		})
		if fmt.Sprint(got) != fmt.Sprint(docs) {
			t.Fatalf("iceberg-go reads %v, want %v", got, docs)
		}
	})
	t.Run("iceberg-go writes, SQL reads", func(t *testing.T) {
		dir := t.TempDir()
		goTbl, schema := goV3Table(t, dir, "ev", iceberg.NestedField{Name: "v", Type: iceberg.VariantType{}})
		b := array.NewRecordBuilder(memory.DefaultAllocator, arrowOf(t, schema))
		for id := int64(1); id <= 4; id++ {
			b.Field(0).(*array.Int64Builder).Append(id)
			vb := b.Field(1).(*extensions.VariantBuilder)
			if docs[id] == "" {
				vb.AppendNull()
				continue
			}
			v, err := variant.ParseJSON(docs[id], false)
			if err != nil {
				t.Fatal(err)
			}
			vb.Append(v)
		}
		rec := b.NewRecordBatch()
		b.Release()
		goAppend(t, goTbl, rec)
		rec.Release()
		db := openSQL(t, dir)
		got := sqltest.QueryStrings(t, db, "SELECT concat_ws('|', CAST(id AS STRING), coalesce(to_json(v), 'NULL')) FROM lake.ev ORDER BY id")
		want := []string{"1|" + docs[1], "2|null", "3|NULL", `4|"text"`}
		if !slices.Equal(got, want) {
			t.Fatalf("SQL reads %v, want %v", got, want)
		}
	})
}
