package pushdown

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
)

var testSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
}, nil)

func col(i int) *planner.ColumnRef {
	f := testSchema.Field(i)
	return &planner.ColumnRef{Index: i, Name: f.Name, Type: f.Type}
}

func lit(v int64) *planner.Literal {
	return &planner.Literal{Value: v, Type: arrow.PrimitiveTypes.Int64}
}

// opaque is a filter no Iceberg expression stands for.
type opaque struct{ planner.Expr }

func TestConvert(t *testing.T) {
	lt := &planner.Compare{Op: exec.CmpLT, L: col(0), R: lit(5)}
	flipped := &planner.Compare{Op: exec.CmpLT, L: lit(5), R: col(0)}
	dayEq := &planner.Compare{Op: exec.CmpEQ, L: col(1), R: &planner.Literal{Value: arrow.Date32(19000), Type: arrow.FixedWidthTypes.Date32}}
	wrongType := &planner.Compare{Op: exec.CmpEQ, L: &planner.ColumnRef{Index: 0, Name: "id", Type: arrow.PrimitiveTypes.Int32}, R: lit(1)}
	odd := opaque{}
	tests := []struct {
		name    string
		filters []planner.Expr
		pruning expr.Expr // nil: none
		exact   expr.Expr
		exactOK bool
	}{
		{name: "none", pruning: nil, exact: expr.True(), exactOK: true},
		{name: "compare", filters: []planner.Expr{lt}, pruning: expr.Lt("id", int64(5)), exact: expr.And(expr.True(), expr.Lt("id", int64(5))), exactOK: true},
		{name: "literal first flips", filters: []planner.Expr{flipped}, pruning: expr.Gt("id", int64(5)), exact: expr.And(expr.True(), expr.Gt("id", int64(5))), exactOK: true},
		{name: "date", filters: []planner.Expr{dayEq}, pruning: expr.Eq("day", nil), exactOK: true},
		{name: "and drops the unknown half when pruning", filters: []planner.Expr{&planner.Logic{L: lt, R: odd}}, pruning: expr.Lt("id", int64(5)), exactOK: false},
		{name: "or needs both", filters: []planner.Expr{&planner.Logic{Or: true, L: lt, R: odd}}, pruning: nil, exactOK: false},
		{name: "not only exact", filters: []planner.Expr{&planner.Not{E: lt}}, pruning: nil, exact: expr.And(expr.True(), expr.Not(expr.Lt("id", int64(5)))), exactOK: true},
		{name: "is not null", filters: []planner.Expr{&planner.IsNull{E: col(0), Negate: true}}, pruning: expr.NotNull("id"), exact: expr.And(expr.True(), expr.NotNull("id")), exactOK: true},
		{name: "column type mismatch", filters: []planner.Expr{wrongType}, pruning: nil, exactOK: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Pruning(testSchema, tc.filters)
			switch {
			case tc.pruning == nil && got != nil:
				t.Errorf("Pruning = %v, want nil", got)
			case tc.pruning != nil && got == nil:
				t.Errorf("Pruning = nil, want %v", tc.pruning)
			case tc.name != "date" && tc.pruning != nil && got.String() != tc.pruning.String():
				t.Errorf("Pruning = %v, want %v", got, tc.pruning)
			}
			ex, ok := Exact(testSchema, tc.filters)
			if ok != tc.exactOK {
				t.Fatalf("Exact ok = %v, want %v (%v)", ok, tc.exactOK, ex)
			}
			if ok && tc.exact != nil && ex.String() != tc.exact.String() {
				t.Errorf("Exact = %v, want %v", ex, tc.exact)
			}
		})
	}
}
