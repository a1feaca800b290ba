package exec

import "cmp"

// CompareNested orders two values of one type in the NestedValueAt form:
// primitives as CompareValues does, lists and maps element by element
// then by length, structs field by field. NULL sorts before any value.
func CompareNested(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	switch x := a.(type) {
	case []any:
		y, _ := b.([]any)
		return compareSeq(x, y)
	case MapValue:
		y, _ := b.(MapValue)
		if c := compareSeq(x.Keys, y.Keys); c != 0 {
			return c
		}
		return compareSeq(x.Values, y.Values)
	case StructValue:
		y, _ := b.(StructValue)
		return compareSeq(x.Fields, y.Fields)
	}
	return CompareValues(a, b)
}

func compareSeq(x, y []any) int {
	for i := 0; i < len(x) && i < len(y); i++ {
		if c := CompareNested(x[i], y[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(x), len(y))
}
