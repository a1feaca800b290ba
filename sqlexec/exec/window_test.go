package exec

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// pairSource is a two-column (k, v) source split into batches of two rows.
func pairSource(mem memory.Allocator, ks, vs []any) *Values {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	src := &Values{Out: s}
	for lo := 0; lo < len(ks); lo += 2 {
		hi := min(len(ks), lo+2)
		k, v := ints(mem, ks[lo:hi]...), ints(mem, vs[lo:hi]...)
		cols := []arrow.Array{k.Column(0), v.Column(0)}
		src.Batches = append(src.Batches, array.NewRecordBatch(s, cols, int64(hi-lo)))
		k.Release()
		v.Release()
	}
	return src
}

func windowOut(in *arrow.Schema, calls []WindowCall) *arrow.Schema {
	fields := slices.Clone(in.Fields())
	for _, c := range calls {
		fields = append(fields, arrow.Field{Name: c.Func.String(), Type: c.Out, Nullable: true})
	}
	return arrow.NewSchema(fields, nil)
}

// lastCol lists the last column of every output row.
func lastCol(t *testing.T, bs []arrow.RecordBatch) []string {
	t.Helper()
	var out []string
	for _, b := range bs {
		c := b.Column(int(b.NumCols()) - 1)
		for r := 0; r < int(b.NumRows()); r++ {
			out = append(out, FormatValue(ValueAt(c, r), c.DataType()))
		}
	}
	return out
}

func TestWindowFunctions(t *testing.T) {
	i64, f64 := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64
	rows := func(f BoundKind, n int64) FrameBound { return FrameBound{Kind: f, Offset: n} }
	// partitions by k (NULL first), ordered by v: k=NULL:{7}, k=1:{NULL,1,1,3}, k=2:{5,6}
	ks := []any{1, 2, 1, nil, 1, 2, 1}
	vs := []any{1, 6, nil, 7, 3, 5, 1}
	tests := []struct {
		name string
		call WindowCall
		want []string
	}{
		{"row_number", WindowCall{Func: WinRowNumber, Out: i64}, []string{"1", "1", "2", "3", "4", "1", "2"}},
		{"rank", WindowCall{Func: WinRank, Out: i64}, []string{"1", "1", "2", "2", "4", "1", "2"}},
		{"dense_rank", WindowCall{Func: WinDenseRank, Out: i64}, []string{"1", "1", "2", "2", "3", "1", "2"}},
		{"percent_rank", WindowCall{Func: WinPercentRank, Out: f64}, []string{"0", "0", "0.3333333333333333", "0.3333333333333333", "1", "0", "1"}},
		{"cume_dist", WindowCall{Func: WinCumeDist, Out: f64}, []string{"1", "0.25", "0.75", "0.75", "1", "0.5", "1"}},
		{"ntile 3", WindowCall{Func: WinNtile, N: 3, Out: i64}, []string{"1", "1", "1", "2", "3", "1", "2"}},
		{"lag 1", WindowCall{Func: WinLag, N: 1, Args: []Expr{col(1)}, Out: i64}, []string{"NULL", "NULL", "NULL", "1", "1", "NULL", "5"}},
		{"lead 2 default k", WindowCall{Func: WinLead, N: 2, Args: []Expr{col(1), col(0)}, Out: i64}, []string{"NULL", "1", "3", "1", "1", "2", "2"}},
		{"running sum (peers)", WindowCall{Func: WinAggregate, Agg: AggSum, Args: []Expr{col(1)}, Frame: DefaultFrame, Out: i64}, []string{"7", "NULL", "2", "2", "5", "5", "11"}},
		{"count rows 1 preceding", WindowCall{Func: WinAggregate, Agg: AggCount, Args: []Expr{col(1)},
			Frame: WindowFrame{Rows: true, Start: rows(BoundPreceding, 1), End: rows(BoundCurrentRow, 0)}, Out: i64}, []string{"1", "0", "1", "2", "2", "1", "2"}},
		{"count(*) whole partition", WindowCall{Func: WinAggregate, Agg: AggCountStar,
			Frame: WindowFrame{Start: rows(BoundUnboundedPreceding, 0), End: rows(BoundUnboundedFollowing, 0)}, Out: i64}, []string{"1", "4", "4", "4", "4", "2", "2"}},
		{"max sliding", WindowCall{Func: WinAggregate, Agg: AggMax, Args: []Expr{col(1)},
			Frame: WindowFrame{Rows: true, Start: rows(BoundCurrentRow, 0), End: rows(BoundFollowing, 1)}, Out: i64}, []string{"7", "1", "1", "3", "3", "6", "6"}},
		{"min empty frame", WindowCall{Func: WinAggregate, Agg: AggMin, Args: []Expr{col(1)},
			Frame: WindowFrame{Rows: true, Start: rows(BoundPreceding, 3), End: rows(BoundPreceding, 2)}, Out: i64}, []string{"NULL", "NULL", "NULL", "NULL", "1", "NULL", "NULL"}},
		{"last_value range", WindowCall{Func: WinLastValue, Args: []Expr{col(1)}, Frame: DefaultFrame, Out: i64}, []string{"7", "NULL", "1", "1", "3", "5", "6"}},
		{"first_value rows following", WindowCall{Func: WinFirstValue, Args: []Expr{col(1)},
			Frame: WindowFrame{Rows: true, Start: rows(BoundFollowing, 1), End: rows(BoundUnboundedFollowing, 0)}, Out: i64}, []string{"NULL", "1", "1", "3", "NULL", "6", "NULL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			src := pairSource(mem, ks, vs)
			calls := []WindowCall{tt.call}
			w := &Window{Input: src, Partition: []Expr{col(0)}, Order: []SortKey{{Expr: col(1), NullsFirst: true}},
				Calls: calls, Out: windowOut(src.Out, calls), EC: &EvalContext{Mem: mem}}
			bs, err := Collect(context.Background(), w)
			if err != nil {
				t.Fatal(err)
			}
			defer ReleaseAll(bs)
			if got := lastCol(t, bs); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestWindowErrors(t *testing.T) {
	tests := []struct {
		name string
		call WindowCall
		want error
	}{
		{"range offset", WindowCall{Func: WinAggregate, Agg: AggCountStar, Out: arrow.PrimitiveTypes.Int64,
			Frame: WindowFrame{Start: FrameBound{Kind: BoundPreceding, Offset: 1}, End: FrameBound{Kind: BoundCurrentRow}}}, ErrWindowFrame},
		{"starts after end", WindowCall{Func: WinAggregate, Agg: AggCountStar, Out: arrow.PrimitiveTypes.Int64,
			Frame: WindowFrame{Rows: true, Start: FrameBound{Kind: BoundFollowing, Offset: 1}, End: FrameBound{Kind: BoundCurrentRow}}}, ErrWindowFrame},
		{"lag without args", WindowCall{Func: WinLag, N: 1, Out: arrow.PrimitiveTypes.Int64}, ErrWindowCall},
		{"sum over string", WindowCall{Func: WinAggregate, Agg: AggSum, Args: []Expr{strExpr{}}, Frame: DefaultFrame, Out: arrow.PrimitiveTypes.Int64}, ErrUnsupportedType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			calls := []WindowCall{tt.call}
			w := &Window{Input: seq(mem, 5, 2), Calls: calls, Out: windowOut(intSchema, calls), EC: &EvalContext{Mem: mem}}
			_, err := Collect(context.Background(), w)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			var fe *FrameError
			if tt.want == ErrWindowFrame && !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *FrameError", err)
			}
		})
	}
}

func TestWindowSumOverflow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src := &Values{Out: intSchema, Batches: []arrow.RecordBatch{ints(mem, 1<<62, 1<<62)}}
	calls := []WindowCall{{Func: WinAggregate, Agg: AggSum, Args: []Expr{col(0)}, Frame: DefaultFrame, Out: arrow.PrimitiveTypes.Int64}}
	w := &Window{Input: src, Order: []SortKey{{Expr: col(0)}}, Calls: calls, Out: windowOut(intSchema, calls), EC: &EvalContext{Mem: mem}}
	if _, err := Collect(context.Background(), w); !errors.Is(err, ErrOverflow) {
		t.Fatalf("err = %v, want ErrOverflow", err)
	}
}

func TestWindowEmptyInput(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	calls := []WindowCall{{Func: WinRowNumber, Out: arrow.PrimitiveTypes.Int64}}
	w := &Window{Input: &Values{Out: intSchema}, Calls: calls, Out: windowOut(intSchema, calls), EC: &EvalContext{Mem: mem}}
	bs, err := Collect(context.Background(), w)
	if err != nil || len(bs) != 0 {
		t.Fatalf("got %d batches, err %v; want none", len(bs), err)
	}
}

type strExpr struct{}

func (strExpr) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (strExpr) Eval(ec *EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	return ConstantArray(ec, arrow.BinaryTypes.String, "x", int(b.NumRows()))
}
