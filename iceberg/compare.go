package iceberg

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// CompareValues orders two non-null values in the Go value form (see
// values.go) and reports ok=false when they are not comparable: nil, a type
// outside the value form, or two kinds with no common order.
//
// Floats follow the Iceberg sort order, which is Java's Double.compare:
// -0 before +0 and NaN after everything. Integer-like values (int, long,
// date, time, timestamp) compare numerically across kinds, because a
// partition value may be read back as a date where a transform produced an
// int. Decimals of different scales compare exactly.
func CompareValues(a, b any) (c int, ok bool) {
	if x, ok := integerValue(a); ok {
		y, ok := integerValue(b)
		if !ok {
			return 0, false
		}
		return cmp.Compare(x, y), true
	}
	switch x := a.(type) {
	case bool:
		if y, ok := b.(bool); ok {
			return compareBools(x, y), true
		}
	case float32:
		if y, ok := floatValue(b); ok {
			return CompareFloats(float64(x), y), true
		}
	case float64:
		if y, ok := floatValue(b); ok {
			return CompareFloats(x, y), true
		}
	case string:
		if y, ok := b.(string); ok {
			return cmp.Compare(x, y), true
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y), true
		}
	case UUID:
		if y, ok := b.(UUID); ok {
			return bytes.Compare(x[:], y[:]), true
		}
	case Decimal:
		if y, ok := b.(Decimal); ok {
			return compareDecimals(x, y), true
		}
	}
	return 0, false
}

// CompareFloats is Java's Double.compare: a total order with -0 before +0
// and NaN after +Inf, as Iceberg requires of sort orders and bounds.
func CompareFloats(a, b float64) int {
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
	// Equal, or -0 against +0: the sign bit decides.
	sa, sb := math.Signbit(a), math.Signbit(b)
	switch {
	case sa == sb:
		return 0
	case sa:
		return -1
	}
	return 1
}

// IsNaN reports whether v is a float32 or float64 NaN.
func IsNaN(v any) bool {
	switch x := v.(type) {
	case float32:
		return math.IsNaN(float64(x))
	case float64:
		return math.IsNaN(x)
	}
	return false
}

func integerValue(v any) (int64, bool) {
	switch x := v.(type) {
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case Date:
		return int64(x), true
	case Time:
		return int64(x), true
	case Timestamp:
		return int64(x), true
	case TimestampNano:
		return int64(x), true
	}
	return 0, false
}

func floatValue(v any) (float64, bool) {
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

func compareBools(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

func compareDecimals(a, b Decimal) int {
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

// PartitionKey is a map key identifying a partition: the spec id and the
// tuple's values. Each value is tagged with its kind and strings are
// quoted, so tuples that differ never share a key, even when a string
// holds the separator.
func PartitionKey(specID int, values []any) string {
	b := strconv.AppendInt(nil, int64(specID), 10)
	for _, v := range values {
		switch x := v.(type) {
		case nil:
			b = append(b, "|n"...)
		case string:
			b = strconv.AppendQuote(append(b, "|s"...), x)
		case []byte:
			b = hex.AppendEncode(append(b, "|b"...), x)
		case Decimal:
			b = append(append(b, "|d"...), x.String()...)
		default:
			b = fmt.Appendf(b, "|%T:%v", x, x)
		}
	}
	return string(b)
}
