package parquetfile

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

func unknownSchema() *iceberg.Schema {
	return iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
		iceberg.NestedField{ID: 2, Name: "u", Type: iceberg.UnknownType{}},
		iceberg.NestedField{ID: 3, Name: "s", Type: &iceberg.StructType{FieldList: []iceberg.NestedField{
			{ID: 4, Name: "a", Type: iceberg.IntType{}},
			{ID: 5, Name: "v", Type: iceberg.UnknownType{}},
		}}},
	)
}

// Unknown columns are not stored in the file and read back as nulls.
func TestUnknownColumnsOmitted(t *testing.T) {
	s := unknownSchema()
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	for i := range 3 {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).AppendNull()
		sb := b.Field(2).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Int32Builder).Append(int32(10 * i))
		sb.FieldBuilder(1).AppendNull()
	}
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()
	data, m := writeFile(t, s, WriterOptions{}, rec)
	for _, id := range []int{2, 5} {
		if _, ok := m.ValueCounts[id]; ok {
			t.Errorf("metrics for unknown column %d", id)
		}
	}
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	fileSchema, err := r.Schema(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int{2, 5} {
		if _, ok := fileSchema.FindFieldByID(id); ok {
			t.Fatalf("file stores unknown column %d: %v", id, fileSchema)
		}
	}
	tbl := readAll(t, data, s, ReadOptions{})
	defer tbl.Release()
	for i := range s.Fields() {
		got := column(t, tbl, i)
		defer got.Release()
		if !array.Equal(got, rec.Column(i)) {
			t.Fatalf("column %d: %v, want %v", i, got, rec.Column(i))
		}
	}
}

// A file column whose id the table now types unknown is ignored (spec:
// "any corresponding column must be ignored and replaced with null").
func TestUnknownIgnoresFileColumn(t *testing.T) {
	written := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.LongType{}})
	as, _ := arrowschema.ToArrow(written)
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()
	data, _ := writeFile(t, written, WriterOptions{}, rec)
	read := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.UnknownType{}})
	tbl := readAll(t, data, read, ReadOptions{})
	defer tbl.Release()
	got := column(t, tbl, 0)
	defer got.Release()
	if got.DataType().ID() != arrow.NULL || got.Len() != 2 || got.NullN() != 2 {
		t.Fatalf("got %v", got)
	}
}

func TestUnknownInListRefused(t *testing.T) {
	s := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "l", Type: &iceberg.ListType{ElementID: 2, Element: iceberg.UnknownType{}}})
	var buf bytes.Buffer
	if _, err := NewWriter(&buf, s, WriterOptions{}); !errors.Is(err, iceberg.ErrUnsupported) {
		t.Fatalf("got %v", err)
	}
}

// A struct missing from the file whose fields include an unknown one
// reads as null structs.
func TestMissingStructWithUnknownField(t *testing.T) {
	written := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.LongType{}})
	as, _ := arrowschema.ToArrow(written)
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()
	data, _ := writeFile(t, written, WriterOptions{}, rec)
	read := iceberg.MustSchema(0, iceberg.NestedField{ID: 2, Name: "s", Type: &iceberg.StructType{FieldList: []iceberg.NestedField{
		{ID: 3, Name: "a", Type: iceberg.IntType{}}, {ID: 4, Name: "u", Type: iceberg.UnknownType{}}}}})
	tbl := readAll(t, data, read, ReadOptions{})
	defer tbl.Release()
	got := column(t, tbl, 0)
	defer got.Release()
	if got.Len() != 2 || got.NullN() != 2 {
		t.Fatalf("got %v", got)
	}
}

// Parquet's UNKNOWN (NULL) logical type is Iceberg's unknown, and a
// struct whose only leaf is such a column still reads its own nulls from
// that leaf's levels (the values are never read).
func TestParquetNullTypeIsUnknown(t *testing.T) {
	st := arrow.StructOf(arrow.Field{Name: "c", Type: arrow.Null, Nullable: true})
	as := arrow.NewSchema([]arrow.Field{{Name: "s", Type: st, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	sb := b.Field(0).(*array.StructBuilder)
	for _, valid := range []bool{true, false, true} {
		sb.Append(valid)
		sb.FieldBuilder(0).AppendNull()
	}
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()
	data := writePqarrow(t, rec, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	mapping := func(path []string) (int, bool) { return len(path), true }
	s, err := r.Schema(mapping)
	if err != nil {
		t.Fatal(err)
	}
	inner := s.Fields()[0].Type.(*iceberg.StructType).FieldList[0]
	if _, ok := inner.Type.(iceberg.UnknownType); !ok {
		t.Fatalf("s.c is %v, want unknown", inner.Type)
	}
	tbl := readAll(t, data, s, ReadOptions{NameMapping: mapping})
	defer tbl.Release()
	got := column(t, tbl, 0)
	defer got.Release()
	if got.Len() != 3 || !got.IsValid(0) || got.IsValid(1) || !got.IsValid(2) {
		t.Fatalf("got %v, want [{null} null {null}]", got)
	}
}
