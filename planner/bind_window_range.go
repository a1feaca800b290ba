package planner

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/sqlexec/exec"
)

// rangeFrameError reports a RANGE offset the query cannot have; it
// wraps ErrInvalidQuery and an *exec.FrameError.
func rangeFrameError(frame, reason string, args ...any) error {
	return fmt.Errorf("%w: %w", ErrInvalidQuery, &exec.FrameError{Frame: frame, Reason: fmt.Sprintf(reason, args...)})
}

// rangeOffset converts the offset of a RANGE bound (n PRECEDING/FOLLOWING
// or INTERVAL n unit PRECEDING/FOLLOWING) into the units of the single
// ORDER BY key, following PostgreSQL and Spark: numeric keys take a
// number, dates a whole number of days or an interval, timestamps an
// interval. Over whole-numbered keys (integers, decimals at their scale)
// a fractional offset rounds so the frame keeps exactly the keys within
// it: up when the bound moves toward the frame's inside (a start that
// FOLLOWS, an end that PRECEDES), down otherwise.
func (b *binder) rangeOffset(fb ast.FrameBound, up bool, order []SortKey, frame string, sc *scope) (exec.RangeOffset, error) {
	text := restore(fb.Expr)
	if fb.Unit != ast.TimeUnitInvalid {
		text = "INTERVAL " + text + " " + strings.ToUpper(fb.Unit.String())
	}
	if len(order) != 1 {
		return exec.RangeOffset{}, rangeFrameError(frame, "RANGE with an offset needs exactly one ORDER BY key, got %d", len(order))
	}
	keyType := order[0].Expr.DataType()
	v, t, err := b.constantOffset(fb.Expr, frame, sc)
	if err != nil {
		return exec.RangeOffset{}, err
	}
	out := exec.RangeOffset{Text: text}
	switch {
	case fb.Unit != ast.TimeUnitInvalid:
		if !isTemporal(keyType) {
			return out, rangeFrameError(frame, "an INTERVAL offset needs a DATE or TIMESTAMP ORDER BY key, not %s", typeName(keyType))
		}
		return intervalOffset(out, v, t, fb.Unit, frame)
	case isTemporal(keyType):
		r, err := offsetRat(v, t, frame)
		if err != nil {
			return out, err
		}
		if keyType.ID() != arrow.DATE32 || !r.IsInt() {
			return out, rangeFrameError(frame, "a %s ORDER BY key takes an INTERVAL offset (a DATE also a whole number of days), not %s", typeName(keyType), text)
		}
		out.Micros = satMul(roundInt(r, false, math.MaxInt64), exec.MicrosPerDay)
		return out, nil
	case !isNumeric(keyType):
		return out, fmt.Errorf("%w: %w", ErrUnsupported, &exec.FrameError{Frame: frame,
			Reason: fmt.Sprintf("RANGE with an offset needs a numeric, DATE or TIMESTAMP ORDER BY key, not %s", typeName(keyType))})
	}
	if t.ID() == arrow.FLOAT64 || t.ID() == arrow.FLOAT32 {
		if f, ok := v.(float64); ok && math.IsInf(f, 1) && !isInteger(keyType) && keyType.ID() != arrow.DECIMAL128 {
			out.Float = f
			return out, nil
		}
	}
	r, err := offsetRat(v, t, frame)
	if err != nil {
		return out, err
	}
	switch {
	case isInteger(keyType):
		out.Int = roundInt(r, up, math.MaxInt64)
	case keyType.ID() == arrow.DECIMAL128:
		scale := keyType.(*arrow.Decimal128Type).Scale
		scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
		limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
		q := roundBig(scaled, up)
		if q.Cmp(limit) > 0 {
			q = limit
		}
		out.Dec = decimal128.FromBigInt(q)
	default:
		out.Float, _ = r.Float64()
	}
	return out, nil
}

// constantOffset evaluates an offset, which must not read columns.
func (b *binder) constantOffset(n ast.ExprNode, frame string, sc *scope) (any, arrow.DataType, error) {
	e, err := b.bindExpr(n, sc)
	if err != nil {
		return nil, nil, err
	}
	constant := true
	walkExpr(e, func(c Expr) {
		switch c.(type) {
		case *ColumnRef, *OuterRef, *ScalarSubquery, *Exists, *InSubquery:
			constant = false
		}
	})
	if !constant {
		return nil, nil, rangeFrameError(frame, "the offset %s must be a constant", e)
	}
	v, err := evalConstant(NewEvalContext(nil, nil), e)
	if err != nil {
		return nil, nil, err
	}
	if v == nil {
		return nil, nil, rangeFrameError(frame, "the offset must not be NULL")
	}
	return v, e.DataType(), nil
}

// offsetRat is a numeric offset as an exact non-negative rational.
func offsetRat(v any, t arrow.DataType, frame string) (*big.Rat, error) {
	r := new(big.Rat)
	switch x := v.(type) {
	case int64:
		r.SetInt64(x)
	case int32:
		r.SetInt64(int64(x))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, rangeFrameError(frame, "the offset %v is not a finite number", x)
		}
		r.SetFloat64(x)
	case decimal128.Num:
		scale := int64(t.(*arrow.Decimal128Type).Scale)
		r.SetFrac(x.BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(scale), nil))
	case string:
		if _, ok := r.SetString(strings.TrimSpace(x)); !ok {
			return nil, rangeFrameError(frame, "the offset %q is not a number", x)
		}
	default:
		return nil, rangeFrameError(frame, "the offset has type %s, want a number", typeName(t))
	}
	if r.Sign() < 0 {
		return nil, rangeFrameError(frame, "the offset %s must not be negative", r.RatString())
	}
	return r, nil
}

// roundBig rounds a non-negative r down, or up when up is set.
func roundBig(r *big.Rat, up bool) *big.Int {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if up && m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// roundInt is roundBig capped at limit.
func roundInt(r *big.Rat, up bool, limit int64) int64 {
	q := roundBig(r, up)
	if !q.IsInt64() || q.Int64() > limit {
		return limit
	}
	return q.Int64()
}

func satMul(a, b int64) int64 {
	if a != 0 && a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// intervalUnits are the INTERVAL units a RANGE offset takes: calendar
// months or a fixed number of microseconds.
var intervalUnits = map[ast.TimeUnitType]struct{ months, micros int64 }{
	ast.TimeUnitYear:        {months: 12},
	ast.TimeUnitQuarter:     {months: 3},
	ast.TimeUnitMonth:       {months: 1},
	ast.TimeUnitWeek:        {micros: 7 * exec.MicrosPerDay},
	ast.TimeUnitDay:         {micros: exec.MicrosPerDay},
	ast.TimeUnitHour:        {micros: 3600_000_000},
	ast.TimeUnitMinute:      {micros: 60_000_000},
	ast.TimeUnitSecond:      {micros: 1_000_000},
	ast.TimeUnitMicrosecond: {micros: 1},
}

func intervalOffset(out exec.RangeOffset, v any, t arrow.DataType, unit ast.TimeUnitType, frame string) (exec.RangeOffset, error) {
	u, ok := intervalUnits[unit]
	if !ok {
		return out, fmt.Errorf("%w: %w", ErrUnsupported, &exec.FrameError{Frame: frame,
			Reason: fmt.Sprintf("INTERVAL unit %s in a RANGE offset", strings.ToUpper(unit.String()))})
	}
	if s, isStr := v.(string); isStr {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return out, rangeFrameError(frame, "the INTERVAL count %q is not a whole number", s)
		}
		v, t = n, typeLong
	}
	r, err := offsetRat(v, t, frame)
	if err != nil {
		return out, err
	}
	if !r.IsInt() {
		return out, rangeFrameError(frame, "the INTERVAL count %s is not a whole number", r.RatString())
	}
	n := roundInt(r, false, math.MaxInt64)
	out.Months = satMul(n, max(u.months, 1))
	if u.months == 0 {
		out.Months = 0
		out.Micros = satMul(n, u.micros)
	}
	return out, nil
}

// bindRangeBound binds one offset bound of a RANGE frame.
func (b *binder) bindRangeBound(fb ast.FrameBound, kind exec.BoundKind, end bool, order []SortKey, frame string, sc *scope) (exec.FrameBound, error) {
	off, err := b.rangeOffset(fb, (kind == exec.BoundFollowing) != end, order, frame, sc)
	if err != nil {
		return exec.FrameBound{}, err
	}
	return exec.FrameBound{Kind: kind, Range: off}, nil
}
