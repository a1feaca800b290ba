package format

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Text renders a value as the shell prints it; null reports SQL NULL.
func Text(v any) (s string, null bool) {
	switch x := v.(type) {
	case nil:
		return "", true
	case string:
		return x, false
	case []byte:
		return `\x` + hex.EncodeToString(x), false
	case bool:
		if x {
			return "true", false
		}
		return "false", false
	case int64:
		return strconv.FormatInt(x, 10), false
	case int32:
		return strconv.FormatInt(int64(x), 10), false
	case int:
		return strconv.Itoa(x), false
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), false
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32), false
	case time.Time:
		return formatTime(x), false
	case fmt.Stringer:
		return x.String(), false
	case []any, map[string]any:
		b, err := json.Marshal(jsonValue(x))
		if err == nil {
			return string(b), false
		}
	}
	return fmt.Sprint(v), false
}

// formatTime prints a timestamp with the fraction it has, to the
// nanosecond (timestamp_ns columns; microsecond values print as before).
func formatTime(t time.Time) string {
	layout := "2006-01-02 15:04:05.999999999"
	if t.Location() != time.UTC {
		layout += "-07:00"
	}
	return t.Format(layout)
}

// isNumber reports whether v is printed right-aligned.
func isNumber(v any) bool {
	switch v.(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return true
	}
	return false
}

// jsonValue converts v to what encoding/json prints as the natural JSON
// form: numbers stay numbers, everything without a JSON form becomes its
// text. Non-finite floats have no JSON number form and become strings.
func jsonValue(v any) any {
	switch x := v.(type) {
	case nil, bool, string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return x
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
		return x
	case float32:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return strconv.FormatFloat(f, 'g', -1, 32)
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 32))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonValue(e)
		}
		return out
	}
	s, _ := Text(v)
	return s
}
