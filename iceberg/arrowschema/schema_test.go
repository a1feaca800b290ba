package arrowschema

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
)

func TestSchemaRoundTrip(t *testing.T) {
	s := iceberg.MustSchema(3,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
		iceberg.NestedField{ID: 2, Name: "d", Type: iceberg.DecimalType{Precision: 10, Scale: 2}},
		iceberg.NestedField{ID: 3, Name: "ts", Type: iceberg.TimestampTzType{}},
		iceberg.NestedField{ID: 4, Name: "l", Type: &iceberg.ListType{ElementID: 5, Element: iceberg.StringType{}, ElementRequired: true}},
		iceberg.NestedField{ID: 6, Name: "m", Type: &iceberg.MapType{KeyID: 7, Key: iceberg.IntType{}, ValueID: 8, Value: iceberg.DateType{}}},
		iceberg.NestedField{ID: 9, Name: "s", Type: &iceberg.StructType{FieldList: []iceberg.NestedField{
			{ID: 10, Name: "t", Type: iceberg.TimeType{}}, {ID: 11, Name: "f", Type: iceberg.FixedType{Length: 4}}}}},
	)
	as, err := ToArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromArrow(as, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equals(s) {
		t.Fatalf("round trip:\n%v\nwant\n%v", back, s)
	}
	if _, err := FromArrow(arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil), 0); !errors.Is(err, ErrNoFieldID) {
		t.Fatalf("no id: %v", err)
	}
}

func TestCastRecord(t *testing.T) {
	target := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.BinaryTypes.String},
	}, nil)
	in := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "y", Type: arrow.BinaryTypes.LargeString, Nullable: true},
	}, nil)
	tests := []struct {
		name    string
		nullRow bool
		wantErr error
	}{
		{"widens", false, nil},
		{"null in required column", true, iceberg.ErrNotNullViolation},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := array.NewRecordBuilder(memory.DefaultAllocator, in)
			defer b.Release()
			b.Field(0).(*array.Int32Builder).Append(7)
			b.Field(1).(*array.LargeStringBuilder).Append("x")
			if tc.nullRow {
				b.Field(0).AppendNull()
				b.Field(1).(*array.LargeStringBuilder).Append("y")
			}
			rec := b.NewRecordBatch()
			defer rec.Release()
			out, err := CastRecord(context.Background(), rec, target)
			if tc.wantErr != nil {
				var ce *ColumnError
				if !errors.Is(err, tc.wantErr) || !errors.As(err, &ce) || ce.Column != "a" {
					t.Fatalf("err %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			if out.Column(0).(*array.Int64).Value(0) != 7 || out.Column(1).(*array.String).Value(0) != "x" {
				t.Fatalf("got %v", out)
			}
		})
	}
}
