package exec

import (
	"errors"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestNestedRoundTrip(t *testing.T) {
	point := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true})
	tests := []struct {
		name string
		typ  arrow.DataType
		vals []any
	}{
		{"list of ints", arrow.ListOf(arrow.PrimitiveTypes.Int64), []any{[]any{int64(1), nil}, nil, []any{}}},
		{"list of lists", arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32)), []any{[]any{[]any{int32(1)}, nil, []any{}}, nil}},
		{"map to lists", arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOf(arrow.PrimitiveTypes.Int64)),
			[]any{MapValue{Keys: []any{"a", "b"}, Values: []any{[]any{int64(2)}, nil}}, nil, MapValue{Keys: []any{}, Values: []any{}}}},
		{"struct", point, []any{StructValue{Fields: []any{int32(3), []any{"p", nil}}}, nil, StructValue{Fields: []any{nil, nil}}}},
		{"list of structs", arrow.ListOf(point), []any{[]any{StructValue{Fields: []any{int32(1), nil}}, nil}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			b := array.NewBuilder(mem, tc.typ)
			defer b.Release()
			for _, v := range tc.vals {
				if err := AppendNested(b, v); err != nil {
					t.Fatal(err)
				}
			}
			arr := b.NewArray()
			defer arr.Release()
			// a slice checks that offsets into children are honoured
			sl := array.NewSlice(arr, 1, int64(arr.Len()))
			defer sl.Release()
			for i, want := range tc.vals {
				if got := NestedValueAt(arr, i); !reflect.DeepEqual(got, want) {
					t.Errorf("row %d: got %#v, want %#v", i, got, want)
				}
				if i > 0 {
					if got := NestedValueAt(sl, i-1); !reflect.DeepEqual(got, want) {
						t.Errorf("sliced row %d: got %#v, want %#v", i, got, want)
					}
				}
			}
		})
	}
}

func TestAppendNestedRejectsWrongForms(t *testing.T) {
	tests := []struct {
		name string
		typ  arrow.DataType
		v    any
	}{
		{"int into list", arrow.ListOf(arrow.PrimitiveTypes.Int64), int64(1)},
		{"list into map", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), []any{}},
		{"NULL map key", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), MapValue{Keys: []any{nil}, Values: []any{int64(1)}}},
		{"struct of the wrong width", arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64}), StructValue{Fields: []any{int64(1), int64(2)}}},
		{"string into int element", arrow.ListOf(arrow.PrimitiveTypes.Int64), []any{"x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := array.NewBuilder(memory.NewGoAllocator(), tc.typ)
			defer b.Release()
			if err := AppendNested(b, tc.v); !errors.Is(err, ErrUnsupportedType) {
				t.Fatalf("got %v, want ErrUnsupportedType", err)
			}
		})
	}
}

func TestCompareNested(t *testing.T) {
	tests := []struct {
		name string
		a, b any
		want int
	}{
		{"nulls first", nil, int64(1), -1},
		{"equal lists", []any{int64(1), nil}, []any{int64(1), nil}, 0},
		{"prefix is smaller", []any{int64(1)}, []any{int64(1), int64(0)}, -1},
		{"element decides", []any{int64(2)}, []any{int64(1), int64(9)}, 1},
		{"maps by keys then values", MapValue{Keys: []any{"a"}, Values: []any{int64(2)}}, MapValue{Keys: []any{"a"}, Values: []any{int64(1)}}, 1},
		{"structs field by field", StructValue{Fields: []any{"a", nil}}, StructValue{Fields: []any{"a", "b"}}, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := CompareNested(tc.a, tc.b); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
			if got := CompareNested(tc.b, tc.a); got != -tc.want {
				t.Errorf("reversed: got %d, want %d", got, -tc.want)
			}
		})
	}
}
