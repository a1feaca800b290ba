package load

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icesql/icesql/iceberg"
)

var (
	errNotBool  = errors.New("want true/false, t/f, yes/no or 1/0")
	errNotHex   = errors.New(`binary values are \x followed by hex digits`)
	errBadWidth = errors.New("wrong length")
)

// fromText converts a text field to the Iceberg Go value of t.
func fromText(t iceberg.Type, s string) (any, error) {
	if iceberg.IsGeo(t) {
		return geoValue(s)
	}
	switch t := t.(type) {
	case iceberg.StringType:
		return s, nil
	case iceberg.BooleanType:
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true", "t", "yes", "y", "1":
			return true, nil
		case "false", "f", "no", "n", "0":
			return false, nil
		}
		return nil, errNotBool
	case iceberg.IntType:
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
		if err != nil {
			return nil, numErr(err)
		}
		return int32(n), nil
	case iceberg.LongType:
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, numErr(err)
		}
		return n, nil
	case iceberg.FloatType:
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 32)
		if err != nil {
			return nil, numErr(err)
		}
		return float32(f), nil
	case iceberg.DoubleType:
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, numErr(err)
		}
		return f, nil
	case iceberg.DecimalType:
		return parseDecimal(strings.TrimSpace(s), t)
	case iceberg.DateType:
		d, err := time.Parse("2006-01-02", strings.TrimSpace(s))
		if err != nil {
			return nil, errors.New("want a date like 2024-01-31")
		}
		return iceberg.Date(d.Unix() / 86400), nil
	case iceberg.TimeType:
		d, err := time.Parse("15:04:05.999999999", strings.TrimSpace(s))
		if err != nil {
			return nil, errors.New("want a time like 13:45:00.123456")
		}
		return iceberg.Time((d.Hour()*3600+d.Minute()*60+d.Second())*1_000_000 + d.Nanosecond()/1000), nil
	case iceberg.TimestampType:
		ts, err := parseTimestamp(strings.TrimSpace(s), false)
		if err != nil {
			return nil, err
		}
		return ts, nil
	case iceberg.TimestampTzType:
		ts, err := parseTimestamp(strings.TrimSpace(s), true)
		if err != nil {
			return nil, err
		}
		return ts, nil
	case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		_, tz := t.(iceberg.TimestampTzNsType)
		at, err := parseTime(strings.TrimSpace(s), tz)
		if err != nil {
			return nil, err
		}
		return iceberg.TimestampNano(at.UnixNano()), nil
	case iceberg.UUIDType:
		return iceberg.ParseUUID(strings.TrimSpace(s))
	case iceberg.BinaryType:
		return parseBinary(s)
	case iceberg.FixedType:
		b, err := parseBinary(s)
		if err != nil {
			return nil, err
		}
		if len(b) != t.Length {
			return nil, fmt.Errorf("%w: %d bytes, want %d", errBadWidth, len(b), t.Length)
		}
		return b, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}

// numErr drops strconv's echo of the input, which the caller reports.
func numErr(err error) error {
	var ne *strconv.NumError
	if errors.As(err, &ne) {
		return ne.Err
	}
	return err
}

func parseDecimal(s string, t iceberg.DecimalType) (any, error) {
	if frac := strings.IndexByte(s, '.'); frac >= 0 && len(strings.TrimRight(s[frac+1:], "0")) > t.Scale {
		return nil, fmt.Errorf("more than %d digits after the point", t.Scale)
	}
	n, err := decimal128.FromString(s, int32(t.Precision), int32(t.Scale))
	if err != nil {
		return nil, fmt.Errorf("not a decimal(%d, %d)", t.Precision, t.Scale)
	}
	if !n.FitsInPrecision(int32(t.Precision)) {
		return nil, fmt.Errorf("more than %d digits", t.Precision)
	}
	return iceberg.Decimal{Unscaled: n, Scale: t.Scale}, nil
}

var timestampLayouts = []string{
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02T15:04",
	"2006-01-02",
}

var timestampTzLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z0700",
	"2006-01-02 15:04:05.999999999 Z07:00",
	"2006-01-02 15:04:05.999999999Z07",
}

// parseTimestamp reads a timestamp; one with a zone offset is only
// accepted for timestamptz columns, and a zoneless one there is UTC.
func parseTimestamp(s string, withZone bool) (iceberg.Timestamp, error) {
	t, err := parseTime(s, withZone)
	if err != nil {
		return 0, err
	}
	return iceberg.Timestamp(t.UnixMicro()), nil
}

// parseTime reads a timestamp to the nanosecond, as parseTimestamp.
func parseTime(s string, withZone bool) (time.Time, error) {
	for _, l := range timestampLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	if withZone {
		for _, l := range timestampTzLayouts {
			if t, err := time.Parse(l, s); err == nil {
				return t, nil
			}
		}
		return time.Time{}, errors.New("want a timestamp like 2024-01-31 13:45:00[.123456][+02:00]")
	}
	return time.Time{}, errors.New("want a timestamp like 2024-01-31 13:45:00[.123456] (no zone)")
}

func parseBinary(s string) ([]byte, error) {
	h, ok := strings.CutPrefix(s, `\x`)
	if !ok {
		return []byte(s), nil
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return nil, errNotHex
	}
	return b, nil
}

// fromJSON converts a decoded JSON value (decoded with UseNumber) to the
// Iceberg Go value of t. Strings go through the text conversion, so
// dates, decimals and the like are written as JSON strings.
func fromJSON(t iceberg.Type, v any) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return fromText(t, x)
	case bool:
		if _, ok := t.(iceberg.BooleanType); ok {
			return x, nil
		}
		if _, ok := t.(iceberg.StringType); ok {
			return strconv.FormatBool(x), nil
		}
	case json.Number:
		switch t.(type) {
		case iceberg.IntType, iceberg.LongType, iceberg.FloatType, iceberg.DoubleType, iceberg.DecimalType, iceberg.StringType:
			return fromText(t, x.String())
		}
	case []any, map[string]any:
		return fromJSONNested(t, v)
	}
	return nil, fmt.Errorf("JSON %s does not convert to %s", jsonKind(v), t)
}

func jsonKind(v any) string {
	switch v.(type) {
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// coerce converts a value read from a Parquet file (Iceberg Go form of
// the file's column) to the table column's type: widening numbers, and
// text through the text conversion.
func coerce(t iceberg.Type, v any) (any, error) {
	if v != nil && iceberg.IsGeo(t) {
		return geoValue(v)
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return fromText(t, x)
	case int32:
		switch t.(type) {
		case iceberg.IntType:
			return x, nil
		case iceberg.LongType:
			return int64(x), nil
		case iceberg.DoubleType:
			return float64(x), nil
		}
	case int64:
		switch t.(type) {
		case iceberg.LongType:
			return x, nil
		case iceberg.IntType:
			if x < math.MinInt32 || x > math.MaxInt32 {
				return nil, errors.New("out of range for int")
			}
			return int32(x), nil
		}
	case float32:
		switch t.(type) {
		case iceberg.FloatType:
			return x, nil
		case iceberg.DoubleType:
			return float64(x), nil
		}
	case float64:
		switch t.(type) {
		case iceberg.DoubleType:
			return x, nil
		case iceberg.FloatType:
			return float32(x), nil
		}
	case iceberg.Decimal:
		if dt, ok := t.(iceberg.DecimalType); ok {
			return parseDecimal(x.String(), dt)
		}
	case bool, iceberg.Date, iceberg.Time, iceberg.UUID:
		if sameKind(t, x) {
			return x, nil
		}
	case iceberg.Timestamp:
		switch t.(type) {
		case iceberg.TimestampType, iceberg.TimestampTzType:
			return x, nil
		case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
			return iceberg.TimestampNano(int64(x) * 1000), nil
		}
	case iceberg.TimestampNano:
		switch t.(type) {
		case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
			return x, nil
		case iceberg.TimestampType, iceberg.TimestampTzType:
			return iceberg.Timestamp(floorDiv(int64(x), 1000)), nil
		}
	case []byte:
		switch t := t.(type) {
		case iceberg.BinaryType:
			return x, nil
		case iceberg.FixedType:
			if len(x) == t.Length {
				return x, nil
			}
		case iceberg.UUIDType:
			if len(x) == 16 {
				return iceberg.UUID(x), nil
			}
		}
	}
	return nil, fmt.Errorf("a %T value does not convert to %s", v, t)
}

func sameKind(t iceberg.Type, v any) bool {
	switch v.(type) {
	case bool:
		_, ok := t.(iceberg.BooleanType)
		return ok
	case iceberg.Date:
		_, ok := t.(iceberg.DateType)
		return ok
	case iceberg.Time:
		_, ok := t.(iceberg.TimeType)
		return ok
	case iceberg.UUID:
		_, ok := t.(iceberg.UUIDType)
		return ok
	}
	return false
}

// floorDiv divides rounding toward minus infinity, so an instant before
// 1970 truncates to the earlier microsecond, as Iceberg's casts do.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
