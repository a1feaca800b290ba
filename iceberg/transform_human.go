package iceberg

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// HumanString renders a partition value of field transform t (whose source
// column has type src) the way Java's Transform.toHumanString does; these
// strings appear in partition paths and metadata tables. nil is "null".
func HumanString(t Transform, src Type, v any) string {
	if v == nil {
		return "null"
	}
	switch t.(type) {
	case YearTransform:
		if y, ok := v.(int32); ok {
			return formatYear(1970 + int64(y))
		}
	case MonthTransform:
		if m, ok := v.(int32); ok {
			y := floorDiv(int64(m), 12)
			return fmt.Sprintf("%s-%02d", formatYear(1970+y), int64(m)-y*12+1)
		}
	case HourTransform:
		if h, ok := v.(int32); ok {
			days := floorDiv(int64(h), 24)
			return fmt.Sprintf("%s-%02d", formatDate(days), int64(h)-days*24)
		}
	case DayTransform:
		switch d := v.(type) {
		case Date:
			return formatDate(int64(d))
		case int32:
			return formatDate(int64(d))
		}
	}
	return humanValue(src, v)
}

// humanValue is Java's human string of a source-typed value.
func humanValue(t Type, v any) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case float32:
		return javaFloatString(float64(x), 32)
	case float64:
		return javaFloatString(x, 64)
	case Date:
		return formatDate(int64(x))
	case Time:
		return javaLocalTime(int64(x))
	case Timestamp:
		days := floorDiv(int64(x), microsPerDay)
		s := formatDate(days) + "T" + javaLocalTime(int64(x)-days*microsPerDay)
		if _, tz := t.(TimestampTzType); tz {
			s += "Z"
		}
		return s
	case TimestampNano:
		days := floorDiv(int64(x), nanosPerDay)
		s := formatDate(days) + "T" + javaLocalTimeNanos(int64(x)-days*nanosPerDay)
		if isZonedTimestamp(t) {
			s += "Z"
		}
		return s
	case string:
		return x
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case UUID:
		return FormatUUID(x)
	case Decimal:
		return javaBigDecimalString(x)
	}
	return fmt.Sprint(v)
}

// FormatUUID is the canonical lowercase text form of a UUID.
func FormatUUID(u UUID) string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}

// formatYear follows java.time: four digits, '+' beyond 9999, '-' before 0.
func formatYear(y int64) string {
	switch {
	case y > 9999:
		return "+" + strconv.FormatInt(y, 10)
	case y < 0:
		return fmt.Sprintf("-%04d", -y)
	}
	return fmt.Sprintf("%04d", y)
}

func formatDate(days int64) string {
	y, m, d := civilFromDays(days)
	return fmt.Sprintf("%s-%02d-%02d", formatYear(int64(y)), m, d)
}

// javaLocalTime is LocalTime.toString: HH:mm, then :ss unless seconds and
// fraction are zero, then the fraction in groups of 3 digits.
func javaLocalTime(micros int64) string {
	h := micros / microsPerHour
	m := micros / 60_000_000 % 60
	s := micros / 1_000_000 % 60
	frac := micros % 1_000_000
	out := fmt.Sprintf("%02d:%02d", h, m)
	if s == 0 && frac == 0 {
		return out
	}
	out += fmt.Sprintf(":%02d", s)
	switch {
	case frac == 0:
	case frac%1000 == 0:
		out += fmt.Sprintf(".%03d", frac/1000)
	default:
		out += fmt.Sprintf(".%06d", frac)
	}
	return out
}

// isoTime is ISO_LOCAL_TIME as Java formats it: seconds always, fraction
// without trailing zeros.
func isoTime(micros int64) string {
	out := fmt.Sprintf("%02d:%02d:%02d", micros/microsPerHour, micros/60_000_000%60, micros/1_000_000%60)
	if frac := micros % 1_000_000; frac != 0 {
		out += "." + strings.TrimRight(fmt.Sprintf("%06d", frac), "0")
	}
	return out
}

// javaFloatString approximates Float/Double.toString: plain notation with
// at least one fractional digit in [1e-3, 1e7), else d.dddE±n.
func javaFloatString(f float64, bitSize int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	abs := math.Abs(f)
	if abs == 0 || (abs >= 1e-3 && abs < 1e7) {
		s := strconv.FormatFloat(f, 'f', -1, bitSize)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		if f == 0 && math.Signbit(f) {
			return "-0.0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, bitSize)
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	exp = strings.TrimPrefix(exp, "+")
	if strings.HasPrefix(exp, "-") {
		exp = "-" + strings.TrimLeft(exp[1:], "0")
	} else {
		exp = strings.TrimLeft(exp, "0")
	}
	return mant + "E" + exp
}

// javaBigDecimalString is BigDecimal.toString: plain when the scale is
// non-negative and the adjusted exponent is at least -6, else scientific.
func javaBigDecimalString(d Decimal) string {
	unscaled := d.Unscaled.BigInt()
	neg := unscaled.Sign() < 0
	digits := new(big.Int).Abs(unscaled).String()
	adjusted := -d.Scale + len(digits) - 1
	var out string
	switch {
	case d.Scale == 0:
		out = digits
	case d.Scale > 0 && adjusted >= -6:
		if pad := d.Scale - len(digits) + 1; pad > 0 {
			digits = strings.Repeat("0", pad) + digits
		}
		out = digits[:len(digits)-d.Scale] + "." + digits[len(digits)-d.Scale:]
	default:
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		out += "E"
		if adjusted >= 0 {
			out += "+"
		}
		out += strconv.Itoa(adjusted)
	}
	if neg {
		return "-" + out
	}
	return out
}

// javaLocalTimeNanos is LocalTime.toString of nanoseconds from midnight:
// the fraction in groups of three digits, as java.time prints it.
func javaLocalTimeNanos(nanos int64) string {
	frac := nanos % 1_000_000_000
	if frac%nanosPerMicro == 0 {
		return javaLocalTime(nanos / nanosPerMicro)
	}
	s := javaLocalTime(nanos / 1_000_000_000 * 1_000_000)
	if len(s) == 5 { // HH:mm: seconds are shown once there is a fraction
		s += ":00"
	}
	return s + fmt.Sprintf(".%09d", frac)
}

// isoTimeNanos is isoTime to nanoseconds.
func isoTimeNanos(nanos int64) string {
	out := isoTime(nanos / 1_000_000_000 * 1_000_000)
	if frac := nanos % 1_000_000_000; frac != 0 {
		out += "." + strings.TrimRight(fmt.Sprintf("%09d", frac), "0")
	}
	return out
}
