package interop

import (
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// renderRecord renders each row of rec as one canonical string: column
// names, then values by their Iceberg meaning, independent of the Arrow
// physical choice (string vs large_string, list vs large_list, time unit),
// so two engines' rows compare exactly.
func renderRecord(rec arrow.RecordBatch) []string {
	out := make([]string, rec.NumRows())
	var sb strings.Builder
	for i := range int(rec.NumRows()) {
		sb.Reset()
		for c := range int(rec.NumCols()) {
			if c > 0 {
				sb.WriteString(" | ")
			}
			sb.WriteString(rec.ColumnName(c))
			sb.WriteByte('=')
			renderValue(&sb, rec.Column(c), i)
		}
		out[i] = sb.String()
	}
	return out
}

func renderValue(sb *strings.Builder, arr arrow.Array, i int) {
	if arr.IsNull(i) {
		sb.WriteString("NULL")
		return
	}
	switch a := arr.(type) {
	case *array.Boolean:
		sb.WriteString(strconv.FormatBool(a.Value(i)))
	case *array.Int32:
		fmt.Fprintf(sb, "i%d", a.Value(i))
	case *array.Int64:
		fmt.Fprintf(sb, "l%d", a.Value(i))
	case *array.Float32:
		sb.WriteString("f" + renderFloat(float64(a.Value(i)), 32))
	case *array.Float64:
		sb.WriteString("d" + renderFloat(a.Value(i), 64))
	case *array.Decimal128:
		dt := a.DataType().(*arrow.Decimal128Type)
		fmt.Fprintf(sb, "dec(%s,%d)", a.Value(i).BigInt().String(), dt.Scale)
	case *array.Date32:
		fmt.Fprintf(sb, "date%d", a.Value(i))
	case *array.Time64:
		fmt.Fprintf(sb, "time%d", toMicros(int64(a.Value(i)), a.DataType().(*arrow.Time64Type).Unit))
	case *array.Timestamp:
		dt := a.DataType().(*arrow.TimestampType)
		kind := "ts"
		if dt.TimeZone != "" {
			kind = "tstz"
		}
		fmt.Fprintf(sb, "%s%d", kind, toMicros(int64(a.Value(i)), dt.Unit))
	case *array.String:
		sb.WriteString(strconv.Quote(a.Value(i)))
	case *array.LargeString:
		sb.WriteString(strconv.Quote(a.Value(i)))
	case *array.StringView:
		sb.WriteString(strconv.Quote(a.Value(i)))
	case *array.Binary:
		sb.WriteString("x" + hex.EncodeToString(a.Value(i)))
	case *array.LargeBinary:
		sb.WriteString("x" + hex.EncodeToString(a.Value(i)))
	case *array.BinaryView:
		sb.WriteString("x" + hex.EncodeToString(a.Value(i)))
	case *array.FixedSizeBinary:
		sb.WriteString("x" + hex.EncodeToString(a.Value(i)))
	case array.ExtensionArray:
		renderValue(sb, a.Storage(), i)
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		sb.WriteByte('{')
		for f := range a.NumField() {
			if f > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(st.Field(f).Name + ":")
			renderValue(sb, a.Field(f), i)
		}
		sb.WriteByte('}')
	case *array.Map: // before ListLike: a map is a list of entries
		start, end := a.ValueOffsets(i)
		sb.WriteString("map{")
		for j := start; j < end; j++ {
			if j > start {
				sb.WriteString(", ")
			}
			renderValue(sb, a.Keys(), int(j))
			sb.WriteString("=>")
			renderValue(sb, a.Items(), int(j))
		}
		sb.WriteByte('}')
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		sb.WriteByte('[')
		for j := start; j < end; j++ {
			if j > start {
				sb.WriteString(", ")
			}
			renderValue(sb, a.ListValues(), int(j))
		}
		sb.WriteByte(']')
	default:
		fmt.Fprintf(sb, "?%v:%s", arr.DataType(), arr.ValueStr(i))
	}
}

// renderFloat keeps NaN, signed zero and infinities distinct.
func renderFloat(f float64, bits int) string {
	if math.IsNaN(f) {
		return "NaN"
	}
	if f == 0 && math.Signbit(f) {
		return "-0"
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

func toMicros(v int64, unit arrow.TimeUnit) int64 {
	switch unit {
	case arrow.Second:
		return v * 1_000_000
	case arrow.Millisecond:
		return v * 1_000
	case arrow.Nanosecond:
		return v / 1_000
	}
	return v
}

func sortRows(rows []string) []string {
	slices.Sort(rows)
	return rows
}

// requireSameRows fails the test with the first differences when the two
// sorted row lists differ.
func requireSameRows(tb testing.TB, wantName string, want []string, gotName string, got []string) {
	tb.Helper()
	if slices.Equal(want, got) {
		return
	}
	tb.Errorf("%s has %d rows, %s has %d", wantName, len(want), gotName, len(got))
	onlyWant, onlyGot := rowDiff(want, got)
	for i, r := range onlyWant {
		if i == 5 {
			tb.Errorf("... %d more only in %s", len(onlyWant)-5, wantName)
			break
		}
		tb.Errorf("only in %s: %s", wantName, r)
	}
	for i, r := range onlyGot {
		if i == 5 {
			tb.Errorf("... %d more only in %s", len(onlyGot)-5, gotName)
			break
		}
		tb.Errorf("only in %s: %s", gotName, r)
	}
	tb.FailNow()
}

// rowDiff returns the multiset differences of two sorted lists.
func rowDiff(a, b []string) (onlyA, onlyB []string) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			i++
			j++
		case a[i] < b[j]:
			onlyA = append(onlyA, a[i])
			i++
		default:
			onlyB = append(onlyB, b[j])
			j++
		}
	}
	return append(onlyA, a[i:]...), append(onlyB, b[j:]...)
}
