package datafile

import (
	"math"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/expr"
)

// TestEvalVectorMatchesRowEvaluator compares the column-wise residual
// evaluation with expr's row evaluator on random data with nulls, NaN and
// -0.
func TestEvalVectorMatchesRowEvaluator(t *testing.T) {
	schema := iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "l", Type: iceberg.LongType{}},
		iceberg.NestedField{ID: 2, Name: "s", Type: iceberg.StringType{}},
		iceberg.NestedField{ID: 3, Name: "f", Type: iceberg.DoubleType{}},
		iceberg.NestedField{ID: 4, Name: "d", Type: iceberg.DateType{}},
		iceberg.NestedField{ID: 5, Name: "st", Type: &iceberg.StructType{FieldList: []iceberg.NestedField{
			{ID: 6, Name: "i", Type: iceberg.IntType{}},
		}}},
		// without nulls: compared in one loop over the values
		iceberg.NestedField{ID: 7, Name: "ln", Type: iceberg.LongType{}},
		iceberg.NestedField{ID: 8, Name: "tn", Type: iceberg.TimestampTzType{}},
		iceberg.NestedField{ID: 9, Name: "dn", Type: iceberg.DateType{}},
		iceberg.NestedField{ID: 10, Name: "in", Type: iceberg.IntType{}},
		iceberg.NestedField{ID: 11, Name: "sn", Type: iceberg.StringType{}},
	)
	as, _ := arrowschema.ToArrow(schema)
	r := rand.New(rand.NewSource(7))
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	floats := []float64{math.NaN(), 0, math.Copysign(0, -1), 1.5, -2, math.Inf(1)}
	strs := []string{"", "a", "ab", "b", "ba", "é"}
	// about and past a word, for the prefix test's first 8 bytes
	longStrs := append([]string{"abcdefg", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefghik", "abcdefgi", "éabcdefgh"}, strs...)
	const n = 500
	for i := 0; i < n; i++ {
		null := func() bool { return r.Intn(5) == 0 }
		if null() {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.Int64Builder).Append(int64(r.Intn(7) - 3))
		}
		if null() {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(strs[r.Intn(len(strs))])
		}
		if null() {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.Float64Builder).Append(floats[r.Intn(len(floats))])
		}
		if null() {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.Date32Builder).Append(arrow.Date32(r.Intn(5)))
		}
		sb := b.Field(4).(*array.StructBuilder)
		if null() {
			sb.AppendNull()
			sb.FieldBuilder(0).AppendNull()
		} else {
			sb.Append(true)
			if null() {
				sb.FieldBuilder(0).AppendNull()
			} else {
				sb.FieldBuilder(0).(*array.Int32Builder).Append(int32(r.Intn(5)))
			}
		}
	}
	for i := 0; i < n; i++ {
		b.Field(5).(*array.Int64Builder).Append(int64(r.Intn(7) - 3))
		b.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(r.Intn(7) - 3))
		b.Field(7).(*array.Date32Builder).Append(arrow.Date32(r.Intn(7) - 3))
		b.Field(8).(*array.Int32Builder).Append(int32(r.Intn(7) - 3))
		b.Field(9).(*array.StringBuilder).Append(longStrs[r.Intn(len(longStrs))])
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	cols := map[int]colRef{}
	if err := resolveColumns(rec, schema, []int{1, 2, 3, 4, 6, 7, 8, 9, 10, 11}, cols); err != nil {
		t.Fatal(err)
	}
	exprs := map[string]expr.Expr{
		"long lt":        expr.Lt("l", int64(0)),
		"long not eq":    expr.NotEq("l", int64(1)),
		"long in":        expr.In("l", int64(-3), int64(2)),
		"long not in":    expr.NotIn("l", int64(-3), int64(2)),
		"string gteq":    expr.GtEq("s", "ab"),
		"string starts":  expr.StartsWith("s", "a"),
		"string not in":  expr.NotIn("s", "a", "é"),
		"double gt":      expr.Gt("f", 0.0),
		"double eq zero": expr.Eq("f", 0.0),
		"double not eq":  expr.NotEq("f", 1.5),
		"double is nan":  expr.IsNaN("f"),
		"double not nan": expr.NotNaN("f"),
		"date lteq":      expr.LtEq("d", iceberg.Date(2)),
		"nested eq":      expr.Eq("st.i", int32(3)),
		"nested is null": expr.IsNull("st.i"),
		"and or":         expr.Or(expr.And(expr.Gt("l", int64(0)), expr.NotNull("s")), expr.Lt("st.i", int32(2))),
		"not":            expr.Not(expr.Eq("s", "b")),
	}
	for _, c := range []string{"ln", "tn", "dn", "in"} {
		var lit any = int64(0)
		switch c {
		case "tn":
			lit = iceberg.Timestamp(0)
		case "dn":
			lit = iceberg.Date(0)
		case "in":
			lit = int32(0)
		}
		exprs[c+" lt"], exprs[c+" lteq"] = expr.Lt(c, lit), expr.LtEq(c, lit)
		exprs[c+" gt"], exprs[c+" gteq"] = expr.Gt(c, lit), expr.GtEq(c, lit)
		exprs[c+" eq"], exprs[c+" not eq"] = expr.Eq(c, lit), expr.NotEq(c, lit)
		exprs[c+" range"] = expr.And(expr.GtEq(c, lit), expr.Lt(c, int64(2)))
		exprs[c+" in"] = expr.In(c, lit)
		exprs[c+" not null"] = expr.NotNull(c)
	}
	exprs["in above int range"] = expr.Lt("in", int64(1)<<40)
	for _, lit := range []string{"", "a", "ab", "abc", "é", "ba", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefgi", "éabc"} {
		exprs["sn lt "+lit], exprs["sn lteq "+lit] = expr.Lt("sn", lit), expr.LtEq("sn", lit)
		exprs["sn gt "+lit], exprs["sn gteq "+lit] = expr.Gt("sn", lit), expr.GtEq("sn", lit)
		exprs["sn eq "+lit], exprs["sn not eq "+lit] = expr.Eq("sn", lit), expr.NotEq("sn", lit)
		exprs["sn starts "+lit], exprs["sn not starts "+lit] = expr.StartsWith("sn", lit), expr.NotStartsWith("sn", lit)
		exprs["sn in "+lit], exprs["sn not in "+lit] = expr.In("sn", lit), expr.NotIn("sn", lit, "b")
	}
	for name, e := range exprs {
		t.Run(name, func(t *testing.T) {
			bound, err := expr.Bind(schema, e, true)
			if err != nil {
				t.Fatal(err)
			}
			mask, ok := evalVector(bound, cols, n)
			if !ok {
				t.Fatalf("%v has no vectorised form", bound)
			}
			ev := expr.NewEvaluator(bound)
			for i := 0; i < n; i++ {
				want := ev.Eval(func(id int) any {
					v, err := cols[id].value(i)
					if err != nil {
						t.Fatal(err)
					}
					return v
				})
				if mask[i] != want {
					t.Fatalf("%v, row %d: vector %v, row evaluator %v", bound, i, mask[i], want)
				}
			}
		})
	}
}
