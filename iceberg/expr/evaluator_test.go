package expr

import (
	"math"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func TestEvaluator(t *testing.T) {
	row := map[int]any{1: int64(10), 2: nil, 3: "hello", 4: nan, 6: iceberg.Date(3)}
	get := func(id int) any { return row[id] }
	cases := []struct {
		in   Expr
		want bool
	}{
		{Eq("id", 10), true},
		{NotEq("id", 10), false},
		{Lt("id", 11), true},
		{LtEq("id", 10), true},
		{Gt("id", 10), false},
		{GtEq("id", 10), true},
		{In("id", 1, 10), true},
		{NotIn("id", 1, 10), false},
		{NotIn("id", 1, 2), true},
		// null: only IS NULL matches
		{IsNull("n"), true},
		{NotNull("n"), false},
		{Eq("n", 1), false},
		{NotEq("n", 1), false},
		{NotIn("n", 1), false},
		{Not(Eq("n", 1)), false},
		{Not(Lt("n", 1)), false},
		// NaN: comparisons false except !=
		{IsNaN("f"), true},
		{NotNaN("f"), false},
		{Lt("f", 1.0), false},
		{Gt("f", 1.0), false},
		{Eq("f", 1.0), false},
		{NotEq("f", 1.0), true},
		{In("f", 1.0), false},
		{StartsWith("s", "he"), true},
		{StartsWith("s", "ho"), false},
		{NotStartsWith("s", "ho"), true},
		{And(Eq("id", 10), StartsWith("s", "h")), true},
		{Or(Eq("id", 1), IsNull("n")), true},
		{Eq("d", "1970-01-04"), true},
	}
	for _, c := range cases {
		t.Run(c.in.String(), func(t *testing.T) {
			if got := NewEvaluator(mustBind(t, c.in)).Eval(get); got != c.want {
				t.Errorf("Eval(%s) = %v, want %v", c.in, got, c.want)
			}
		})
	}
}

func TestEvaluatorFloatZero(t *testing.T) {
	negZero := map[int]any{4: math.Copysign(0, -1)}
	get := func(id int) any { return negZero[id] }
	for _, e := range []Expr{Eq("f", 0.0), In("f", 0.0, 5.0), LtEq("f", 0.0), GtEq("f", 0.0)} {
		if !NewEvaluator(mustBind(t, e)).Eval(get) {
			t.Errorf("-0.0 should satisfy %s", e)
		}
	}
}
