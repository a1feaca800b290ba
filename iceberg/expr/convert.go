package expr

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/icesql/icesql/iceberg"
)

// fit says how a converted literal relates to the original value.
type fit int

const (
	fitExact fit = iota
	// fitFloor: the original lies strictly between the converted value and
	// the next representable one (a timestamp with nanoseconds, 1.005 for
	// decimal(5,2)); predicates are adjusted so that they stay exact.
	fitFloor
	fitAboveMax // larger than every value of the type
	fitBelowMin // smaller than every value of the type
)

var errNoConversion = errors.New("no conversion")

// convertLiteral converts a literal to the Go value form of t, following
// Java's Literal.to rules plus Go conveniences (any Go integer,
// time.Time, SQL-style timestamp strings).
func convertLiteral(t iceberg.PrimitiveType, v any) (any, fit, error) {
	if v == nil {
		return nil, fitExact, errors.New("null literal (use IS NULL)")
	}
	if iceberg.IsNaN(v) {
		return nil, fitExact, errors.New("NaN literal (use IS NAN)")
	}
	if n, ok := goInteger(v); ok {
		return integerTo(t, n)
	}
	switch x := v.(type) {
	case bool:
		if _, ok := t.(iceberg.BooleanType); ok {
			return x, fitExact, nil
		}
	case float32:
		return floatTo(t, float64(x), true)
	case float64:
		return floatTo(t, x, false)
	case string:
		return stringTo(t, x)
	case time.Time:
		return timeTo(t, x)
	case iceberg.Date:
		return dateTo(t, x)
	case iceberg.Time:
		if _, ok := t.(iceberg.TimeType); ok {
			return x, fitExact, nil
		}
	case iceberg.Timestamp:
		return timestampTo(t, x)
	case iceberg.TimestampNano:
		return timestampNanoTo(t, x)
	case iceberg.Decimal:
		if dt, ok := t.(iceberg.DecimalType); ok {
			return rescaleDecimal(dt, x.Unscaled.BigInt(), x.Scale)
		}
	case iceberg.UUID:
		if _, ok := t.(iceberg.UUIDType); ok {
			return x, fitExact, nil
		}
	case []byte:
		switch tt := t.(type) {
		case iceberg.BinaryType:
			return append([]byte(nil), x...), fitExact, nil
		case iceberg.FixedType:
			if len(x) != tt.Length {
				return nil, fitExact, fmt.Errorf("%d bytes for %s", len(x), tt)
			}
			return append([]byte(nil), x...), fitExact, nil
		}
	}
	return nil, fitExact, errNoConversion
}

// goInteger widens every Go integer type; uint64 above MaxInt64 saturates
// (it is above every long anyway).
func goInteger(v any) (*big.Int, bool) {
	switch x := v.(type) {
	case int:
		return big.NewInt(int64(x)), true
	case int8:
		return big.NewInt(int64(x)), true
	case int16:
		return big.NewInt(int64(x)), true
	case int32:
		return big.NewInt(int64(x)), true
	case int64:
		return big.NewInt(x), true
	case uint:
		return new(big.Int).SetUint64(uint64(x)), true
	case uint8:
		return big.NewInt(int64(x)), true
	case uint16:
		return big.NewInt(int64(x)), true
	case uint32:
		return big.NewInt(int64(x)), true
	case uint64:
		return new(big.Int).SetUint64(x), true
	}
	return nil, false
}

// clampInt reports where n falls relative to [lo, hi].
func clampInt(n *big.Int, lo, hi int64) (int64, fit) {
	switch {
	case n.Cmp(big.NewInt(hi)) > 0:
		return 0, fitAboveMax
	case n.Cmp(big.NewInt(lo)) < 0:
		return 0, fitBelowMin
	}
	return n.Int64(), fitExact
}

func integerTo(t iceberg.PrimitiveType, n *big.Int) (any, fit, error) {
	switch tt := t.(type) {
	case iceberg.IntType:
		v, f := clampInt(n, math.MinInt32, math.MaxInt32)
		return int32(v), f, nil
	case iceberg.LongType:
		v, f := clampInt(n, math.MinInt64, math.MaxInt64)
		return v, f, nil
	case iceberg.FloatType:
		f, _ := new(big.Float).SetInt(n).Float32()
		return f, fitExact, nil
	case iceberg.DoubleType:
		f, _ := new(big.Float).SetInt(n).Float64()
		return f, fitExact, nil
	case iceberg.DecimalType:
		return rescaleDecimal(tt, n, 0)
	case iceberg.DateType:
		v, f := clampInt(n, math.MinInt32, math.MaxInt32)
		return iceberg.Date(v), f, nil
	case iceberg.TimeType:
		v, f := clampInt(n, 0, microsPerDay-1)
		return iceberg.Time(v), f, nil
	case iceberg.TimestampType, iceberg.TimestampTzType:
		v, f := clampInt(n, math.MinInt64, math.MaxInt64)
		return iceberg.Timestamp(v), f, nil
	case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		v, f := clampInt(n, math.MinInt64, math.MaxInt64)
		return iceberg.TimestampNano(v), f, nil
	}
	return nil, fitExact, errNoConversion
}

func floatTo(t iceberg.PrimitiveType, x float64, fromFloat32 bool) (any, fit, error) {
	switch tt := t.(type) {
	case iceberg.FloatType:
		switch {
		case x > math.MaxFloat32 && !math.IsInf(x, 1):
			return nil, fitAboveMax, nil
		case x < -math.MaxFloat32 && !math.IsInf(x, -1):
			return nil, fitBelowMin, nil
		}
		return float32(x), fitExact, nil
	case iceberg.DoubleType:
		return x, fitExact, nil
	case iceberg.DecimalType:
		if math.IsInf(x, 0) {
			return nil, fitExact, errors.New("infinite value for a decimal")
		}
		bits := 64
		if fromFloat32 {
			bits = 32
		}
		// the shortest decimal that round-trips, as Java's BigDecimal.valueOf
		unscaled, scale, err := parseDecimal(strconv.FormatFloat(x, 'f', -1, bits))
		if err != nil {
			return nil, fitExact, err
		}
		return rescaleDecimal(tt, unscaled, scale)
	}
	return nil, fitExact, errNoConversion
}

// rescaleDecimal converts unscaled×10^-scale to the column's scale,
// flooring (and reporting fitFloor) when digits are lost, and reporting
// values beyond the column's precision as above max / below min.
func rescaleDecimal(t iceberg.DecimalType, unscaled *big.Int, scale int) (any, fit, error) {
	if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
		return nil, fitExact, fmt.Errorf("unsupported type %s", t)
	}
	if scale > 1000 || scale < -1000 {
		return nil, fitExact, fmt.Errorf("decimal scale %d out of range", scale)
	}
	u := new(big.Int).Set(unscaled)
	f := fitExact
	if scale <= t.Scale {
		u.Mul(u, pow10(t.Scale-scale))
	} else {
		var rem big.Int
		u.DivMod(u, pow10(scale-t.Scale), &rem) // Euclidean: floors for a positive divisor
		if rem.Sign() != 0 {
			f = fitFloor
		}
	}
	limit := pow10(t.Precision)
	if u.CmpAbs(limit) >= 0 {
		if u.Sign() > 0 {
			return nil, fitAboveMax, nil
		}
		// floor of a value below -limit stays below; so does an exact one
		return nil, fitBelowMin, nil
	}
	return iceberg.Decimal{Unscaled: decimal128.FromBigInt(u), Scale: t.Scale}, f, nil
}

// parseDecimal reads [+-]digits[.digits][e[+-]digits].
func parseDecimal(s string) (*big.Int, int, error) {
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 1000 || e < -1000 {
			return nil, 0, fmt.Errorf("malformed decimal %q", s)
		}
		mant, exp = s[:i], e
	}
	scale := 0
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		scale = len(mant) - i - 1
		mant = mant[:i] + mant[i+1:]
	}
	digits := strings.TrimLeft(mant, "+-")
	if digits == "" || len(mant)-len(digits) > 1 || strings.Trim(digits, "0123456789") != "" {
		return nil, 0, fmt.Errorf("malformed decimal %q", s)
	}
	u, ok := new(big.Int).SetString(mant, 10)
	if !ok {
		return nil, 0, fmt.Errorf("malformed decimal %q", s)
	}
	return u, scale - exp, nil
}

func stringTo(t iceberg.PrimitiveType, s string) (any, fit, error) {
	switch tt := t.(type) {
	case iceberg.StringType:
		if !utf8.ValidString(s) {
			return nil, fitExact, errors.New("string is not valid UTF-8")
		}
		return s, fitExact, nil
	case iceberg.DateType:
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			return nil, fitExact, fmt.Errorf("malformed date %q", s)
		}
		return iceberg.Date(d.Unix() / 86400), fitExact, nil
	case iceberg.TimeType:
		for _, layout := range []string{"15:04:05", "15:04"} {
			if tm, err := time.Parse(layout, s); err == nil {
				return timeTo(t, tm)
			}
		}
		return nil, fitExact, fmt.Errorf("malformed time %q", s)
	case iceberg.TimestampType:
		if tm, ok := parseTimestamp(s, false); ok {
			return timeTo(t, tm)
		}
		return nil, fitExact, fmt.Errorf("malformed timestamp %q (want 2006-01-02T15:04:05[.ffffff], no offset)", s)
	case iceberg.TimestampTzType:
		if tm, ok := parseTimestamp(s, true); ok {
			return timeTo(t, tm)
		}
		return nil, fitExact, fmt.Errorf("malformed timestamptz %q (want 2006-01-02T15:04:05[.ffffff][+00:00])", s)
	case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		return stringToNanos(t, s)
	case iceberg.UUIDType:
		return parseUUID(s)
	case iceberg.DecimalType:
		u, scale, err := parseDecimal(s)
		if err != nil {
			return nil, fitExact, err
		}
		return rescaleDecimal(tt, u, scale)
	}
	return nil, fitExact, errNoConversion
}

// parseTimestamp accepts ISO-8601 with 'T' or a space, optional seconds
// and fraction, and a bare date (midnight). An offset is required to be
// absent for timestamp and optional (UTC) for timestamptz.
func parseTimestamp(s string, zoned bool) (time.Time, bool) {
	bases := []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"}
	for _, b := range bases {
		if tm, err := time.Parse(b, s); err == nil {
			return tm, true
		}
		if zoned {
			if tm, err := time.Parse(b+"Z07:00", s); err == nil {
				return tm, true
			}
		}
	}
	return time.Time{}, false
}

func parseUUID(s string) (any, fit, error) {
	h := strings.ReplaceAll(s, "-", "")
	var u iceberg.UUID
	if len(h) != 32 || len(s) != 36 {
		return nil, fitExact, fmt.Errorf("malformed uuid %q", s)
	}
	for i := range 16 {
		b, err := strconv.ParseUint(h[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, fitExact, fmt.Errorf("malformed uuid %q", s)
		}
		u[i] = byte(b)
	}
	return u, fitExact, nil
}

// timeTo converts a time.Time: timestamptz takes the instant, timestamp,
// date and time take the wall clock in the value's location.
func timeTo(t iceberg.PrimitiveType, tm time.Time) (any, fit, error) {
	wall := time.Date(tm.Year(), tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
	f := fitExact
	if tm.Nanosecond()%1000 != 0 {
		f = fitFloor
	}
	switch t.(type) {
	case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		return timeToNanos(t, tm)
	case iceberg.TimestampTzType:
		return iceberg.Timestamp(tm.UnixMicro()), f, nil
	case iceberg.TimestampType:
		return iceberg.Timestamp(wall.UnixMicro()), f, nil
	case iceberg.TimeType:
		midnight := time.Date(tm.Year(), tm.Month(), tm.Day(), 0, 0, 0, 0, time.UTC)
		return iceberg.Time(wall.Sub(midnight).Microseconds()), f, nil
	case iceberg.DateType:
		return timestampTo(t, iceberg.Timestamp(wall.UnixMicro()))
	}
	return nil, fitExact, errNoConversion
}

func dateTo(t iceberg.PrimitiveType, d iceberg.Date) (any, fit, error) {
	switch t.(type) {
	case iceberg.DateType:
		return d, fitExact, nil
	case iceberg.TimestampType, iceberg.TimestampTzType:
		return iceberg.Timestamp(int64(d) * microsPerDay), fitExact, nil
	case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		return microsToNanos(int64(d) * microsPerDay)
	}
	return nil, fitExact, errNoConversion
}

func timestampTo(t iceberg.PrimitiveType, ts iceberg.Timestamp) (any, fit, error) {
	switch t.(type) {
	case iceberg.TimestampType, iceberg.TimestampTzType:
		return ts, fitExact, nil
	case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		return microsToNanos(int64(ts))
	case iceberg.DateType:
		days := floorDiv(int64(ts), microsPerDay)
		f := fitExact
		if days*microsPerDay != int64(ts) {
			f = fitFloor
		}
		if days > math.MaxInt32 {
			return nil, fitAboveMax, nil
		}
		if days < math.MinInt32 {
			return nil, fitBelowMin, nil
		}
		return iceberg.Date(days), f, nil
	}
	return nil, fitExact, errNoConversion
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
