package duck

import (
	"bytes"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// kind says how a column's values are rendered for comparison, so that
// the two drivers' Go forms of one value (a float32 as float64, a decimal
// as text or as a scaled integer, a list as JSON or as []any) print alike.
type kind int

const (
	kBool kind = iota
	kInt
	kFloat32
	kFloat64
	kDecimal
	kDate
	kTimestamp
	kTime
	kString
	kBinary
	kUUID
	kJSON // nested values: JSON text with object keys sorted
)

// canon renders one value of the given kind; nil is NULL.
func canon(k kind, v any) (string, error) {
	if v == nil {
		return "NULL", nil
	}
	switch k {
	case kBool:
		if b, ok := v.(bool); ok {
			return strconv.FormatBool(b), nil
		}
	case kInt:
		switch x := v.(type) {
		case int8, int16, int32, int64, int, uint8, uint16, uint32:
			return fmt.Sprint(x), nil
		}
	case kFloat32:
		switch x := v.(type) {
		case float32:
			return strconv.FormatFloat(float64(x), 'g', -1, 32), nil
		case float64:
			return strconv.FormatFloat(float64(float32(x)), 'g', -1, 32), nil
		}
	case kFloat64:
		if x, ok := v.(float64); ok {
			return strconv.FormatFloat(x, 'g', -1, 64), nil
		}
	case kDecimal:
		switch x := v.(type) {
		case string:
			return x, nil
		case duckdb.Decimal:
			return decimalText(x.Value, int(x.Scale)), nil
		}
	case kDate:
		if t, ok := v.(time.Time); ok {
			return t.UTC().Format("2006-01-02"), nil
		}
	case kTimestamp:
		if t, ok := v.(time.Time); ok {
			return t.UTC().Format("2006-01-02T15:04:05.000000"), nil
		}
	case kTime:
		switch x := v.(type) {
		case time.Time:
			return x.Format("15:04:05.000000"), nil
		case string:
			t, err := time.Parse("15:04:05.999999", x)
			if err != nil {
				return "", err
			}
			return t.Format("15:04:05.000000"), nil
		}
	case kString:
		if s, ok := v.(string); ok {
			return strconv.Quote(s), nil
		}
	case kBinary:
		if b, ok := v.([]byte); ok {
			return hex.EncodeToString(b), nil
		}
	case kUUID:
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			if len(x) == 16 {
				var u duckdb.UUID
				copy(u[:], x)
				return u.String(), nil
			}
		case duckdb.UUID:
			return x.String(), nil
		}
	case kJSON:
		if s, ok := v.(string); ok {
			return sortedJSON(s)
		}
	}
	return "", fmt.Errorf("no rendering of %T as kind %d", v, k)
}

func decimalText(unscaled *big.Int, scale int) string {
	s := new(big.Int).Abs(unscaled).String()
	for len(s) <= scale {
		s = "0" + s
	}
	if scale > 0 {
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if unscaled.Sign() < 0 {
		s = "-" + s
	}
	return s
}

// sortedJSON re-encodes JSON text with object keys sorted and numbers as
// written, so key order and spacing do not matter.
func sortedJSON(s string) (string, error) {
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "", fmt.Errorf("JSON %q: %w", s, err)
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// readRows runs the query and renders every row, columns in kinds' order.
func readRows(tb testing.TB, db *sql.DB, kinds []kind, query string, args ...any) []string {
	tb.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		tb.Fatal(err)
	}
	if len(cols) != len(kinds) {
		tb.Fatalf("%s: %d columns, want %d", query, len(cols), len(kinds))
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out []string
	var line bytes.Buffer
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		line.Reset()
		for i, v := range vals {
			s, err := canon(kinds[i], v)
			if err != nil {
				tb.Fatalf("%s: column %s: %v", query, cols[i], err)
			}
			if i > 0 {
				line.WriteString(" | ")
			}
			line.WriteString(s)
		}
		out = append(out, line.String())
	}
	if err := rows.Err(); err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	return out
}

// requireSame fails with the first differing rows.
func requireSame(tb testing.TB, wantName string, want []string, gotName string, got []string) {
	tb.Helper()
	if len(want) != len(got) {
		tb.Errorf("%s has %d rows, %s has %d", wantName, len(want), gotName, len(got))
	}
	shown := 0
	for i := 0; i < len(want) && i < len(got) && shown < 5; i++ {
		if want[i] != got[i] {
			tb.Errorf("row %d differs:\n  %s: %s\n  %s: %s", i, wantName, want[i], gotName, got[i])
			shown++
		}
	}
}
