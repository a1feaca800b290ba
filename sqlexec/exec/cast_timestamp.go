package exec

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
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
