package parquetfile

import (
	"bytes"
	"encoding/base64"
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

var geoWKT = []string{"POINT (1 2)", "", "LINESTRING (-3 5, 10 -7)", "MULTIPOLYGON (((0 0, 1 0, 0 40, 0 0)))", "GEOMETRYCOLLECTION (POINT Z (4 4 4))"}

func geoSchema() *iceberg.Schema {
	return iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
		iceberg.NestedField{ID: 2, Name: "g", Type: iceberg.GeometryType{CRS: "srid:3857"}},
		iceberg.NestedField{ID: 3, Name: "h", Type: iceberg.GeographyType{}},
	)
}

// geoRecord holds id, g and h with the same WKB per row ("" is null).
func geoRecord(t *testing.T, s *iceberg.Schema, wkt []string) (arrow.RecordBatch, [][]byte) {
	t.Helper()
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	var wkbs [][]byte
	for i, w := range wkt {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if w == "" {
			b.Field(1).AppendNull()
			b.Field(2).AppendNull()
			wkbs = append(wkbs, nil)
			continue
		}
		g, err := iceberg.ParseWKT(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []int{1, 2} {
			if err := arrowschema.AppendValue(b.Field(f), g.WKB()); err != nil {
				t.Fatal(err)
			}
		}
		wkbs = append(wkbs, g.WKB())
	}
	return b.NewRecordBatch(), wkbs
}

func TestGeoRoundTrip(t *testing.T) {
	s := geoSchema()
	rec, wkbs := geoRecord(t, s, geoWKT)
	defer rec.Release()
	data, m := writeFile(t, s, WriterOptions{}, rec)
	if m.ValueCounts[2] != 5 || m.NullValueCounts[2] != 1 || m.ValueCounts[3] != 5 || m.NullValueCounts[3] != 1 {
		t.Fatalf("counts %v %v", m.ValueCounts, m.NullValueCounts)
	}
	lo, err1 := iceberg.DeserializeValue(iceberg.GeometryType{}, m.LowerBounds[2])
	hi, err2 := iceberg.DeserializeValue(iceberg.GeometryType{}, m.UpperBounds[2])
	if err1 != nil || err2 != nil || lo != (iceberg.GeoPoint{X: -3, Y: -7}) || hi != (iceberg.GeoPoint{X: 10, Y: 40}) {
		t.Fatalf("geometry bounds %v %v (%v %v)", lo, hi, err1, err2)
	}
	if _, ok := m.LowerBounds[3]; ok {
		t.Fatal("geography column has bounds")
	}
	if _, nb := writeFile(t, s, WriterOptions{TruncateLength: -1}, rec); len(nb.LowerBounds) != 0 || len(nb.UpperBounds) != 0 {
		t.Fatalf("bounds without a bounds metrics mode: %v", nb.LowerBounds)
	}
	if _, tb := writeFile(t, s, WriterOptions{TruncateLength: 1}, rec); !bytes.Equal(tb.LowerBounds[2], m.LowerBounds[2]) {
		t.Fatal("a geometry bound was truncated")
	}
	check := func(t *testing.T, tbl arrow.Table, wantGeoType bool) {
		t.Helper()
		for _, col := range []int{1, 2} {
			got := column(t, tbl, col)
			defer got.Release()
			if wantGeoType {
				if gt, ok := got.DataType().(*arrowschema.GeoType); !ok || gt.Iceberg != s.Fields()[col].Type {
					t.Fatalf("column %d read as %v", col, got.DataType())
				}
			}
			bin := arrowschema.Storage(got).(*array.Binary)
			for i, w := range wkbs {
				if bin.IsNull(i) != (w == nil) || !bytes.Equal(bin.Value(i), w) {
					t.Fatalf("column %d row %d: %x, want %x", col, i, bin.Value(i), w)
				}
			}
		}
	}
	t.Run("reader", func(t *testing.T) {
		tbl := readAll(t, data, s, ReadOptions{})
		defer tbl.Release()
		check(t, tbl, true)
	})
	t.Run("pqarrow", func(t *testing.T) {
		tbl := readWithPqarrow(t, data)
		defer tbl.Release()
		check(t, tbl, false)
	})
	t.Run("file schema", func(t *testing.T) {
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		fs, err := r.Schema(nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range s.Fields()[1:] {
			if got, ok := fs.FindFieldByID(f.ID); !ok || got.Type != f.Type {
				t.Fatalf("file field %d = %+v, want %v", f.ID, got, f.Type)
			}
		}
	})
}

// Z enters the bounds only when every geometry has it; m after a NaN z.
func TestGeoBoundsDimensions(t *testing.T) {
	s := iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
		iceberg.NestedField{ID: 2, Name: "g", Type: iceberg.GeometryType{}},
		iceberg.NestedField{ID: 3, Name: "h", Type: iceberg.GeometryType{}},
	)
	as, _ := arrowschema.ToArrow(s)
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	for i, pair := range [][2]string{{"POINT Z (1 2 3)", "POINT M (1 2 7)"}, {"POINT Z (5 6 -1)", "POINT M (0 0 9)"}} {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		for f, w := range pair {
			g, _ := iceberg.ParseWKT(w)
			_ = arrowschema.AppendValue(b.Field(f+1), g.WKB())
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	_, m := writeFile(t, s, WriterOptions{}, rec)
	if len(m.LowerBounds[2]) != 24 || len(m.UpperBounds[3]) != 32 {
		t.Fatalf("bound sizes %d %d", len(m.LowerBounds[2]), len(m.UpperBounds[3]))
	}
	hi, _ := iceberg.DeserializeValue(iceberg.GeometryType{}, m.UpperBounds[3])
	if p := hi.(iceberg.GeoPoint); p.HasZ || !p.HasM || p.M != 9 || math.IsNaN(p.X) {
		t.Fatalf("x:y:m upper bound %+v", p)
	}
}

// Malformed WKB in a geometry column fails the write naming the column.
func TestGeoMalformedWKB(t *testing.T) {
	s := iceberg.MustSchema(0, iceberg.NestedField{ID: 2, Name: "g", Type: iceberg.GeometryType{}})
	as, _ := arrowschema.ToArrow(s)
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	_ = arrowschema.AppendValue(b.Field(0), []byte{1, 1, 0, 0})
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	err = w.Write(rec)
	if err == nil {
		_, err = w.Close()
	}
	if !errors.Is(err, iceberg.ErrInvalidGeometry) {
		t.Fatalf("got %v, want ErrInvalidGeometry", err)
	}
}

// Files with geospatial columns store their Arrow schema, whose
// geoarrow.wkb fields let Arrow readers (iceberg-go) type them; other files
// do not.
func TestGeoArrowSchemaStored(t *testing.T) {
	stored := func(t *testing.T, data []byte) string {
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer pf.Close()
		if v := pf.MetaData().KeyValueMetadata().FindValue(arrowSchemaKey); v != nil {
			return *v
		}
		return ""
	}
	s := geoSchema()
	rec, _ := geoRecord(t, s, geoWKT)
	defer rec.Release()
	data, _ := writeFile(t, s, WriterOptions{}, rec)
	enc := stored(t, data)
	raw, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		t.Fatal(err)
	}
	as, err := flight.DeserializeSchema(raw, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	md := as.Field(1).Metadata
	if i := md.FindKey("ARROW:extension:name"); i < 0 || md.Values()[i] != "geoarrow.wkb" {
		t.Fatalf("stored field g: %v", as.Field(1))
	}
	if i := md.FindKey("ARROW:extension:metadata"); i < 0 || md.Values()[i] != `{"crs":"srid:3857"}` {
		t.Fatalf("stored field g metadata: %v", md)
	}
	if md := as.Field(2).Metadata; md.Values()[md.FindKey("ARROW:extension:metadata")] != `{"crs":"OGC:CRS84","edges":"spherical"}` {
		t.Fatalf("stored field h metadata: %v", md)
	}

	plain := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true})
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrowOfSchema(t, plain))
	defer b.Release()
	b.Field(0).(*array.Int64Builder).Append(1)
	prec := b.NewRecordBatch()
	defer prec.Release()
	if data, _ := writeFile(t, plain, WriterOptions{}, prec); stored(t, data) != "" {
		t.Fatal("a file without geo columns stores its Arrow schema")
	}
}

func arrowOfSchema(t *testing.T, s *iceberg.Schema) *arrow.Schema {
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	return as
}
