package exec

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// genColumn evaluates to column i of the batch.
type genColumn struct{ i int }

func (c genColumn) DataType() arrow.DataType { return nil }
func (c genColumn) Eval(_ *EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	a := b.Column(c.i)
	a.Retain()
	return a, nil
}

// genInput builds (id, collection) rows, sliced past a leading row so
// offsets into the values do not start at zero.
func genInput(t *testing.T, mem memory.Allocator, typ arrow.DataType, vals []any) (*arrow.Schema, arrow.RecordBatch) {
	t.Helper()
	sch := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "c", Type: typ, Nullable: true}}, nil)
	ib := array.NewInt64Builder(mem)
	defer ib.Release()
	cb := array.NewBuilder(mem, typ)
	defer cb.Release()
	for i, v := range append([]any{vals[0]}, vals...) {
		ib.Append(int64(i - 1))
		if err := AppendNested(cb, v); err != nil {
			t.Fatal(err)
		}
	}
	ids, coll := ib.NewArray(), cb.NewArray()
	defer ids.Release()
	defer coll.Release()
	full := array.NewRecordBatch(sch, []arrow.Array{ids, coll}, int64(ids.Len()))
	defer full.Release()
	return sch, full.NewSlice(1, full.NumRows())
}

func TestGenerate(t *testing.T) {
	i64 := arrow.PrimitiveTypes.Int64
	list := arrow.ListOf(i64)
	m := arrow.MapOf(arrow.BinaryTypes.String, i64)
	pt := arrow.StructOf(arrow.Field{Name: "x", Type: i64, Nullable: true}, arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true})
	lists := []any{[]any{int64(1), int64(2), int64(3)}, nil, []any{}, []any{nil, int64(5)}}
	tests := []struct {
		name  string
		typ   arrow.DataType
		vals  []any
		kind  GeneratorKind
		outer bool
		gen   []arrow.Field
		want  [][]any
	}{
		{"explode", list, lists, GenExplode, false, []arrow.Field{{Name: "col", Type: i64}},
			[][]any{{int64(0), int64(1)}, {int64(0), int64(2)}, {int64(0), int64(3)}, {int64(3), nil}, {int64(3), int64(5)}}},
		{"explode outer", list, lists, GenExplode, true, []arrow.Field{{Name: "col", Type: i64}},
			[][]any{{int64(0), int64(1)}, {int64(0), int64(2)}, {int64(0), int64(3)}, {int64(1), nil}, {int64(2), nil}, {int64(3), nil}, {int64(3), int64(5)}}},
		{"posexplode", list, lists, GenPosExplode, true, []arrow.Field{{Name: "pos", Type: arrow.PrimitiveTypes.Int32}, {Name: "col", Type: i64}},
			[][]any{{int64(0), int32(0), int64(1)}, {int64(0), int32(1), int64(2)}, {int64(0), int32(2), int64(3)}, {int64(1), nil, nil}, {int64(2), nil, nil}, {int64(3), int32(0), nil}, {int64(3), int32(1), int64(5)}}},
		{"map", m, []any{MapValue{Keys: []any{"a", "b"}, Values: []any{int64(1), nil}}, nil}, GenExplode, false,
			[]arrow.Field{{Name: "key", Type: arrow.BinaryTypes.String}, {Name: "value", Type: i64}},
			[][]any{{int64(0), "a", int64(1)}, {int64(0), "b", nil}}},
		{"inline", arrow.ListOf(pt), []any{[]any{StructValue{Fields: []any{int64(1), "p"}}, nil}, []any{StructValue{Fields: []any{nil, "q"}}}}, GenInline, false,
			[]arrow.Field{{Name: "x", Type: i64}, {Name: "y", Type: arrow.BinaryTypes.String}},
			[][]any{{int64(0), int64(1), "p"}, {int64(0), nil, nil}, {int64(1), nil, "q"}}},
	}
	for _, tc := range tests {
		for _, batchRows := range []int{1, 2, 3, 100} {
			t.Run(fmt.Sprintf("%s/batch=%d", tc.name, batchRows), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				ec := &EvalContext{Mem: mem, Ctx: context.Background()}
				sch, in := genInput(t, mem, tc.typ, tc.vals)
				fields := sch.Fields()
				for _, f := range tc.gen {
					f.Nullable = true
					fields = append(fields, f)
				}
				g := &Generate{Input: &Values{Out: sch, Batches: []arrow.RecordBatch{in}}, Arg: genColumn{1}, Kind: tc.kind,
					Outer: tc.outer, Out: arrow.NewSchema(fields, nil), EC: ec, BatchRows: batchRows}
				bs, err := Collect(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(bs)
				var got [][]any
				for _, b := range bs {
					if int(b.NumRows()) > batchRows || b.NumRows() == 0 {
						t.Fatalf("batch of %d rows, bound %d", b.NumRows(), batchRows)
					}
					for r := 0; r < int(b.NumRows()); r++ {
						row := []any{NestedValueAt(b.Column(0), r)} // the input's collection column is skipped
						for c := 2; c < int(b.NumCols()); c++ {
							row = append(row, NestedValueAt(b.Column(c), r))
						}
						got = append(got, row)
					}
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			})
		}
	}
}

func TestGenerateRejectsNonCollections(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ec := &EvalContext{Mem: mem, Ctx: context.Background()}
	for _, tc := range []struct {
		kind GeneratorKind
		typ  arrow.DataType
		val  any
	}{
		{GenExplode, arrow.PrimitiveTypes.Int64, int64(1)},
		{GenInline, arrow.ListOf(arrow.PrimitiveTypes.Int64), []any{int64(1)}},
		{GenInline, arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), MapValue{Keys: []any{"a"}, Values: []any{int64(1)}}},
	} {
		t.Run(tc.kind.String()+" "+tc.typ.String(), func(t *testing.T) {
			sch, in := genInput(t, mem, tc.typ, []any{tc.val})
			g := &Generate{Input: &Values{Out: sch, Batches: []arrow.RecordBatch{in}}, Arg: genColumn{1}, Kind: tc.kind, Out: sch, EC: ec}
			_, err := Collect(context.Background(), g)
			var ge *GeneratorError
			if !errors.Is(err, ErrGenerator) || !errors.As(err, &ge) || ge.Kind != tc.kind {
				t.Fatalf("error %v, want a *GeneratorError for %s", err, tc.kind)
			}
		})
	}
}
