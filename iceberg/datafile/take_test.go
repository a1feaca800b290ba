package datafile

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
)

func TestTakeRows(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{10, 11, 12, 13}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"a", "", "c", "d"}, []bool{true, false, true, true})
	rec := b.NewRecordBatch()
	defer rec.Release()

	tests := []struct {
		name    string
		idx     []int32
		want    string // id:s per row, null as <nil>
		wantErr bool
	}{
		{"reorder", []int32{3, 1, 0}, "[13:d 11:<nil> 10:a]", false},
		{"repeat", []int32{2, 2}, "[12:c 12:c]", false},
		{"none", nil, "[]", false},
		{"out of range", []int32{4}, "", true},
		{"negative", []int32{-1}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := TakeRows(context.Background(), rec, tt.idx)
			if tt.wantErr {
				if err == nil {
					out.Release()
					t.Fatal("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			var got []string
			ids, ss := out.Column(0).(*array.Int64), out.Column(1).(*array.String)
			for i := range int(out.NumRows()) {
				var s any
				if ss.IsValid(i) {
					s = ss.Value(i)
				}
				got = append(got, fmt.Sprintf("%d:%v", ids.Value(i), s))
			}
			if fmt.Sprint(got) != tt.want {
				t.Errorf("got %v, want %s", got, tt.want)
			}
		})
	}
}

func TestLiteralIntFollowsCompareValues(t *testing.T) {
	tests := []struct {
		lit    any
		want   int64
		wantOK bool
	}{
		{int32(-7), -7, true},
		{int64(1 << 40), 1 << 40, true},
		{iceberg.Date(19000), 19000, true},
		{iceberg.Time(5), 5, true},
		{iceberg.Timestamp(-3), -3, true},
		{float64(1), 0, false},
		{"1", 0, false},
		{true, 0, false},
		{nil, 0, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%T(%v)", tt.lit, tt.lit), func(t *testing.T) {
			got, ok := literalInt(tt.lit)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("literalInt = %d, %v; want %d, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
