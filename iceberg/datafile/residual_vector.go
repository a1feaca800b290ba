package datafile

import (
	"encoding/binary"
	"math"
	"reflect"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
)

// evalVector evaluates a bound expression over n rows column by column,
// with the row evaluator's semantics (comparisons with null are false,
// NaN compares unequal to everything). ok is false when a predicate has no
// vectorised form; the caller then evaluates row by row.
func evalVector(e expr.BoundExpr, cols map[int]colRef, n int) (mask []bool, ok bool) {
	switch x := e.(type) {
	case expr.AlwaysTrue:
		return fill(n, true), true
	case expr.AlwaysFalse:
		return fill(n, false), true
	case *expr.BoundAnd:
		l, ok1 := evalVector(x.Left, cols, n)
		r, ok2 := evalVector(x.Right, cols, n)
		if !ok1 || !ok2 {
			return nil, false
		}
		for i := range l {
			l[i] = l[i] && r[i]
		}
		return l, true
	case *expr.BoundOr:
		l, ok1 := evalVector(x.Left, cols, n)
		r, ok2 := evalVector(x.Right, cols, n)
		if !ok1 || !ok2 {
			return nil, false
		}
		for i := range l {
			l[i] = l[i] || r[i]
		}
		return l, true
	case *expr.BoundPredicate:
		c, found := cols[x.FieldID]
		if !found {
			return nil, false
		}
		return predicateVector(x, c, n)
	}
	return nil, false
}

func fill(n int, v bool) []bool {
	out := make([]bool, n)
	if v {
		for i := range out {
			out[i] = true
		}
	}
	return out
}

// validity is true where the value and every parent struct are non-null.
func validity(c colRef, n int) []bool {
	v := make([]bool, n)
	for i := range v {
		v[i] = c.leaf.IsValid(i)
	}
	for _, p := range c.parents {
		if p.NullN() == 0 {
			continue
		}
		for i := range v {
			v[i] = v[i] && p.IsValid(i)
		}
	}
	return v
}

func predicateVector(p *expr.BoundPredicate, c colRef, n int) ([]bool, bool) {
	switch a := c.leaf.(type) {
	case *array.Int32:
		if out, ok := denseIntPredicate(p, c, a.Int32Values()); ok {
			return out, true
		}
	case *array.Int64:
		if out, ok := denseIntPredicate(p, c, a.Int64Values()); ok {
			return out, true
		}
	case *array.Date32:
		if out, ok := denseIntPredicate(p, c, a.Date32Values()); ok {
			return out, true
		}
	case *array.Timestamp:
		if a.DataType().(*arrow.TimestampType).Unit == arrow.Microsecond {
			if out, ok := denseIntPredicate(p, c, a.TimestampValues()); ok {
				return out, true
			}
		}
	case *array.String:
		if out, ok := denseStringPredicate(p, c, a); ok {
			return out, true
		}
	}
	valid := validity(c, n)
	switch p.Op {
	case expr.OpIsNull:
		for i := range valid {
			valid[i] = !valid[i]
		}
		return valid, true
	case expr.OpNotNull:
		return valid, true
	}
	switch a := c.leaf.(type) {
	case *array.Int32:
		return intPredicate(p, valid, func(i int) int64 { return int64(a.Value(i)) })
	case *array.Int64:
		return intPredicate(p, valid, a.Value)
	case *array.Date32:
		return intPredicate(p, valid, func(i int) int64 { return int64(a.Value(i)) })
	case *array.Timestamp:
		if a.DataType().(*arrow.TimestampType).Unit != arrow.Microsecond {
			return nil, false
		}
		return intPredicate(p, valid, func(i int) int64 { return int64(a.Value(i)) })
	case *array.Float64:
		return floatPredicate(p, valid, a.Value)
	case *array.Float32:
		return floatPredicate(p, valid, func(i int) float64 { return float64(a.Value(i)) })
	case *array.String:
		return stringPredicate(p, valid, a.Value)
	}
	return nil, false
}

// denseIntPredicate compares a column without nulls (nor null parents)
// with an integer literal in one loop over its values: the common
// residual of a range scan, evaluated on every row of the row groups it
// cuts. ok is false when it does not apply.
func denseIntPredicate[T ~int32 | ~int64](p *expr.BoundPredicate, c colRef, vals []T) ([]bool, bool) {
	if c.leaf.NullN() != 0 {
		return nil, false
	}
	for _, a := range c.parents {
		if a.NullN() != 0 {
			return nil, false
		}
	}
	switch p.Op {
	case expr.OpLt, expr.OpLtEq, expr.OpGt, expr.OpGtEq, expr.OpEq, expr.OpNotEq:
	default:
		return nil, false
	}
	lit, ok := literalInt(p.Literal())
	if !ok {
		return nil, false
	}
	out := make([]bool, len(vals))
	switch p.Op {
	case expr.OpLt:
		for i, v := range vals {
			out[i] = int64(v) < lit
		}
	case expr.OpLtEq:
		for i, v := range vals {
			out[i] = int64(v) <= lit
		}
	case expr.OpGt:
		for i, v := range vals {
			out[i] = int64(v) > lit
		}
	case expr.OpGtEq:
		for i, v := range vals {
			out[i] = int64(v) >= lit
		}
	case expr.OpEq:
		for i, v := range vals {
			out[i] = int64(v) == lit
		}
	case expr.OpNotEq:
		for i, v := range vals {
			out[i] = int64(v) != lit
		}
	}
	return out, true
}

// denseStringPredicate compares a string column without nulls (nor null
// parents) with a string literal on its offsets and bytes: no per-row
// call, a prefix test is one length check and one comparison of the
// prefix's bytes. ok is false when it does not apply.
func denseStringPredicate(p *expr.BoundPredicate, c colRef, a *array.String) ([]bool, bool) {
	if c.leaf.NullN() != 0 {
		return nil, false
	}
	for _, x := range c.parents {
		if x.NullN() != 0 {
			return nil, false
		}
	}
	lit, ok := p.Literal().(string)
	if !ok || len(p.Literals) > 1 {
		return nil, false
	}
	offs := a.ValueOffsets()
	var data []byte
	if b := a.Data().Buffers()[2]; b != nil {
		data = b.Bytes()
	}
	out := make([]bool, a.Len())
	switch p.Op {
	case expr.OpStartsWith, expr.OpNotStartsWith:
		want := p.Op == expr.OpStartsWith
		// The prefix's first (up to) 8 bytes are one masked word
		// comparison; only a match compares the rest.
		n := int32(len(lit))
		var word, mask uint64
		for j := range min(len(lit), 8) {
			word |= uint64(lit[j]) << (8 * j)
			mask |= 0xff << (8 * j)
		}
		rest := lit[min(len(lit), 8):]
		for i := range out {
			lo, hi := offs[i], offs[i+1]
			match := false
			if hi-lo >= n {
				if int(lo)+8 <= len(data) {
					match = binary.LittleEndian.Uint64(data[lo:])&mask == word && string(data[lo+n-int32(len(rest)):lo+n]) == rest
				} else {
					match = string(data[lo:lo+n]) == lit
				}
			}
			out[i] = match == want
		}
	case expr.OpEq, expr.OpNotEq:
		want := p.Op == expr.OpEq
		for i := range out {
			out[i] = (string(data[offs[i]:offs[i+1]]) == lit) == want
		}
	default:
		cmp, ok := comparison(p.Op)
		if !ok {
			return nil, false
		}
		for i := range out {
			out[i] = cmp(strings.Compare(string(data[offs[i]:offs[i+1]]), lit))
		}
	}
	return out, true
}

// literalInt widens a literal that iceberg.CompareValues orders as an
// integer (int, long, date, time, timestamp) to int64, so the vectorised
// comparisons agree with the row evaluator on which literals are integers.
func literalInt(v any) (int64, bool) {
	if _, ok := iceberg.CompareValues(v, int64(0)); !ok {
		return 0, false
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Int32, reflect.Int64:
		return rv.Int(), true
	}
	return 0, false
}

// compareMask sets out[i] (already the validity) to cmp(i) where valid.
func compareMask(out []bool, cmp func(i int) bool) []bool {
	for i, v := range out {
		if v {
			out[i] = cmp(i)
		}
	}
	return out
}

func intPredicate(p *expr.BoundPredicate, valid []bool, val func(int) int64) ([]bool, bool) {
	switch p.Op {
	case expr.OpIn, expr.OpNotIn:
		set := map[int64]bool{}
		for _, l := range p.Literals {
			x, ok := literalInt(l)
			if !ok {
				return nil, false
			}
			set[x] = true
		}
		in := p.Op == expr.OpIn
		return compareMask(valid, func(i int) bool { return set[val(i)] == in }), true
	case expr.OpIsNaN:
		return fill(len(valid), false), true
	case expr.OpNotNaN:
		return valid, true
	}
	lit, ok := literalInt(p.Literal())
	if !ok {
		return nil, false
	}
	cmp, ok := comparison(p.Op)
	if !ok {
		return nil, false
	}
	return compareMask(valid, func(i int) bool {
		v := val(i)
		switch {
		case v < lit:
			return cmp(-1)
		case v > lit:
			return cmp(1)
		}
		return cmp(0)
	}), true
}

func floatPredicate(p *expr.BoundPredicate, valid []bool, val func(int) float64) ([]bool, bool) {
	switch p.Op {
	case expr.OpIsNaN, expr.OpNotNaN:
		want := p.Op == expr.OpIsNaN
		return compareMask(valid, func(i int) bool { return math.IsNaN(val(i)) == want }), true
	case expr.OpIn, expr.OpNotIn, expr.OpStartsWith, expr.OpNotStartsWith:
		return nil, false
	}
	var lit float64
	switch x := p.Literal().(type) {
	case float32:
		lit = float64(x)
	case float64:
		lit = x
	default:
		return nil, false
	}
	cmp, ok := comparison(p.Op)
	if !ok {
		return nil, false
	}
	return compareMask(valid, func(i int) bool {
		v := val(i)
		switch {
		case math.IsNaN(v) || math.IsNaN(lit):
			return p.Op == expr.OpNotEq
		case v < lit:
			return cmp(-1)
		case v > lit:
			return cmp(1)
		}
		return cmp(0)
	}), true
}

func stringPredicate(p *expr.BoundPredicate, valid []bool, val func(int) string) ([]bool, bool) {
	switch p.Op {
	case expr.OpIn, expr.OpNotIn:
		set := map[string]bool{}
		for _, l := range p.Literals {
			s, ok := l.(string)
			if !ok {
				return nil, false
			}
			set[s] = true
		}
		in := p.Op == expr.OpIn
		return compareMask(valid, func(i int) bool { return set[val(i)] == in }), true
	case expr.OpStartsWith, expr.OpNotStartsWith:
		prefix, ok := p.Literal().(string)
		if !ok {
			return nil, false
		}
		want := p.Op == expr.OpStartsWith
		return compareMask(valid, func(i int) bool { return strings.HasPrefix(val(i), prefix) == want }), true
	case expr.OpIsNaN:
		return fill(len(valid), false), true
	case expr.OpNotNaN:
		return valid, true
	}
	lit, ok := p.Literal().(string)
	if !ok {
		return nil, false
	}
	cmp, ok := comparison(p.Op)
	if !ok {
		return nil, false
	}
	return compareMask(valid, func(i int) bool { return cmp(strings.Compare(val(i), lit)) }), true
}

// comparison turns a comparison operator into a test of a three-way
// comparison result.
func comparison(op expr.Op) (func(c int) bool, bool) {
	switch op {
	case expr.OpLt:
		return func(c int) bool { return c < 0 }, true
	case expr.OpLtEq:
		return func(c int) bool { return c <= 0 }, true
	case expr.OpGt:
		return func(c int) bool { return c > 0 }, true
	case expr.OpGtEq:
		return func(c int) bool { return c >= 0 }, true
	case expr.OpEq:
		return func(c int) bool { return c == 0 }, true
	case expr.OpNotEq:
		return func(c int) bool { return c != 0 }, true
	}
	return nil, false
}
