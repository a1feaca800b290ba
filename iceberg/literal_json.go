package iceberg

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// ValueToJSON encodes a primitive value with the spec's JSON single-value
// serialisation (Appendix D), used for column defaults. nil is JSON null.
func ValueToJSON(t Type, v any) (json.RawMessage, error) {
	if v == nil {
		return json.RawMessage("null"), nil
	}
	if err := ValidateValue(t, v); err != nil {
		return nil, err
	}
	var out any
	switch x := v.(type) {
	case bool, int32, int64:
		out = x
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("%w: %v has no JSON form", ErrTypeMismatch, x)
		}
		out = x
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%w: %v has no JSON form", ErrTypeMismatch, x)
		}
		out = x
	case Decimal:
		out = decimalJSONString(x)
	case Date:
		out = formatDate(int64(x))
	case Time:
		out = isoTime(int64(x))
	case Timestamp:
		days := floorDiv(int64(x), microsPerDay)
		s := formatDate(days) + "T" + isoTime(int64(x)-days*microsPerDay)
		if _, tz := t.(TimestampTzType); tz {
			s += "+00:00"
		}
		out = s
	case TimestampNano:
		days := floorDiv(int64(x), nanosPerDay)
		s := formatDate(days) + "T" + isoTimeNanos(int64(x)-days*nanosPerDay)
		if isZonedTimestamp(t) {
			s += "+00:00"
		}
		out = s
	case string:
		out = x
	case UUID:
		out = FormatUUID(x)
	case []byte:
		out = hex.EncodeToString(x)
	default:
		return nil, fmt.Errorf("%w: no JSON single-value form for %s", ErrUnsupported, t)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTypeMismatch, err)
	}
	return b, nil
}

// ValueFromJSON decodes the JSON single-value form of a value of type t
// into the Go value form; JSON null gives nil. Nested types are not
// supported yet.
func ValueFromJSON(t Type, raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, fmt.Errorf("%w: empty JSON value for %s", ErrTypeMismatch, t)
	}
	if string(raw) == "null" {
		return nil, nil
	}
	wrong := func(err error) error {
		return fmt.Errorf("%w: JSON %s is not a %s value: %v", ErrTypeMismatch, truncateForError(raw), t, err)
	}
	switch t.(type) {
	case UnknownType:
		return nil, fmt.Errorf("%w: JSON %s for unknown, whose values are always null", ErrTypeMismatch, truncateForError(raw))
	case BooleanType:
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return nil, wrong(err)
		}
		return b, nil
	case IntType, LongType:
		n, err := jsonInteger(raw)
		if err != nil {
			return nil, wrong(err)
		}
		if _, isInt := t.(IntType); isInt {
			if n < math.MinInt32 || n > math.MaxInt32 {
				return nil, wrong(fmt.Errorf("out of int range"))
			}
			return int32(n), nil
		}
		return n, nil
	case FloatType, DoubleType:
		num, err := jsonNumber(raw)
		if err != nil {
			return nil, wrong(err)
		}
		bits := 64
		if _, isFloat := t.(FloatType); isFloat {
			bits = 32
		}
		f, err := strconv.ParseFloat(string(num), bits)
		if err != nil {
			return nil, wrong(err)
		}
		if bits == 32 {
			return float32(f), nil
		}
		return f, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, wrong(err)
	}
	var v any
	var err error
	switch tt := t.(type) {
	case StringType:
		v = s
	case DecimalType:
		v, err = parseDecimalText(s, tt)
	case DateType:
		var days int64
		days, err = parseISODate(s)
		if err == nil && (days < math.MinInt32 || days > math.MaxInt32) {
			err = fmt.Errorf("date out of range")
		}
		v = Date(days)
	case TimeType:
		var us int64
		us, err = parseISOTime(s)
		v = Time(us)
	case TimestampType:
		v, err = parseISOTimestamp(s, false)
	case TimestampTzType:
		v, err = parseISOTimestamp(s, true)
	case TimestampNsType:
		v, err = parseISOTimestampNanos(s, false)
	case TimestampTzNsType:
		v, err = parseISOTimestampNanos(s, true)
	case UUIDType:
		v, err = ParseUUID(s)
	case BinaryType, FixedType:
		v, err = hex.DecodeString(s)
	default:
		return nil, fmt.Errorf("%w: no JSON single-value form for %s", ErrUnsupported, t)
	}
	if err != nil {
		return nil, wrong(err)
	}
	if err := ValidateValue(t, v); err != nil {
		return nil, err
	}
	return v, nil
}

func truncateForError(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "..."
	}
	return string(raw)
}

func jsonInteger(raw []byte) (int64, error) {
	num, err := jsonNumber(raw)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(string(num), 10, 64)
}

// jsonNumber accepts a JSON number only (json.Number alone would also take
// a quoted string).
func jsonNumber(raw []byte) (json.Number, error) {
	if raw[0] == '"' {
		return "", fmt.Errorf("a string is not a number")
	}
	var num json.Number
	err := json.Unmarshal(raw, &num)
	return num, err
}

// decimalJSONString keeps the scale visible: plain digits for scale >= 0,
// unscaledE+(-scale) for negative scales, as Appendix D requires.
func decimalJSONString(d Decimal) string {
	if d.Scale < 0 {
		return d.Unscaled.BigInt().String() + "E+" + strconv.Itoa(-d.Scale)
	}
	return d.Unscaled.ToString(int32(d.Scale))
}

// parseDecimalText parses [-]digits[.digits][E[+-]n]; the value's own scale
// (fraction digits minus exponent) must equal the type's scale.
func parseDecimalText(s string, t DecimalType) (Decimal, error) {
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return Decimal{}, fmt.Errorf("bad exponent in %q", s)
		}
		mant, exp = s[:i], e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	unsigned := strings.TrimLeft(digits, "+-")
	if unsigned == "" || strings.Trim(unsigned, "0123456789") != "" || len(digits)-len(unsigned) > 1 {
		return Decimal{}, fmt.Errorf("malformed decimal %q", s)
	}
	scale := len(frac) - exp
	if scale != t.Scale {
		return Decimal{}, fmt.Errorf("decimal %q has scale %d, type has %d", s, scale, t.Scale)
	}
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok || n.BitLen() > 127 {
		return Decimal{}, fmt.Errorf("decimal %q out of range", s)
	}
	return Decimal{Unscaled: decimal128.FromBigInt(n), Scale: scale}, nil
}

// ParseUUID parses the 8-4-4-4-12 hex form (any case).
func ParseUUID(s string) (UUID, error) {
	var u UUID
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return u, fmt.Errorf("%w: malformed UUID %q", ErrTypeMismatch, s)
	}
	h := s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:]
	if _, err := hex.Decode(u[:], []byte(h)); err != nil {
		return u, fmt.Errorf("%w: malformed UUID %q", ErrTypeMismatch, s)
	}
	return u, nil
}

// parseISODate parses [+-]yyyy-mm-dd into days from 1970-01-01.
func parseISODate(s string) (int64, error) {
	neg := false
	body := s
	if body != "" && (body[0] == '+' || body[0] == '-') {
		neg = body[0] == '-'
		body = body[1:]
	}
	parts := strings.Split(body, "-")
	if len(parts) != 3 || len(parts[0]) < 4 || len(parts[1]) != 2 || len(parts[2]) != 2 {
		return 0, fmt.Errorf("malformed date %q", s)
	}
	var nums [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || strings.Trim(p, "0123456789") != "" || len(p) > 9 {
			return 0, fmt.Errorf("malformed date %q", s)
		}
		nums[i] = n
	}
	year := nums[0]
	if neg {
		year = -year
	}
	d := time.Date(year, time.Month(nums[1]), nums[2], 0, 0, 0, 0, time.UTC)
	if d.Year() != year || int(d.Month()) != nums[1] || d.Day() != nums[2] {
		return 0, fmt.Errorf("invalid date %q", s)
	}
	return floorDiv(d.Unix(), 86400), nil
}

// parseISOTime parses HH:mm[:ss[.ffffff]] into microseconds from midnight.
func parseISOTime(s string) (int64, error) {
	ns, err := parseISOTimeNanos(s)
	if err != nil {
		return 0, err
	}
	if ns%nanosPerMicro != 0 {
		return 0, fmt.Errorf("time %q is finer than microseconds", s)
	}
	return ns / nanosPerMicro, nil
}

// parseISOTimeNanos parses HH:mm[:ss[.fffffffff]] into nanoseconds from
// midnight.
func parseISOTimeNanos(s string) (int64, error) {
	hms, frac, hasFrac := strings.Cut(s, ".")
	parts := strings.Split(hms, ":")
	if len(parts) < 2 || len(parts) > 3 || (hasFrac && len(parts) != 3) {
		return 0, fmt.Errorf("malformed time %q", s)
	}
	limits := []int64{23, 59, 59}
	var ns int64
	for i, p := range parts {
		if len(p) != 2 || strings.Trim(p, "0123456789") != "" {
			return 0, fmt.Errorf("malformed time %q", s)
		}
		n, _ := strconv.ParseInt(p, 10, 64)
		if n > limits[i] {
			return 0, fmt.Errorf("invalid time %q", s)
		}
		ns += n * []int64{nanosPerHour, 60_000_000_000, 1_000_000_000}[i]
	}
	if hasFrac {
		if frac == "" || len(frac) > 9 || strings.Trim(frac, "0123456789") != "" {
			return 0, fmt.Errorf("malformed fraction in %q", s)
		}
		f, _ := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
		ns += f
	}
	return ns, nil
}

// parseISOTimestamp parses date'T'time with a zone offset (required for
// timestamptz, forbidden otherwise) into microseconds from the epoch, UTC.
func parseISOTimestamp(s string, withZone bool) (Timestamp, error) {
	ns, err := parseISOTimestampNanos(s, withZone)
	if err != nil {
		return 0, err
	}
	if ns%nanosPerMicro != 0 {
		return 0, fmt.Errorf("timestamp %q is finer than microseconds", s)
	}
	return Timestamp(ns / nanosPerMicro), nil
}

// parseISOTimestampNanos is parseISOTimestamp to nanoseconds; the range is
// that of int64 nanoseconds (years 1677 to 2262).
func parseISOTimestampNanos(s string, withZone bool) (TimestampNano, error) {
	datePart, rest, ok := strings.Cut(s, "T")
	if !ok {
		return 0, fmt.Errorf("malformed timestamp %q", s)
	}
	timePart, offset := rest, int64(0)
	if i := strings.IndexAny(rest, "Z+-"); i >= 0 {
		if !withZone {
			return 0, fmt.Errorf("timestamp %q must not have a zone offset", s)
		}
		var err error
		offset, err = parseOffset(rest[i:])
		if err != nil {
			return 0, fmt.Errorf("%v in %q", err, s)
		}
		timePart = rest[:i]
	} else if withZone {
		return 0, fmt.Errorf("timestamptz %q needs a zone offset", s)
	}
	days, err := parseISODate(datePart)
	if err != nil {
		return 0, err
	}
	ns, err := parseISOTimeNanos(timePart)
	if err != nil {
		return 0, err
	}
	if days > -106750 && days < 106750 {
		// well inside the int64 range (about ±106751 days): no overflow
		return TimestampNano(days*nanosPerDay + ns - offset*nanosPerMicro), nil
	}
	// days*nanosPerDay + ns - offset*1000 must fit in int64; checked in
	// big steps so nothing overflows on the way
	hi := new(big.Int).Mul(big.NewInt(days), big.NewInt(nanosPerDay))
	hi.Add(hi, big.NewInt(ns-offset*nanosPerMicro))
	if !hi.IsInt64() {
		return 0, fmt.Errorf("timestamp %q out of range for nanoseconds (years 1677 to 2262)", s)
	}
	return TimestampNano(hi.Int64()), nil
}

// parseOffset parses Z or ±HH:MM into microseconds east of UTC.
func parseOffset(s string) (int64, error) {
	if s == "Z" {
		return 0, nil
	}
	if len(s) != 6 || s[3] != ':' {
		return 0, fmt.Errorf("malformed zone offset %q", s)
	}
	h, err1 := strconv.Atoi(s[1:3])
	m, err2 := strconv.Atoi(s[4:6])
	if err1 != nil || err2 != nil || h > 18 || m > 59 || strings.Trim(s[1:3]+s[4:6], "0123456789") != "" {
		return 0, fmt.Errorf("malformed zone offset %q", s)
	}
	off := int64(h)*microsPerHour + int64(m)*60_000_000
	if s[0] == '-' {
		off = -off
	}
	return off, nil
}
