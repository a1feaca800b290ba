package expr

import (
	"bytes"
	"math"
	"math/big"

	"github.com/icesql/icesql/iceberg"
)

// compareValues orders two values in the Go value form. Floats use Java's
// total order (-0 before +0, NaN after everything), as Iceberg's bound
// comparators do. Integer-like values (int, long, date, time, timestamp)
// compare numerically across kinds, which tolerates a partition value read
// as a date where a transform produced an int. ok is false when the values
// are not comparable.
func compareValues(a, b any) (c int, ok bool) {
	if x, ok := integerValue(a); ok {
		y, ok := integerValue(b)
		if !ok {
			return 0, false
		}
		return cmpOrdered(x, y), true
	}
	switch x := a.(type) {
	case bool:
		y, ok := b.(bool)
		if !ok {
			return 0, false
		}
		return cmpBool(x, y), true
	case float32:
		if y, ok := b.(float32); ok {
			return cmpFloat(float64(x), float64(y)), true
		}
		if y, ok := b.(float64); ok {
			return cmpFloat(float64(x), y), true
		}
	case float64:
		if y, ok := b.(float64); ok {
			return cmpFloat(x, y), true
		}
		if y, ok := b.(float32); ok {
			return cmpFloat(x, float64(y)), true
		}
	case string:
		y, ok := b.(string)
		if !ok {
			return 0, false
		}
		return cmpOrdered(x, y), true
	case []byte:
		y, ok := b.([]byte)
		if !ok {
			return 0, false
		}
		return bytes.Compare(x, y), true
	case iceberg.UUID:
		y, ok := b.(iceberg.UUID)
		if !ok {
			return 0, false
		}
		return bytes.Compare(x[:], y[:]), true
	case iceberg.Decimal:
		y, ok := b.(iceberg.Decimal)
		if !ok {
			return 0, false
		}
		return cmpDecimal(x, y), true
	}
	return 0, false
}

func integerValue(v any) (int64, bool) {
	switch x := v.(type) {
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case iceberg.Date:
		return int64(x), true
	case iceberg.Time:
		return int64(x), true
	case iceberg.Timestamp:
		return int64(x), true
	}
	return 0, false
}

func cmpOrdered[T int64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// cmpFloat is Java's Double.compare.
func cmpFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	// equal or ±0: order -0 first by comparing sign bits
	sa, sb := math.Signbit(a), math.Signbit(b)
	switch {
	case sa == sb:
		return 0
	case sa:
		return -1
	}
	return 1
}

func cmpDecimal(a, b iceberg.Decimal) int {
	if a.Scale == b.Scale {
		return a.Unscaled.Cmp(b.Unscaled)
	}
	x, y := a.Unscaled.BigInt(), b.Unscaled.BigInt()
	if a.Scale < b.Scale {
		x.Mul(x, pow10(b.Scale-a.Scale))
	} else {
		y.Mul(y, pow10(a.Scale-b.Scale))
	}
	return x.Cmp(y)
}

func pow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

func isNaNValue(v any) bool {
	switch x := v.(type) {
	case float32:
		return math.IsNaN(float64(x))
	case float64:
		return math.IsNaN(x)
	}
	return false
}
