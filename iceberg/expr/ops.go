package expr

// Op is a predicate operation.
type Op int

// The operations, in the order of opNames.
const (
	OpIsNull Op = iota
	OpNotNull
	OpIsNaN
	OpNotNaN
	OpLt
	OpLtEq
	OpGt
	OpGtEq
	OpEq
	OpNotEq
	OpStartsWith
	OpNotStartsWith
	OpIn
	OpNotIn
)

var opNames = [...]string{
	OpIsNull:        "IS NULL",
	OpNotNull:       "IS NOT NULL",
	OpIsNaN:         "IS NAN",
	OpNotNaN:        "IS NOT NAN",
	OpLt:            "<",
	OpLtEq:          "<=",
	OpGt:            ">",
	OpGtEq:          ">=",
	OpEq:            "=",
	OpNotEq:         "!=",
	OpStartsWith:    "STARTS WITH",
	OpNotStartsWith: "NOT STARTS WITH",
	OpIn:            "IN",
	OpNotIn:         "NOT IN",
}

func (op Op) String() string {
	if op < 0 || int(op) >= len(opNames) {
		return "UNKNOWN"
	}
	return opNames[op]
}

// Negate returns the operation matching exactly the rows op does not match
// (under SQL null semantics, nulls match neither a comparison nor its
// negation, which is why NOT can be pushed down to the leaves).
func (op Op) Negate() Op {
	switch op {
	case OpIsNull:
		return OpNotNull
	case OpNotNull:
		return OpIsNull
	case OpIsNaN:
		return OpNotNaN
	case OpNotNaN:
		return OpIsNaN
	case OpLt:
		return OpGtEq
	case OpLtEq:
		return OpGt
	case OpGt:
		return OpLtEq
	case OpGtEq:
		return OpLt
	case OpEq:
		return OpNotEq
	case OpNotEq:
		return OpEq
	case OpStartsWith:
		return OpNotStartsWith
	case OpNotStartsWith:
		return OpStartsWith
	case OpIn:
		return OpNotIn
	case OpNotIn:
		return OpIn
	}
	return op
}

// IsUnary reports whether op takes no literal.
func (op Op) IsUnary() bool { return op <= OpNotNaN }

// IsSet reports whether op takes a set of literals.
func (op Op) IsSet() bool { return op == OpIn || op == OpNotIn }
