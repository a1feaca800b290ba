package parquetfile

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/icesql/icesql/iceberg"
)

// INT(32, false) reads as long with its values above 2^31-1 kept (as
// Iceberg's Java ParquetSchemaUtil maps UINT32); INT(8|16, false) read as
// int; INT(64, false) reads as long, its bits as they are.
func TestUnsignedIntegers(t *testing.T) {
	as := arrow.NewSchema([]arrow.Field{
		{Name: "u8", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
		{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
		{Name: "u32", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	u32 := []uint32{0, 1, 1<<31 - 1, 1 << 31, 1<<32 - 1}
	for i, v := range u32 {
		b.Field(0).(*array.Uint8Builder).Append(uint8(250 + i))
		b.Field(1).(*array.Uint16Builder).Append(uint16(65530 + i))
		b.Field(2).(*array.Uint32Builder).Append(v)
	}
	b.Field(0).AppendNull()
	b.Field(1).AppendNull()
	b.Field(2).AppendNull()
	rec := b.NewRecordBatch()
	defer rec.Release()
	for _, dict := range []bool{false, true} {
		data := writePqarrow(t, rec, parquet.NewWriterProperties(parquet.WithDictionaryDefault(dict)), pqarrow.DefaultWriterProps())
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]int{"u8": 1, "u16": 2, "u32": 3}
		mapping := NameMapping(func(p []string) (int, bool) { id, ok := ids[p[0]]; return id, ok })
		s, err := r.Schema(mapping)
		if err != nil {
			t.Fatal(err)
		}
		want := []iceberg.Type{iceberg.IntType{}, iceberg.IntType{}, iceberg.LongType{}}
		for i, f := range s.Fields() {
			if f.Type.String() != want[i].String() {
				t.Fatalf("%s is %v, want %v", f.Name, f.Type, want[i])
			}
		}
		tbl := readAll(t, data, s, ReadOptions{NameMapping: mapping})
		got := column(t, tbl, 2).(*array.Int64)
		for i, v := range u32 {
			if got.IsNull(i) || got.Value(i) != int64(v) {
				t.Errorf("dict=%v u32[%d] = %v, want %d", dict, i, got.Value(i), v)
			}
		}
		if !got.IsNull(len(u32)) {
			t.Errorf("u32 null reads as %d", got.Value(len(u32)))
		}
		g8 := column(t, tbl, 0).(*array.Int32)
		if g8.Value(4) != 254 {
			t.Errorf("u8[4] = %d", g8.Value(4))
		}
		g16 := column(t, tbl, 1).(*array.Int32)
		if g16.Value(4) != 65534 {
			t.Errorf("u16[4] = %d", g16.Value(4))
		}
		got.Release()
		g8.Release()
		g16.Release()
		tbl.Release()
		// row-group bounds of the unsigned column are unsigned too
		rr, err := r.NewRecordReader(t.Context(), s, ReadOptions{NameMapping: mapping})
		if err != nil {
			t.Fatal(err)
		}
		st := rr.rowGroupStats(r.file.RowGroups()[0])[3]
		if st.Min != nil && (st.Min != int64(0) || st.Max != int64(1<<32-1)) {
			t.Errorf("dict=%v u32 bounds [%v, %v], want [0, %d]", dict, st.Min, st.Max, uint32(1<<32-1))
		}
		rr.Close()
	}
}
