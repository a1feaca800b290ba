package expr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// Bind resolves an expression's column names against schema, converts its
// literals to the columns' types and pushes NOT down to the predicates.
// Predicates that cannot match or always match are folded to constants
// (IS NULL on a required column, a literal beyond the type's range), as
// Java's binder does. Errors are *BindError wrapping iceberg.ErrNoSuchField,
// ErrInvalidLiteral or ErrInvalidPredicate.
func Bind(schema *iceberg.Schema, e Expr, caseSensitive bool) (BoundExpr, error) {
	return bind(schema, e, caseSensitive, false)
}

func bind(schema *iceberg.Schema, e Expr, cs, negate bool) (BoundExpr, error) {
	switch x := e.(type) {
	case nil:
		return nil, fmt.Errorf("%w: nil expression", iceberg.ErrInvalidExpression)
	case AlwaysTrue:
		if negate {
			return AlwaysFalse{}, nil
		}
		return x, nil
	case AlwaysFalse:
		if negate {
			return AlwaysTrue{}, nil
		}
		return x, nil
	case *NotExpr:
		return bind(schema, x.Child, cs, !negate)
	case *AndExpr, *OrExpr:
		var l, r Expr
		isAnd := false
		if a, ok := x.(*AndExpr); ok {
			l, r, isAnd = a.Left, a.Right, true
		} else {
			o := x.(*OrExpr)
			l, r = o.Left, o.Right
		}
		bl, err := bind(schema, l, cs, negate)
		if err != nil {
			return nil, err
		}
		br, err := bind(schema, r, cs, negate)
		if err != nil {
			return nil, err
		}
		if isAnd != negate { // De Morgan
			return AndBound(bl, br), nil
		}
		return OrBound(bl, br), nil
	case *Predicate:
		b, err := bindPredicate(schema, x, cs)
		if err != nil || !negate {
			return b, err
		}
		return NegateBound(b), nil
	}
	return nil, fmt.Errorf("%w: unknown expression %T", iceberg.ErrInvalidExpression, e)
}

func bindPredicate(schema *iceberg.Schema, p *Predicate, cs bool) (BoundExpr, error) {
	fail := func(sentinel error, format string, args ...any) error {
		return &BindError{Column: p.Column, Predicate: p.String(), Reason: fmt.Sprintf(format, args...), Err: sentinel}
	}
	if p.Op < OpIsNull || p.Op > OpNotIn {
		return nil, fail(ErrInvalidPredicate, "unknown operation %d", int(p.Op))
	}
	var field iceberg.NestedField
	var ok bool
	if cs {
		field, ok = schema.FindFieldByName(p.Column)
	} else {
		field, ok = schema.FindFieldByNameCaseInsensitive(p.Column)
	}
	if !ok {
		return nil, fail(iceberg.ErrNoSuchField, "no such column")
	}
	if err := checkStructPath(schema, field.ID); err != nil {
		return nil, fail(ErrInvalidPredicate, "%v", err)
	}
	prim, ok := field.Type.(iceberg.PrimitiveType)
	if !ok {
		return nil, fail(ErrInvalidPredicate, "cannot filter on a %s column", field.Type)
	}
	name, _ := schema.FindColumnName(field.ID)
	bp := &BoundPredicate{Op: p.Op, FieldID: field.ID, Name: name, Type: prim}

	switch p.Op {
	case OpIsNull, OpNotNull:
		if len(p.Literals) != 0 {
			return nil, fail(ErrInvalidPredicate, "%s takes no literal", p.Op)
		}
		if field.Required {
			if p.Op == OpIsNull {
				return AlwaysFalse{}, nil
			}
			return AlwaysTrue{}, nil
		}
		if _, unknown := prim.(iceberg.UnknownType); unknown {
			// values of unknown are always null
			if p.Op == OpIsNull {
				return AlwaysTrue{}, nil
			}
			return AlwaysFalse{}, nil
		}
		return bp, nil
	case OpIsNaN, OpNotNaN:
		if len(p.Literals) != 0 {
			return nil, fail(ErrInvalidPredicate, "%s takes no literal", p.Op)
		}
		if !isFloating(prim) {
			return nil, fail(ErrInvalidPredicate, "%s needs a float or double column, not %s", p.Op, prim)
		}
		return bp, nil
	case OpStartsWith, OpNotStartsWith:
		if _, ok := prim.(iceberg.StringType); !ok {
			return nil, fail(ErrInvalidPredicate, "%s needs a string column, not %s", p.Op, prim)
		}
	}

	if p.Op.IsSet() {
		return bindSet(bp, p, fail)
	}
	if len(p.Literals) != 1 {
		return nil, fail(ErrInvalidPredicate, "%s takes one literal, got %d", p.Op, len(p.Literals))
	}
	v, f, err := convertLiteral(prim, p.Literals[0])
	if err != nil {
		return nil, literalError(fail, prim, p.Literals[0], err)
	}
	return adjustForFit(bp, v, f), nil
}

func literalError(fail func(error, string, ...any) error, t iceberg.Type, lit any, err error) error {
	if errors.Is(err, errNoConversion) {
		return fail(ErrInvalidLiteral, "cannot compare %s with %s literal %s", t, literalKind(lit), formatAny(lit))
	}
	return fail(ErrInvalidLiteral, "literal %s for %s: %v", formatAny(lit), t, err)
}

func literalKind(v any) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", v), "iceberg.")
}

// adjustForFit folds or adjusts a comparison whose literal was out of
// range or fell between two representable values.
func adjustForFit(bp *BoundPredicate, v any, f fit) BoundExpr {
	op := bp.Op
	switch f {
	case fitAboveMax:
		switch op {
		case OpLt, OpLtEq, OpNotEq:
			return AlwaysTrue{}
		default:
			return AlwaysFalse{}
		}
	case fitBelowMin:
		switch op {
		case OpGt, OpGtEq, OpNotEq:
			return AlwaysTrue{}
		default:
			return AlwaysFalse{}
		}
	case fitFloor: // floor(x) < x < floor(x)+1
		switch op {
		case OpLt, OpLtEq:
			op = OpLtEq
		case OpGt, OpGtEq:
			op = OpGt
		case OpEq:
			return AlwaysFalse{}
		case OpNotEq:
			return AlwaysTrue{}
		}
	}
	bp.Op = op
	bp.Literals = []any{v}
	return bp
}

func bindSet(bp *BoundPredicate, p *Predicate, fail func(error, string, ...any) error) (BoundExpr, error) {
	set := newLiteralSet()
	for _, lit := range p.Literals {
		v, f, err := convertLiteral(bp.Type, lit)
		if err != nil {
			return nil, literalError(fail, bp.Type, lit, err)
		}
		if f == fitExact { // other literals cannot equal any value
			set.add(v)
		}
	}
	switch {
	case set.len() == 0 && p.Op == OpIn:
		return AlwaysFalse{}, nil
	case set.len() == 0:
		return AlwaysTrue{}, nil
	case set.len() == 1:
		bp.Op = OpEq
		if p.Op == OpNotIn {
			bp.Op = OpNotEq
		}
	}
	bp.Literals = set.values
	return bp, nil
}

// checkStructPath rejects fields inside lists and maps, which have no
// single value per row.
func checkStructPath(schema *iceberg.Schema, id int) error {
	for p := schema.ParentID(id); p != 0; p = schema.ParentID(p) {
		f, _ := schema.FindFieldByID(p)
		if _, ok := f.Type.(*iceberg.StructType); !ok {
			return fmt.Errorf("the column is inside a %s", f.Type)
		}
	}
	return nil
}

func isFloating(t iceberg.Type) bool {
	switch t.(type) {
	case iceberg.FloatType, iceberg.DoubleType:
		return true
	}
	return false
}
