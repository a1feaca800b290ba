package arrowschema

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
)

func TestNanoTimestampArrow(t *testing.T) {
	cases := []struct {
		typ  iceberg.Type
		want arrow.DataType
	}{
		{iceberg.TimestampNsType{}, &arrow.TimestampType{Unit: arrow.Nanosecond}},
		{iceberg.TimestampTzNsType{}, &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}},
	}
	for _, c := range cases {
		t.Run(c.typ.String(), func(t *testing.T) {
			at, err := TypeToArrow(c.typ)
			if err != nil || !arrow.TypeEqual(at, c.want) {
				t.Fatalf("arrow type %v, %v", at, err)
			}
			back, err := TypeFromArrow(at)
			if err != nil || back != c.typ {
				t.Fatalf("back %v, %v", back, err)
			}
			b := array.NewBuilder(memory.DefaultAllocator, at)
			defer b.Release()
			v := iceberg.TimestampNano(1767225600123456789)
			if err := AppendValue(b, v); err != nil {
				t.Fatal(err)
			}
			if err := AppendValue(b, iceberg.Timestamp(1)); err == nil {
				t.Fatal("micro value appended to a nanosecond column")
			}
			arr := b.NewArray()
			defer arr.Release()
			got, err := ValueAt(arr, 0, c.typ)
			if err != nil || got != v {
				t.Fatalf("value %v (%T), %v", got, got, err)
			}
		})
	}
}
