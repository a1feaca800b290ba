package expr

import "github.com/icesql/icesql/iceberg"

// literalSet keeps distinct literals in insertion order with a hashed
// lookup, so IN over many values stays linear.
type literalSet struct {
	values []any
	index  map[any]struct{}
}

func newLiteralSet() *literalSet { return &literalSet{index: map[any]struct{}{}} }

func (s *literalSet) len() int { return len(s.values) }

func (s *literalSet) add(v any) {
	k := setKey(v)
	if _, dup := s.index[k]; dup {
		return
	}
	s.index[k] = struct{}{}
	s.values = append(s.values, v)
}

func (s *literalSet) contains(v any) bool {
	_, ok := s.index[setKey(v)]
	return ok
}

type bytesKey string

// setKey maps a value to a comparable key that equal values share.
func setKey(v any) any {
	switch x := v.(type) {
	case []byte:
		return bytesKey(x)
	case iceberg.Decimal:
		return x.String()
	case float32:
		if x == 0 {
			return float32(0) // -0 = +0 for equality
		}
	case float64:
		if x == 0 {
			return float64(0)
		}
	}
	if n, ok := integerValue(v); ok {
		return n
	}
	return v
}

// literalSetOf indexes the literals of a bound set predicate.
func literalSetOf(lits []any) *literalSet {
	s := newLiteralSet()
	for _, v := range lits {
		s.add(v)
	}
	return s
}
