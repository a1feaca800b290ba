package manifest

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/icesql/icesql/iceberg"
)

// appendPartitionValue encodes a non-null partition value in the Go value
// form (iceberg/values.go) as the Avro type partitionAvroType chose.
func appendPartitionValue(b []byte, f iceberg.NestedField, v any) ([]byte, error) {
	bad := func() ([]byte, error) {
		return nil, &ValueError{FieldID: f.ID, Field: f.Name, Type: f.Type, Value: v}
	}
	switch t := f.Type.(type) {
	case iceberg.BooleanType:
		if x, ok := v.(bool); ok {
			return appendBool(b, x), nil
		}
	case iceberg.IntType:
		if x, ok := v.(int32); ok {
			return appendInt(b, x), nil
		}
	case iceberg.LongType:
		if x, ok := v.(int64); ok {
			return appendLong(b, x), nil
		}
	case iceberg.FloatType:
		if x, ok := v.(float32); ok {
			return appendFloat(b, x), nil
		}
	case iceberg.DoubleType:
		if x, ok := v.(float64); ok {
			return appendDouble(b, x), nil
		}
	case iceberg.DateType:
		if x, ok := v.(iceberg.Date); ok {
			return appendInt(b, int32(x)), nil
		}
	case iceberg.TimeType:
		if x, ok := v.(iceberg.Time); ok {
			return appendLong(b, int64(x)), nil
		}
	case iceberg.TimestampType, iceberg.TimestampTzType:
		if x, ok := v.(iceberg.Timestamp); ok {
			return appendLong(b, int64(x)), nil
		}
	case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		if x, ok := v.(iceberg.TimestampNano); ok {
			return appendLong(b, int64(x)), nil
		}
	case iceberg.StringType:
		if x, ok := v.(string); ok {
			return appendString(b, x), nil
		}
	case iceberg.BinaryType:
		if x, ok := v.([]byte); ok {
			return appendBytes(b, x), nil
		}
	case iceberg.UUIDType:
		if x, ok := v.(iceberg.UUID); ok {
			return append(b, x[:]...), nil
		}
	case iceberg.FixedType:
		if x, ok := v.([]byte); ok && len(x) == t.Length {
			return append(b, x...), nil
		}
	case iceberg.DecimalType:
		if x, ok := v.(iceberg.Decimal); ok && x.Scale == t.Scale {
			size := decimalRequiredBytes(t.Precision)
			if enc, ok := decimalToFixed(x.Unscaled, size); ok {
				return append(b, enc...), nil
			}
		}
	}
	return bad()
}

// decimalToFixed writes the unscaled value as big-endian two's complement
// in exactly size bytes; false when it does not fit.
func decimalToFixed(n decimal128.Num, size int) ([]byte, bool) {
	var full [16]byte
	binary.BigEndian.PutUint64(full[:8], uint64(n.HighBits()))
	binary.BigEndian.PutUint64(full[8:], n.LowBits())
	sign := byte(0)
	if n.Sign() < 0 {
		sign = 0xff
	}
	for _, c := range full[:16-size] {
		if c != sign {
			return nil, false
		}
	}
	out := full[16-size:]
	if (out[0]&0x80 != 0) != (sign == 0xff) {
		return nil, false
	}
	return append([]byte(nil), out...), true
}

// decimalFromBytes reads big-endian two's complement of at most 16 bytes.
func decimalFromBytes(p []byte) (decimal128.Num, bool) {
	if len(p) == 0 || len(p) > 16 {
		return decimal128.Num{}, false
	}
	var full [16]byte
	if p[0]&0x80 != 0 {
		for i := range full {
			full[i] = 0xff
		}
	}
	copy(full[16-len(p):], p)
	return decimal128.New(int64(binary.BigEndian.Uint64(full[:8])), binary.BigEndian.Uint64(full[8:])), true
}

// minimalDecimalBytes is the single-value form of a decimal: the fewest
// big-endian two's complement bytes.
func minimalDecimalBytes(n decimal128.Num) []byte {
	for size := 1; size <= 16; size++ {
		if b, ok := decimalToFixed(n, size); ok {
			return b
		}
	}
	return nil // unreachable: 16 bytes always fit
}

// singleValue is the Iceberg single-value binary form of a partition value
// (spec Appendix D), used for the manifest list's partition summaries.
func singleValue(v any) []byte {
	switch x := v.(type) {
	case bool:
		if x {
			return []byte{1}
		}
		return []byte{0}
	case int32:
		return binary.LittleEndian.AppendUint32(nil, uint32(x))
	case iceberg.Date:
		return binary.LittleEndian.AppendUint32(nil, uint32(x))
	case int64:
		return binary.LittleEndian.AppendUint64(nil, uint64(x))
	case iceberg.Time:
		return binary.LittleEndian.AppendUint64(nil, uint64(x))
	case iceberg.Timestamp:
		return binary.LittleEndian.AppendUint64(nil, uint64(x))
	case float32:
		return binary.LittleEndian.AppendUint32(nil, math.Float32bits(x))
	case float64:
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(x))
	case string:
		return []byte(x)
	case []byte:
		return append([]byte{}, x...)
	case iceberg.UUID:
		return append([]byte(nil), x[:]...)
	case iceberg.Decimal:
		return minimalDecimalBytes(x.Unscaled)
	}
	return nil
}
