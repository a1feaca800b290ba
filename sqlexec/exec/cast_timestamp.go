package exec

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Nanosecond timestamps hold int64 nanoseconds: years 1677 to 2262.
var (
	minNanoTime = time.Unix(0, math.MinInt64).UTC()
	maxNanoTime = time.Unix(0, math.MaxInt64).UTC()
)

// timestampUnit is the unit of a timestamp type; microseconds (the
// engine's default) for anything else.
func timestampUnit(t arrow.DataType) arrow.TimeUnit {
	if tt, ok := t.(*arrow.TimestampType); ok {
		return tt.Unit
	}
	return arrow.Microsecond
}

// unitsPerSecond is how many ticks of u make a second.
func unitsPerSecond(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return 1
	case arrow.Millisecond:
		return 1_000
	case arrow.Nanosecond:
		return 1_000_000_000
	}
	return 1_000_000
}

// rescaleTimestamp converts between units: to a coarser unit it floors (a
// nanosecond instant lies within its microsecond), to a finer one it
// reports ok=false on overflow.
func rescaleTimestamp(v arrow.Timestamp, from, to arrow.TimeUnit) (arrow.Timestamp, bool) {
	f, t := unitsPerSecond(from), unitsPerSecond(to)
	switch {
	case f == t:
		return v, true
	case f > t:
		d := f / t
		q := int64(v) / d
		if int64(v)%d < 0 {
			q--
		}
		return arrow.Timestamp(q), true
	}
	m := t / f
	if int64(v) > math.MaxInt64/m || int64(v) < math.MinInt64/m {
		return 0, false
	}
	return arrow.Timestamp(int64(v) * m), true
}

// castTimestampUnit rescales a timestamp column to another unit (and zone
// label); an instant beyond the target's range fails the cast.
func castTimestampUnit(ec *EvalContext, a *array.Timestamp, to *arrow.TimestampType) (arrow.Array, error) {
	from := a.DataType().(*arrow.TimestampType).Unit
	b := array.NewTimestampBuilder(ec.Mem, to)
	defer b.Release()
	b.Reserve(a.Len())
	for i, v := range a.TimestampValues() {
		if a.IsNull(i) {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		out, ok := rescaleTimestamp(v, from, to.Unit)
		if !ok {
			return nil, &CastError{Value: FormatValue(v, a.DataType()), From: castTypeName(a.DataType()), To: castTypeName(to)}
		}
		b.UnsafeAppend(out)
	}
	return b.NewArray(), nil
}
