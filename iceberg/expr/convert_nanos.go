package expr

import (
	"fmt"
	"math"
	"time"

	"github.com/icesql/icesql/iceberg"
)

const nanosPerMicro = 1_000

// Nanosecond timestamps hold int64 nanoseconds: years 1677 to 2262.
var (
	minNanoTime = time.Unix(0, math.MinInt64).UTC()
	maxNanoTime = time.Unix(0, math.MaxInt64).UTC()
)

// timeToNanos converts a time.Time: timestamptz_ns takes the instant,
// timestamp_ns the wall clock in the value's location.
func timeToNanos(t iceberg.PrimitiveType, tm time.Time) (any, fit, error) {
	if _, local := t.(iceberg.TimestampNsType); local {
		tm = time.Date(tm.Year(), tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
	}
	switch {
	case tm.Before(minNanoTime):
		return nil, fitBelowMin, nil
	case tm.After(maxNanoTime):
		return nil, fitAboveMax, nil
	}
	return iceberg.TimestampNano(tm.UnixNano()), fitExact, nil
}

// stringToNanos parses the SQL and ISO forms timestampTo accepts, to the
// nanosecond.
func stringToNanos(t iceberg.PrimitiveType, s string) (any, fit, error) {
	_, zoned := t.(iceberg.TimestampTzNsType)
	if tm, ok := parseTimestamp(s, zoned); ok {
		return timeToNanos(t, tm)
	}
	return nil, fitExact, fmt.Errorf("malformed %s %q (want 2006-01-02T15:04:05[.fffffffff]%s)", t, s, map[bool]string{true: "[+00:00]"}[zoned])
}

// microsToNanos widens microseconds; values beyond the nanosecond range
// are above or below every value of the type.
func microsToNanos(us int64) (any, fit, error) {
	switch {
	case us > math.MaxInt64/nanosPerMicro:
		return nil, fitAboveMax, nil
	case us < math.MinInt64/nanosPerMicro:
		return nil, fitBelowMin, nil
	}
	return iceberg.TimestampNano(us * nanosPerMicro), fitExact, nil
}

// timestampNanoTo converts a nanosecond timestamp; to microseconds and
// dates it floors.
func timestampNanoTo(t iceberg.PrimitiveType, ts iceberg.TimestampNano) (any, fit, error) {
	switch t.(type) {
	case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		return ts, fitExact, nil
	case iceberg.TimestampType, iceberg.TimestampTzType, iceberg.DateType:
		us := ts.Micros()
		v, f, err := timestampTo(t, us)
		if err == nil && f == fitExact && int64(us)*nanosPerMicro != int64(ts) {
			f = fitFloor
		}
		return v, f, err
	}
	return nil, fitExact, errNoConversion
}

func formatTimestampNano(ts iceberg.TimestampNano) string {
	tm := time.Unix(0, int64(ts)).UTC()
	layout := "2006-01-02T15:04:05"
	if tm.Nanosecond() != 0 {
		layout += ".000000000"
	}
	return tm.Format(layout)
}
