package interop

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	goiceberg "github.com/apache/iceberg-go"
	gotable "github.com/apache/iceberg-go/table"
	"github.com/geoarrow/geoarrow-go"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/sqltest"
)

// geoRowsWKT are the rows of the geo interop tables ("" is NULL).
var geoRowsWKT = map[int64]string{
	1: "POINT (1 2)",
	2: "LINESTRING (-3 5, 10 -7)",
	3: "",
	4: "MULTIPOLYGON (((0 0, 1 0, 0 40, 0 0)))",
	5: "GEOMETRYCOLLECTION (POINT (4 4), LINESTRING (0 0, 1 1))",
}

func geoWKB(tb testing.TB, wkt string) []byte {
	tb.Helper()
	g, err := iceberg.ParseWKT(wkt)
	if err != nil {
		tb.Fatal(err)
	}
	return g.WKB()
}

// geoColumnWKB collects id -> WKB (nil for NULL) of an iceberg-go scan,
// whose geo columns must be geoarrow.wkb.
func geoColumnWKB(tb testing.TB, tbl arrow.Table, col int) map[int64][]byte {
	tb.Helper()
	got := map[int64][]byte{}
	forEachRecord(tbl, func(rec arrow.RecordBatch) {
		ids := rec.Column(0).(*array.Int64)
		ext, ok := rec.Column(col).(array.ExtensionArray)
		if !ok || ext.ExtensionType().ExtensionName() != "geoarrow.wkb" {
			tb.Fatalf("iceberg-go reads column %d as %v", col, rec.Column(col).DataType())
		}
		bin := ext.Storage().(*array.Binary)
		for i := range int(rec.NumRows()) {
			if bin.IsNull(i) {
				got[ids.Value(i)] = nil
				continue
			}
			got[ids.Value(i)] = bytes.Clone(bin.Value(i))
		}
	})
	return got
}

func TestGeoInterop(t *testing.T) {
	t.Run("SQL writes, iceberg-go reads", func(t *testing.T) {
		dir := t.TempDir()
		db := openSQL(t, dir)
		mustExec(t, db, "CREATE NAMESPACE lake")
		mustExec(t, db, "CREATE TABLE lake.geo (id BIGINT NOT NULL, g GEOMETRY, h GEOGRAPHY, m GEOMETRY('srid:3857')) TBLPROPERTIES ('format-version' = '3')")
		for id, wkt := range geoRowsWKT {
			if wkt == "" {
				mustExec(t, db, "INSERT INTO lake.geo VALUES (?, NULL, NULL, NULL)", id)
				continue
			}
			mustExec(t, db, "INSERT INTO lake.geo VALUES (?, ST_GeomFromText(?), ST_GeogFromText(?), ST_GeomFromText(?, 'srid:3857'))", id, wkt, wkt, wkt)
		}
		goCat := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
		goTbl := goLoad(t, goCat, goIdent([]string{"lake"}, "geo"))
		wantTypes := map[string]goiceberg.Type{"g": goiceberg.GeometryType{}, "h": goiceberg.GeographyType{}}
		if m, err := goiceberg.GeometryTypeOf("srid:3857"); err == nil {
			wantTypes["m"] = m
		}
		for name, want := range wantTypes {
			if f, ok := goTbl.Schema().FindFieldByName(name); !ok || !f.Type.Equals(want) {
				t.Fatalf("iceberg-go reads column %s as %v, want %v", name, f.Type, want)
			}
		}
		tbl, err := goTbl.Scan().ToArrowTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer tbl.Release()
		for col := 1; col <= 3; col++ {
			got := geoColumnWKB(t, tbl, col)
			for id, wkt := range geoRowsWKT {
				var want []byte
				if wkt != "" {
					want = geoWKB(t, wkt)
				}
				if !bytes.Equal(got[id], want) {
					t.Fatalf("column %d row %d: iceberg-go reads %x, want %x", col, id, got[id], want)
				}
			}
		}
		// the data files' bounds are the geometry's bounding box, and the
		// manifests carry them where iceberg-go finds them
		checkGoGeoBounds(t, goTbl)
	})
	t.Run("iceberg-go writes, SQL reads", func(t *testing.T) {
		dir := t.TempDir()
		goTbl, _ := goV3Table(t, dir, "geo", iceberg.NestedField{Name: "g", Type: iceberg.GeometryType{}},
			iceberg.NestedField{Name: "h", Type: iceberg.GeographyType{}})
		sc, err := gotable.SchemaToArrowSchema(goTbl.Schema(), nil, true, false)
		if err != nil {
			t.Fatal(err)
		}
		b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		for id := int64(1); id <= int64(len(geoRowsWKT)); id++ {
			b.Field(0).(*array.Int64Builder).Append(id)
			for f := 1; f <= 2; f++ {
				fb, ok := b.Field(f).(interface {
					AppendNull()
					Append(geoarrow.WKBBytes)
				})
				if !ok {
					t.Fatalf("iceberg-go's Arrow type for column %d builds with %T", f, b.Field(f))
				}
				if geoRowsWKT[id] == "" {
					fb.AppendNull()
					continue
				}
				fb.Append(geoWKB(t, geoRowsWKT[id]))
			}
		}
		rec := b.NewRecordBatch()
		b.Release()
		goAppend(t, goTbl, rec)
		rec.Release()
		db := openSQL(t, dir)
		got := sqltest.QueryStrings(t, db, "SELECT concat_ws('|', CAST(id AS STRING), coalesce(ST_AsText(g), 'NULL'), coalesce(ST_AsText(h), 'NULL')) FROM lake.geo ORDER BY id")
		var want []string
		for id := int64(1); id <= int64(len(geoRowsWKT)); id++ {
			w := geoRowsWKT[id]
			if w == "" {
				w = "NULL"
			}
			want = append(want, strconv.FormatInt(id, 10)+"|"+w+"|"+w)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("SQL reads %v, want %v", got, want)
		}
		got = sqltest.QueryStrings(t, db, "SELECT concat_ws('|', CAST(ST_X(g) AS STRING), CAST(ST_Y(g) AS STRING)) FROM lake.geo WHERE id = 1")
		if !slices.Equal(got, []string{"1.0|2.0"}) && !slices.Equal(got, []string{"1|2"}) {
			t.Fatalf("ST_X, ST_Y = %v", got)
		}
	})
}

// checkGoGeoBounds reads the geometry bounds iceberg-go sees in the
// manifests: x in [-3, 10], y in [-7, 40] for g, none for geography h.
func checkGoGeoBounds(t *testing.T, goTbl *gotable.Table) {
	t.Helper()
	tasks, err := goTbl.Scan().PlanFiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, task := range tasks {
		df := task.File
		if _, ok := df.LowerBoundValues()[3]; ok {
			t.Fatal("geography column has bounds")
		}
		l, okl := df.LowerBoundValues()[2]
		u, oku := df.UpperBoundValues()[2]
		if !okl || !oku {
			continue // a file of nulls only
		}
		if len(l) != 16 || len(u) != 16 {
			t.Fatalf("bounds of %d and %d bytes, want x:y points of 16", len(l), len(u))
		}
		for d := 0; d < 2; d++ {
			lo[d] = math.Min(lo[d], math.Float64frombits(binary.LittleEndian.Uint64(l[8*d:])))
			hi[d] = math.Max(hi[d], math.Float64frombits(binary.LittleEndian.Uint64(u[8*d:])))
		}
	}
	if lo != [2]float64{-3, -7} || hi != [2]float64{10, 40} {
		t.Fatalf("geometry bounds %v..%v, want [-3 -7]..[10 40]", lo, hi)
	}
}
