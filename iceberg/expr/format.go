package expr

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/icesql/icesql/iceberg"
)

const (
	microsPerSecond = int64(1_000_000)
	microsPerDay    = 86_400 * microsPerSecond
)

// formatLiteral prints a literal of type t as it reads in SQL and EXPLAIN.
func formatLiteral(t iceberg.Type, v any) string {
	if ts, ok := v.(iceberg.Timestamp); ok {
		if _, tz := t.(iceberg.TimestampTzType); tz {
			return formatTimestamp(ts) + "+00:00"
		}
	}
	if ts, ok := v.(iceberg.TimestampNano); ok {
		if _, tz := t.(iceberg.TimestampTzNsType); tz {
			return formatTimestampNano(ts) + "+00:00"
		}
	}
	return formatAny(v)
}

func formatAny(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case iceberg.Date:
		return time.Unix(int64(x)*86400, 0).UTC().Format("2006-01-02")
	case iceberg.Time:
		return formatMicros(time.UnixMicro(int64(x)).UTC(), "15:04:05")
	case iceberg.Timestamp:
		return formatTimestamp(x)
	case iceberg.TimestampNano:
		return formatTimestampNano(x)
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case iceberg.UUID:
		return formatUUID(x)
	case []byte:
		return "X'" + hex.EncodeToString(x) + "'"
	case iceberg.Decimal:
		return x.String()
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

func formatTimestamp(ts iceberg.Timestamp) string {
	return formatMicros(time.UnixMicro(int64(ts)).UTC(), "2006-01-02T15:04:05")
}

// formatMicros prints a fraction only when the value has one.
func formatMicros(t time.Time, layout string) string {
	if t.Nanosecond() != 0 {
		layout += ".000000"
	}
	return t.Format(layout)
}

func formatUUID(u iceberg.UUID) string {
	h := hex.EncodeToString(u[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
