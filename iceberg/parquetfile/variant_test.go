package parquetfile

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/variant"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

var variantDocs = []string{`{"a": 1, "b": [true, null, "x"]}`, "", `3.5`, `"text"`, `null`}

// variantRecord has id and an optional variant column; "" is a SQL null.
func variantRecord(t *testing.T, s *iceberg.Schema) arrow.RecordBatch {
	t.Helper()
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	for i, doc := range variantDocs {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		vb := b.Field(1).(*extensions.VariantBuilder)
		if doc == "" {
			vb.AppendNull()
			continue
		}
		v, err := variant.ParseJSON(doc, false)
		if err != nil {
			t.Fatal(err)
		}
		vb.Append(v)
	}
	return b.NewRecordBatch()
}

func variantSchema() *iceberg.Schema {
	return iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
		iceberg.NestedField{ID: 2, Name: "v", Type: iceberg.VariantType{}},
	)
}

// Variants are written unshredded under the VARIANT annotation with no
// metrics, and read back (here and by pqarrow) as the same values.
func TestVariantRoundTrip(t *testing.T) {
	s := variantSchema()
	rec := variantRecord(t, s)
	defer rec.Release()
	data, m := writeFile(t, s, WriterOptions{}, rec)
	for id := range m.ValueCounts {
		if id != 1 {
			t.Fatalf("metrics for column %d: %v", id, m.ValueCounts)
		}
	}
	if len(m.LowerBounds) != 1 {
		t.Fatalf("bounds %v", m.LowerBounds)
	}
	check := func(t *testing.T, got arrow.Array) {
		t.Helper()
		va, ok := got.(*extensions.VariantArray)
		if !ok {
			t.Fatalf("read as %T (%v)", got, got.DataType())
		}
		want := rec.Column(1).(*extensions.VariantArray)
		for i := range variantDocs {
			// SQL nulls only: a variant null is a value
			gotNull, wantNull := va.Storage().IsNull(i), want.Storage().IsNull(i)
			if gotNull != wantNull || wantNull != (variantDocs[i] == "") {
				t.Fatalf("row %d SQL null %v, want %v", i, gotNull, wantNull)
			}
			if gotNull {
				continue
			}
			g, err1 := va.Value(i)
			w, err2 := want.Value(i)
			if err1 != nil || err2 != nil || g.String() != w.String() {
				t.Fatalf("row %d: %v (%v), want %v (%v)", i, g, err1, w, err2)
			}
		}
	}
	t.Run("reader", func(t *testing.T) {
		tbl := readAll(t, data, s, ReadOptions{})
		defer tbl.Release()
		got := column(t, tbl, 1)
		defer got.Release()
		check(t, got)
	})
	t.Run("pqarrow", func(t *testing.T) {
		tbl := readWithPqarrow(t, data)
		defer tbl.Release()
		got := column(t, tbl, 1)
		defer got.Release()
		check(t, got)
	})
	t.Run("annotated", func(t *testing.T) {
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		c := r.file.Root().Columns()[1]
		if !isVariantColumn(c) || len(c.Columns()) != 2 || c.Columns()[0].ID() != 0 || c.Columns()[1].ID() != 0 {
			t.Fatalf("column %q is not an unshredded VARIANT group without child ids", c.Name())
		}
		// The file's schema (what add_files and name mapping see) has
		// the variant as one field, not a struct of its encoding.
		fs, err := r.Schema(nil)
		if err != nil {
			t.Fatal(err)
		}
		if f, ok := fs.FindFieldByID(2); !ok || f.Type != (iceberg.VariantType{}) {
			t.Fatalf("file schema field 2 = %+v, want a variant", f)
		}
	})
}

func TestVariantShreddedWriteRefused(t *testing.T) {
	st := arrow.StructOf(arrow.Field{Name: "metadata", Type: arrow.BinaryTypes.Binary},
		arrow.Field{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true},
		arrow.Field{Name: "typed_value", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	a := array.MakeArrayOfNull(memory.DefaultAllocator, st, 1)
	defer a.Release()
	if _, _, err := variantParts(a); !errors.Is(err, iceberg.ErrUnsupported) {
		t.Fatalf("got %v", err)
	}
}

// Variants nested in a list and a struct round trip.
func TestNestedVariantRoundTrip(t *testing.T) {
	s := iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "l", Type: &iceberg.ListType{ElementID: 2, Element: iceberg.VariantType{}}},
		iceberg.NestedField{ID: 3, Name: "s", Type: &iceberg.StructType{FieldList: []iceberg.NestedField{
			{ID: 4, Name: "v", Type: iceberg.VariantType{}}}}},
	)
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	parse := func(doc string) variant.Value {
		v, err := variant.ParseJSON(doc, false)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	lb := b.Field(0).(*array.ListBuilder)
	lb.Append(true)
	lb.ValueBuilder().(*extensions.VariantBuilder).Append(parse(`{"k":1}`))
	lb.ValueBuilder().(*extensions.VariantBuilder).AppendNull()
	lb.AppendNull()
	sb := b.Field(1).(*array.StructBuilder)
	sb.Append(true)
	sb.FieldBuilder(0).(*extensions.VariantBuilder).Append(parse(`[1,"x"]`))
	sb.Append(true)
	sb.FieldBuilder(0).(*extensions.VariantBuilder).Append(parse(`null`))
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()
	data, _ := writeFile(t, s, WriterOptions{}, rec)
	tbl := readAll(t, data, s, ReadOptions{})
	defer tbl.Release()
	for i := range s.Fields() {
		got := column(t, tbl, i)
		defer got.Release()
		sameValues(t, s.Fields()[i].Name, rec.Column(i), got)
	}
}
