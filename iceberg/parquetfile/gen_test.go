package parquetfile

import (
	"math"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

func opt(id int, name string, t iceberg.Type) iceberg.NestedField {
	return iceberg.NestedField{ID: id, Name: name, Type: t}
}

func req(id int, name string, t iceberg.Type) iceberg.NestedField {
	return iceberg.NestedField{ID: id, Name: name, Type: t, Required: true}
}

// allTypesSchema has every primitive type and nested types with optional
// and required parts at every level. Names are deliberately not sorted.
func allTypesSchema() *iceberg.Schema {
	return iceberg.MustSchema(1,
		req(1, "z_long", iceberg.LongType{}),
		opt(2, "bool", iceberg.BooleanType{}),
		opt(3, "int", iceberg.IntType{}),
		opt(4, "float", iceberg.FloatType{}),
		opt(5, "double", iceberg.DoubleType{}),
		opt(6, "dec9", iceberg.DecimalType{Precision: 9, Scale: 2}),
		opt(7, "dec18", iceberg.DecimalType{Precision: 18, Scale: 4}),
		opt(8, "dec38", iceberg.DecimalType{Precision: 38, Scale: 10}),
		opt(9, "date", iceberg.DateType{}),
		opt(10, "time", iceberg.TimeType{}),
		opt(11, "ts", iceberg.TimestampType{}),
		opt(12, "tstz", iceberg.TimestampTzType{}),
		opt(13, "str", iceberg.StringType{}),
		opt(14, "uuid", iceberg.UUIDType{}),
		opt(15, "fixed", iceberg.FixedType{Length: 3}),
		opt(16, "bin", iceberg.BinaryType{}),
		opt(17, "a_struct", &iceberg.StructType{FieldList: []iceberg.NestedField{
			req(18, "x", iceberg.IntType{}),
			opt(19, "y", iceberg.StringType{}),
			opt(20, "inner", &iceberg.StructType{FieldList: []iceberg.NestedField{opt(21, "d", iceberg.DoubleType{})}}),
		}}),
		opt(22, "list_opt", &iceberg.ListType{ElementID: 23, Element: iceberg.LongType{}}),
		req(24, "list_req", &iceberg.ListType{ElementID: 25, Element: iceberg.StringType{}, ElementRequired: true}),
		opt(26, "map", &iceberg.MapType{KeyID: 27, Key: iceberg.StringType{}, ValueID: 28, Value: iceberg.IntType{}}),
		opt(29, "list_of_structs", &iceberg.ListType{ElementID: 30, Element: &iceberg.StructType{FieldList: []iceberg.NestedField{
			opt(31, "a", iceberg.LongType{}),
			opt(32, "b", &iceberg.ListType{ElementID: 33, Element: iceberg.IntType{}}),
		}}}),
		opt(34, "map_of_lists", &iceberg.MapType{KeyID: 35, Key: iceberg.IntType{}, ValueID: 36,
			Value: &iceberg.ListType{ElementID: 37, Element: iceberg.DecimalType{Precision: 20, Scale: 2}}}),
	)
}

// randomRecord builds n rows of random data with nulls wherever the schema
// allows them.
func randomRecord(s *iceberg.Schema, n int, seed uint64) arrow.RecordBatch {
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		panic(err)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	for i, f := range as.Fields() {
		for range n {
			fill(b.Field(i), f.Type, f.Nullable, r)
		}
	}
	return b.NewRecordBatch()
}

func fill(b array.Builder, t arrow.DataType, nullable bool, r *rand.Rand) {
	if nullable && r.IntN(5) == 0 {
		b.AppendNull()
		return
	}
	if ext, ok := t.(arrow.ExtensionType); ok { // uuid: fill its storage
		b, t = arrowschema.StorageBuilder(b), ext.StorageType()
	}
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(r.IntN(2) == 0)
	case *array.Int32Builder:
		b.Append(int32(r.IntN(2000) - 1000))
	case *array.Int64Builder:
		b.Append(r.Int64N(1<<40) - 1<<39)
	case *array.Float32Builder:
		switch r.IntN(10) {
		case 0:
			b.Append(float32(math.NaN()))
		default:
			b.Append(r.Float32()*100 - 50)
		}
	case *array.Float64Builder:
		switch r.IntN(10) {
		case 0:
			b.Append(math.NaN())
		case 1:
			b.Append(math.Copysign(0, -1))
		default:
			b.Append(r.NormFloat64() * 1000)
		}
	case *array.Decimal128Builder:
		p := t.(*arrow.Decimal128Type).Precision
		var v decimal128.Num
		if p > 18 {
			v = decimal128.FromI64(r.Int64N(1e17) - 5e16).Mul(decimal128.FromI64(int64(r.IntN(1000))))
		} else {
			v = decimal128.FromI64(r.Int64N(int64(math.Pow10(int(p)))*2-1) - int64(math.Pow10(int(p))) + 1)
		}
		b.Append(v)
	case *array.Date32Builder:
		b.Append(arrow.Date32(r.IntN(40000) - 10000))
	case *array.Time64Builder:
		b.Append(arrow.Time64(r.Int64N(86400_000_000)))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(r.Int64N(4e15) - 1e15))
	case *array.StringBuilder:
		words := []string{"", "a", "héllo", "zzzzzzzzzzzzzzzzzzzzzz", "日本語テキストです、長い文字列", "mid"}
		b.Append(words[r.IntN(len(words))] + string(rune('a'+r.IntN(26))))
	case *array.BinaryBuilder:
		v := make([]byte, r.IntN(20))
		for i := range v {
			v[i] = byte(r.IntN(256))
		}
		b.Append(v)
	case *array.FixedSizeBinaryBuilder:
		v := make([]byte, t.(*arrow.FixedSizeBinaryType).ByteWidth)
		for i := range v {
			v[i] = byte(r.IntN(256))
		}
		b.Append(v)
	case *array.StructBuilder:
		st := t.(*arrow.StructType)
		b.Append(true)
		for i, f := range st.Fields() {
			fill(b.FieldBuilder(i), f.Type, f.Nullable, r)
		}
	case *array.MapBuilder:
		mt := t.(*arrow.MapType)
		k := r.IntN(4)
		b.Append(true)
		seen := map[string]bool{}
		for range k {
			fill(b.KeyBuilder(), mt.KeyType(), false, r)
			_ = seen
			fill(b.ItemBuilder(), mt.ItemType(), mt.ItemField().Nullable, r)
		}
	case *array.ListBuilder:
		lt := t.(*arrow.ListType)
		k := r.IntN(4)
		b.Append(true)
		for range k {
			fill(b.ValueBuilder(), lt.Elem(), lt.ElemField().Nullable, r)
		}
	default:
		panic("unhandled builder " + t.String())
	}
}
