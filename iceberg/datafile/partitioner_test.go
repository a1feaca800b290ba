package datafile

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

func TestPartitionerNullParentStruct(t *testing.T) {
	schema := testSchema()
	spec := &iceberg.PartitionSpec{Fields: []iceberg.PartitionField{{SourceID: 6, FieldID: 1000, Name: "x", Transform: iceberg.IdentityTransform{}}}}
	p, err := newPartitioner(schema, spec)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.DefaultAllocator
	xb := array.NewFloat64Builder(mem)
	defer xb.Release()
	// Row 0: null struct whose child slot holds 1; row 1: x = 1; row 2: x null.
	xb.AppendValues([]float64{1, 1, 0}, []bool{true, true, false})
	yb := array.NewFloat64Builder(mem)
	defer yb.Release()
	yb.AppendNulls(3)
	x, y := xb.NewArray(), yb.NewArray()
	defer x.Release()
	defer y.Release()
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(1)
	valid.Bytes()[0] = 0b110
	point, err := array.NewStructArrayWithNulls([]arrow.Array{x, y}, []string{"x", "y"}, valid, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer point.Release()
	ib := array.NewInt64Builder(mem)
	defer ib.Release()
	ib.AppendValues([]int64{0, 1, 2}, nil)
	ids := ib.NewArray()
	defer ids.Release()
	as, _ := arrowschema.ToArrow(schema)
	cols := []arrow.Array{ids, array.MakeArrayOfNull(mem, as.Field(1).Type, 3), array.MakeArrayOfNull(mem, as.Field(2).Type, 3), point, array.MakeArrayOfNull(mem, as.Field(4).Type, 3)}
	for _, c := range []int{1, 2, 4} {
		defer cols[c].Release()
	}
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{as.Field(0), as.Field(1), as.Field(2), {Name: "point", Type: point.DataType(), Nullable: true}, as.Field(4)}, nil), cols, 3)
	defer rec.Release()
	g, err := p.group(rec)
	if err != nil {
		t.Fatal(err)
	}
	if g.group[0] != g.group[2] || g.group[0] == g.group[1] {
		t.Fatalf("groups %v: null parent must group with null value, apart from x=1", g.group)
	}
	for row, want := range []any{nil, 1.0, nil} {
		tuple, err := p.tuple(rec, row)
		if err != nil {
			t.Fatal(err)
		}
		if tuple[0] != want {
			t.Errorf("row %d: tuple %v, want %v", row, tuple, want)
		}
	}
}

func TestWriterRejectsUnsupportedSpecs(t *testing.T) {
	tests := []struct {
		name  string
		field iceberg.PartitionField
	}{
		{"unknown transform", iceberg.PartitionField{SourceID: 1, Name: "z", Transform: iceberg.UnknownTransform{Name: "zorder"}}},
		{"source inside a list", iceberg.PartitionField{SourceID: 8, Name: "tag", Transform: iceberg.IdentityTransform{}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt := newTestTable(t, testSchema(), nil, nil)
			p, err := newPartitioner(tt.meta.CurrentSchema(), &iceberg.PartitionSpec{Fields: []iceberg.PartitionField{tc.field}})
			if !errors.Is(err, ErrUnsupportedPartition) || p != nil {
				t.Errorf("error %v", err)
			}
			w := &Writer{err: err}
			if err := w.Write(context.Background(), testRows(t, testSchema(), 0, 1, []string{"a"})); !errors.Is(err, ErrUnsupportedPartition) {
				t.Errorf("write: %v", err)
			}
		})
	}
}

// TestBucketKeyMatchesTransform checks the unboxed bucket path against the
// spec transform for each integer-valued column type.
func TestBucketKeyMatchesTransform(t *testing.T) {
	vals := []int64{0, 1, -1, 34, 1 << 40, -(1 << 40), 2147483647, -2147483648}
	mem := memory.DefaultAllocator
	tests := []struct {
		name  string
		build func() arrow.Array
		value func(v int64) any
	}{
		{"int", func() arrow.Array {
			b := array.NewInt32Builder(mem)
			for _, v := range vals {
				b.Append(int32(v))
			}
			return b.NewArray()
		}, func(v int64) any { return int32(v) }},
		{"long", func() arrow.Array {
			b := array.NewInt64Builder(mem)
			b.AppendValues(vals, nil)
			return b.NewArray()
		}, func(v int64) any { return v }},
		{"date", func() arrow.Array {
			b := array.NewDate32Builder(mem)
			for _, v := range vals {
				b.Append(arrow.Date32(int32(v)))
			}
			return b.NewArray()
		}, func(v int64) any { return iceberg.Date(int32(v)) }},
		{"timestamp", func() arrow.Array {
			b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond})
			for _, v := range vals {
				b.Append(arrow.Timestamp(v))
			}
			return b.NewArray()
		}, func(v int64) any { return iceberg.Timestamp(v) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.build()
			defer a.Release()
			for _, n := range []int{1, 7, 16} {
				key := fastIntKey(a, iceberg.BucketTransform{N: n})
				if key == nil {
					t.Fatal("no fast path")
				}
				for i, v := range vals {
					want := iceberg.BucketTransform{N: n}.Apply(tc.value(v))
					if tc.name == "int" || tc.name == "date" {
						want = iceberg.BucketTransform{N: n}.Apply(tc.value(int64(int32(v))))
					}
					if got := key(i); want == nil || got != int64(want.(int32)) {
						t.Errorf("bucket[%d](%d) = %d, want %v", n, v, got, want)
					}
				}
			}
		})
	}
}
