package exec

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// constExpr evaluates to a fixed array whatever the batch.
type constExpr struct{ a arrow.Array }

func (c constExpr) DataType() arrow.DataType { return c.a.DataType() }
func (c constExpr) Eval(_ *EvalContext, _ arrow.RecordBatch) (arrow.Array, error) {
	c.a.Retain()
	return c.a, nil
}

func TestProjectBatchChecksTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ec := &EvalContext{Mem: mem}
	in := ints(mem, 1, 2, 3)
	defer in.Release()
	listType := arrow.ListOf(arrow.BinaryTypes.String)
	nulls := array.MakeArrayOfNull(mem, arrow.Null, 3)
	defer nulls.Release()
	short := array.MakeArrayOfNull(mem, arrow.PrimitiveTypes.Int64, 2)
	defer short.Release()
	tests := []struct {
		name    string
		expr    Expr
		outType arrow.DataType
		wantErr bool
	}{
		{"same type", col(0), arrow.PrimitiveTypes.Int64, false},
		{"untyped null to list", constExpr{nulls}, listType, false},
		{"int64 declared as string", col(0), arrow.BinaryTypes.String, true},
		{"int64 declared as list", col(0), listType, true},
		{"wrong length", constExpr{short}, arrow.PrimitiveTypes.Int64, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := arrow.NewSchema([]arrow.Field{{Name: "c", Type: tc.outType, Nullable: true}}, nil)
			rb, err := ProjectBatch(ec, in, []Expr{tc.expr}, out)
			if tc.wantErr {
				if !errors.Is(err, ErrBatchMismatch) {
					t.Fatalf("err = %v, want ErrBatchMismatch", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer rb.Release()
			if !arrow.TypeEqual(rb.Column(0).DataType(), tc.outType) || rb.NumRows() != 3 {
				t.Fatalf("got %s x %d rows", rb.Column(0).DataType(), rb.NumRows())
			}
		})
	}
}

func TestCastUntypedNullToNested(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ec := &EvalContext{Mem: mem}
	nulls := array.MakeArrayOfNull(mem, arrow.Null, 2)
	defer nulls.Release()
	for _, to := range []arrow.DataType{
		arrow.ListOf(arrow.BinaryTypes.String),
		arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32),
		arrow.StructOf(arrow.Field{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true}),
	} {
		t.Run(to.String(), func(t *testing.T) {
			got, err := Cast(ec, nulls, to)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if !arrow.TypeEqual(got.DataType(), to) || got.NullN() != 2 {
				t.Fatalf("got %s with %d nulls", got.DataType(), got.NullN())
			}
		})
	}
}
