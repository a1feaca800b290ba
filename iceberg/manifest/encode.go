package manifest

import (
	"encoding/binary"
	"math"
)

// Avro binary encoding of single values, appended to a buffer; the
// container framing is left to hamba/avro's ocf encoder.

func appendLong(b []byte, v int64) []byte {
	return binary.AppendUvarint(b, uint64((v<<1)^(v>>63)))
}

func appendInt(b []byte, v int32) []byte { return appendLong(b, int64(v)) }

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendFloat(b []byte, v float32) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
}

func appendDouble(b []byte, v float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

func appendBytes(b []byte, p []byte) []byte {
	b = appendLong(b, int64(len(p)))
	return append(b, p...)
}

func appendString(b []byte, s string) []byte {
	b = appendLong(b, int64(len(s)))
	return append(b, s...)
}

// Union branch indexes for ["null", T].
func appendNull(b []byte) []byte { return append(b, 0) }
func appendSome(b []byte) []byte { return append(b, 2) } // zigzag(1)
