package iceberg

import (
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// The Go form of Iceberg values, used for partition tuples, literals in
// expressions, defaults and bounds before serialisation:
//
//	boolean      bool
//	int          int32
//	long         int64
//	float        float32
//	double       float64
//	decimal      Decimal
//	date         Date      (days since 1970-01-01)
//	time         Time      (microseconds since midnight)
//	timestamp    Timestamp (microseconds since epoch, no zone)
//	timestamptz  Timestamp (microseconds since epoch, UTC)
//	string       string
//	uuid         UUID
//	fixed/binary []byte
//
// A nil value is null.

// Date is days since 1970-01-01.
type Date int32

// Time is microseconds since midnight.
type Time int64

// Timestamp is microseconds since 1970-01-01T00:00:00 (UTC for timestamptz).
type Timestamp int64

// UUID is 16 bytes in the byte order of its text form.
type UUID [16]byte

// Decimal is an unscaled 128-bit integer with a scale; Iceberg decimals have
// at most 38 digits, which fits.
type Decimal struct {
	Unscaled decimal128.Num
	Scale    int
}

func (d Decimal) String() string {
	return d.Unscaled.ToString(int32(d.Scale))
}
