package exec

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

type col int

func (c col) DataType() arrow.DataType { return arrow.PrimitiveTypes.Int64 }
func (c col) Eval(_ *EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	a := b.Column(int(c))
	a.Retain()
	return a, nil
}

var intSchema = arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)

// ints makes a one-column batch; nil pointers are NULL.
func ints(mem memory.Allocator, vals ...any) arrow.RecordBatch {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	for _, v := range vals {
		if v == nil {
			b.AppendNull()
		} else {
			b.Append(int64(v.(int)))
		}
	}
	a := b.NewArray()
	defer a.Release()
	return array.NewRecordBatch(intSchema, []arrow.Array{a}, int64(a.Len()))
}

func rowsOf(t *testing.T, bs []arrow.RecordBatch) []string {
	t.Helper()
	var out []string
	for _, b := range bs {
		for r := 0; r < int(b.NumRows()); r++ {
			s := ""
			for c := 0; c < int(b.NumCols()); c++ {
				s += FormatValue(ValueAt(b.Column(c), r), b.Column(c).DataType()) + ","
			}
			out = append(out, s)
		}
	}
	return out
}

func TestHashJoinTypes(t *testing.T) {
	tests := []struct {
		typ       JoinType
		nullAware bool
		want      int
	}{
		{JoinInner, false, 3}, // 1-1, 2-2 twice
		{JoinLeft, false, 5},  // + 3 and NULL unmatched
		{JoinRight, false, 5}, // + 4 and NULL unmatched
		{JoinFull, false, 7},
		{JoinSemi, false, 2},
		{JoinAnti, false, 2},
		{JoinAnti, true, 0}, // NOT IN against a set with NULL
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s-nullaware=%v", tc.typ, tc.nullAware), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ec := &EvalContext{Mem: mem}
			left := &Values{Out: intSchema, Batches: []arrow.RecordBatch{ints(mem, 1, 2, 3, nil)}}
			right := &Values{Out: intSchema, Batches: []arrow.RecordBatch{ints(mem, 1, 2, 2, 4, nil)}}
			out := arrow.NewSchema(append(intSchema.Fields(), intSchema.Fields()...), nil)
			if tc.typ == JoinSemi || tc.typ == JoinAnti {
				out = intSchema
			}
			j := &HashJoin{Left: left, Right: right, LeftKeys: []Expr{col(0)}, RightKeys: []Expr{col(0)},
				Type: tc.typ, NullAware: tc.nullAware, Out: out, EC: ec}
			bs, err := Collect(context.Background(), j)
			if err != nil {
				t.Fatal(err)
			}
			defer ReleaseAll(bs)
			if got := rowsOf(t, bs); len(got) != tc.want {
				t.Fatalf("got %d rows %v, want %d", len(got), got, tc.want)
			}
		})
	}
}

func TestSortNullsAndLimit(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ec := &EvalContext{Mem: mem}
	tests := []struct {
		name string
		key  SortKey
		want []string
	}{
		{"asc nulls first", SortKey{Expr: col(0), NullsFirst: true}, []string{"NULL,", "1,", "2,"}},
		{"desc nulls last", SortKey{Expr: col(0), Desc: true}, []string{"3,", "2,", "1,"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &Values{Out: intSchema, Batches: []arrow.RecordBatch{ints(mem, 2, nil), ints(mem, 3, 1)}}
			it := &Limit{Input: &Sort{Input: in, Keys: []SortKey{tc.key}, EC: ec}, Count: 3}
			bs, err := Collect(context.Background(), it)
			if err != nil {
				t.Fatal(err)
			}
			defer ReleaseAll(bs)
			got := rowsOf(t, bs)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("got %v want %v", got, tc.want)
			}
		})
	}
}

// endless yields the same batch forever, to test cancellation.
type endless struct {
	b arrow.RecordBatch
}

func (e *endless) Schema() *arrow.Schema { return intSchema }
func (e *endless) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e.b.Retain()
	return e.b, nil
}
func (e *endless) Close() {}

func TestCancellationStopsAggregate(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src := &endless{b: ints(mem, 1, 2, 3)}
	defer src.b.Release()
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	counting := &hook{RecordIterator: src, f: func() {
		if calls++; calls == 100 {
			cancel()
		}
	}}
	out := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	agg := &HashAggregate{Input: counting, Aggs: []AggSpec{{Func: AggCountStar, Out: arrow.PrimitiveTypes.Int64}}, Out: out, EC: &EvalContext{Mem: mem}}
	_, err := Collect(ctx, agg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

type hook struct {
	RecordIterator
	f func()
}

func (h *hook) Next(ctx context.Context) (arrow.RecordBatch, error) {
	h.f()
	return h.RecordIterator.Next(ctx)
}

func TestArithOverflowAndDivZero(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ec := &EvalContext{Mem: mem}
	a, b := ints(mem, 1<<62, 5), ints(mem, 1<<62, 0)
	defer a.Release()
	defer b.Release()
	if _, err := Arith(ec, ArithAdd, a.Column(0), b.Column(0)); !errors.Is(err, ErrOverflow) {
		t.Fatalf("add: err = %v, want ErrOverflow", err)
	}
	r, err := Arith(ec, ArithDiv, a.Column(0), b.Column(0))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	if r.IsNull(0) || !r.IsNull(1) {
		t.Fatalf("div: got %v, want [1 NULL]", r)
	}
}

func TestCastErrors(t *testing.T) {
	tests := []struct {
		v    any
		from arrow.DataType
		to   arrow.DataType
		ok   bool
	}{
		{"12", arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32, true},
		{"1e99", arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32, false},
		{int64(1 << 40), arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int32, false},
		{"2024-02-30", arrow.BinaryTypes.String, arrow.FixedWidthTypes.Date32, false},
		{"2024-02-29 10:00:00", arrow.BinaryTypes.String, &arrow.TimestampType{Unit: arrow.Microsecond}, true},
		{float64(3.7), arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Int64, true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v->%s", tc.v, tc.to), func(t *testing.T) {
			_, err := CastValue(tc.v, tc.from, tc.to)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
			var ce *CastError
			if err != nil && !errors.As(err, &ce) {
				t.Fatalf("err %v is not a *CastError", err)
			}
		})
	}
}
