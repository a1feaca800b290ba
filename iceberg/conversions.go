package iceberg

import (
	"encoding/binary"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// SerializeValue encodes a value with the spec's binary single-value
// serialisation (Appendix D), as used for column bounds and partition
// summaries. v must be in the Go value form of t (see values.go).
func SerializeValue(t Type, v any) ([]byte, error) {
	if v == nil {
		return nil, fmt.Errorf("%w: cannot serialise null as %s", ErrTypeMismatch, t)
	}
	if err := ValidateValue(t, v); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case bool:
		if x {
			return []byte{1}, nil
		}
		return []byte{0}, nil
	case int32:
		return binary.LittleEndian.AppendUint32(nil, uint32(x)), nil
	case int64:
		return binary.LittleEndian.AppendUint64(nil, uint64(x)), nil
	case float32:
		return binary.LittleEndian.AppendUint32(nil, math.Float32bits(x)), nil
	case float64:
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(x)), nil
	case Date:
		return binary.LittleEndian.AppendUint32(nil, uint32(x)), nil
	case Time:
		return binary.LittleEndian.AppendUint64(nil, uint64(x)), nil
	case Timestamp:
		return binary.LittleEndian.AppendUint64(nil, uint64(x)), nil
	case TimestampNano:
		return binary.LittleEndian.AppendUint64(nil, uint64(x)), nil
	case string:
		return []byte(x), nil
	case UUID:
		return append([]byte(nil), x[:]...), nil
	case []byte:
		return append([]byte(nil), x...), nil
	case Decimal:
		return decimalMinBytes(x), nil
	case GeoPoint:
		return x.bytes(), nil
	}
	return nil, fmt.Errorf("%w: cannot serialise %T as %s", ErrTypeMismatch, v, t)
}

// DeserializeValue decodes the binary single-value form of a value of type
// t. A bound written before a type promotion is accepted by its width: a
// 4-byte long is an int, a 4-byte double is a float and a 4-byte timestamp
// is a date; the result is always in the Go form of t.
func DeserializeValue(t Type, b []byte) (any, error) {
	bad := func(want string) error {
		return fmt.Errorf("%w: %d-byte value for %s (want %s)", ErrTypeMismatch, len(b), t, want)
	}
	switch tt := t.(type) {
	case BooleanType:
		if len(b) != 1 {
			return nil, bad("1 byte")
		}
		return b[0] != 0, nil
	case IntType:
		if len(b) != 4 {
			return nil, bad("4 bytes")
		}
		return int32(binary.LittleEndian.Uint32(b)), nil
	case LongType:
		switch len(b) {
		case 4:
			return int64(int32(binary.LittleEndian.Uint32(b))), nil
		case 8:
			return int64(binary.LittleEndian.Uint64(b)), nil
		}
		return nil, bad("8 bytes, or 4 for a promoted int")
	case FloatType:
		if len(b) != 4 {
			return nil, bad("4 bytes")
		}
		return math.Float32frombits(binary.LittleEndian.Uint32(b)), nil
	case DoubleType:
		switch len(b) {
		case 4:
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), nil
		case 8:
			return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
		}
		return nil, bad("8 bytes, or 4 for a promoted float")
	case DateType:
		if len(b) != 4 {
			return nil, bad("4 bytes")
		}
		return Date(int32(binary.LittleEndian.Uint32(b))), nil
	case TimeType:
		if len(b) != 8 {
			return nil, bad("8 bytes")
		}
		us := int64(binary.LittleEndian.Uint64(b))
		if us < 0 || us >= microsPerDay {
			return nil, fmt.Errorf("%w: time of %d microseconds is outside a day", ErrTypeMismatch, us)
		}
		return Time(us), nil
	case TimestampType, TimestampTzType:
		switch len(b) {
		case 4:
			days := int64(int32(binary.LittleEndian.Uint32(b)))
			return Timestamp(days * microsPerDay), nil
		case 8:
			return Timestamp(int64(binary.LittleEndian.Uint64(b))), nil
		}
		return nil, bad("8 bytes, or 4 for a promoted date")
	case TimestampNsType, TimestampTzNsType:
		switch len(b) {
		case 4:
			days := int64(int32(binary.LittleEndian.Uint32(b)))
			return TimestampNano(days * nanosPerDay), nil
		case 8:
			return TimestampNano(int64(binary.LittleEndian.Uint64(b))), nil
		}
		return nil, bad("8 bytes, or 4 for a promoted date")
	case StringType:
		if !utf8.Valid(b) {
			return nil, fmt.Errorf("%w: string value is not valid UTF-8", ErrTypeMismatch)
		}
		return string(b), nil
	case UUIDType:
		if len(b) != 16 {
			return nil, bad("16 bytes")
		}
		var u UUID
		copy(u[:], b)
		return u, nil
	case FixedType:
		// Bounds of fixed columns may be truncated, so shorter is allowed.
		if len(b) > tt.Length {
			return nil, bad(fmt.Sprintf("at most %d bytes", tt.Length))
		}
		return append([]byte{}, b...), nil
	case BinaryType:
		return append([]byte{}, b...), nil
	case DecimalType:
		n, err := decimalFromBytes(b)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrTypeMismatch, t, err)
		}
		return Decimal{Unscaled: n, Scale: tt.Scale}, nil
	case GeometryType, GeographyType:
		// bounds only: a point (spec Appendix D)
		return geoPointFromBytes(t, b)
	}
	return nil, fmt.Errorf("%w: no single-value serialisation for %s", ErrUnsupported, t)
}

const microsPerDay = 86_400_000_000

// decimalMinBytes is the unscaled value as big-endian two's complement in
// the fewest bytes that keep the sign (zero is one 0x00 byte).
func decimalMinBytes(d Decimal) []byte {
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[:8], uint64(d.Unscaled.HighBits()))
	binary.BigEndian.PutUint64(buf[8:], d.Unscaled.LowBits())
	i := 0
	for i < 15 {
		if buf[i] == 0x00 && buf[i+1]&0x80 == 0 || buf[i] == 0xff && buf[i+1]&0x80 != 0 {
			i++
			continue
		}
		break
	}
	return append([]byte(nil), buf[i:]...)
}

// decimalFromBytes sign-extends big-endian two's complement bytes into a
// 128-bit value.
func decimalFromBytes(b []byte) (decimal128.Num, error) {
	if len(b) == 0 {
		return decimal128.Num{}, fmt.Errorf("empty decimal value")
	}
	// Redundant sign bytes beyond 16 are harmless; anything else overflows.
	for len(b) > 16 {
		if !(b[0] == 0x00 && b[1]&0x80 == 0 || b[0] == 0xff && b[1]&0x80 != 0) {
			return decimal128.Num{}, fmt.Errorf("decimal value of %d bytes overflows 128 bits", len(b))
		}
		b = b[1:]
	}
	var buf [16]byte
	if b[0]&0x80 != 0 {
		for i := range buf {
			buf[i] = 0xff
		}
	}
	copy(buf[16-len(b):], b)
	return decimal128.New(int64(binary.BigEndian.Uint64(buf[:8])), binary.BigEndian.Uint64(buf[8:])), nil
}

// ValidateValue reports whether v is in the Go value form of type t (nil is
// always accepted: nullability is the caller's concern). Decimals must carry
// the type's scale and fit its precision; fixed values must have its length.
func ValidateValue(t Type, v any) error {
	if v == nil {
		return nil
	}
	ok := false
	switch tt := t.(type) {
	case BooleanType:
		_, ok = v.(bool)
	case IntType:
		_, ok = v.(int32)
	case LongType:
		_, ok = v.(int64)
	case FloatType:
		_, ok = v.(float32)
	case DoubleType:
		_, ok = v.(float64)
	case DateType:
		_, ok = v.(Date)
	case TimeType:
		var tm Time
		if tm, ok = v.(Time); ok && (tm < 0 || tm >= microsPerDay) {
			return fmt.Errorf("%w: time of %d microseconds is outside a day", ErrTypeMismatch, int64(tm))
		}
	case TimestampType, TimestampTzType:
		_, ok = v.(Timestamp)
	case TimestampNsType, TimestampTzNsType:
		_, ok = v.(TimestampNano)
	case StringType:
		var s string
		if s, ok = v.(string); ok && !utf8.ValidString(s) {
			return fmt.Errorf("%w: string value is not valid UTF-8", ErrTypeMismatch)
		}
	case UUIDType:
		_, ok = v.(UUID)
	case BinaryType:
		_, ok = v.([]byte)
	case FixedType:
		var b []byte
		if b, ok = v.([]byte); ok && len(b) != tt.Length {
			return fmt.Errorf("%w: %d bytes for %s", ErrTypeMismatch, len(b), t)
		}
	case GeometryType, GeographyType:
		// only bounds have a single-value form, and they are points
		_, ok = v.(GeoPoint)
	case UnknownType:
		return fmt.Errorf("%w: %T value for unknown, whose values are always null", ErrTypeMismatch, v)
	case DecimalType:
		var d Decimal
		if d, ok = v.(Decimal); ok {
			if d.Scale != tt.Scale {
				return fmt.Errorf("%w: decimal of scale %d for %s", ErrTypeMismatch, d.Scale, t)
			}
			if !d.Unscaled.FitsInPrecision(int32(tt.Precision)) {
				return fmt.Errorf("%w: %s does not fit %s", ErrTypeMismatch, d, t)
			}
		}
	default:
		return fmt.Errorf("%w: %s is not a primitive type", ErrTypeMismatch, t)
	}
	if !ok {
		return fmt.Errorf("%w: Go value of type %T for %s", ErrTypeMismatch, v, t)
	}
	return nil
}
