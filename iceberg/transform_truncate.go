package iceberg

import "github.com/apache/arrow-go/v18/arrow/decimal128"

func (TruncateTransform) CanTransform(src Type) bool {
	switch src.(type) {
	case IntType, LongType, DecimalType, StringType, BinaryType:
		return true
	}
	return false
}

func (TruncateTransform) ResultType(src Type) Type { return src }

// Apply truncates v; numbers round towards negative infinity to a multiple
// of W (decimals on the unscaled value), strings keep W code points and
// binaries W bytes. Values of other types give nil.
func (t TruncateTransform) Apply(v any) any {
	if t.W <= 0 {
		return nil
	}
	switch x := v.(type) {
	case int32:
		w := int32(t.W)
		return x - (((x % w) + w) % w)
	case int64:
		w := int64(t.W)
		return x - (((x % w) + w) % w)
	case Decimal:
		w := decimal128.FromI64(int64(t.W))
		_, rem := x.Unscaled.Div(w)
		rem = rem.Add(w)
		_, rem = rem.Div(w)
		return Decimal{Unscaled: x.Unscaled.Sub(rem), Scale: x.Scale}
	case string:
		return truncateString(x, t.W)
	case []byte:
		if len(x) > t.W {
			return append([]byte(nil), x[:t.W]...)
		}
		return x
	}
	return nil
}
