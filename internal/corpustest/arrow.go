package corpustest

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Pqarrow reads a whole Parquet file with arrow-go's pqarrow and renders
// its rows canonically; a panic of arrow-go is returned as an error.
func Pqarrow(data []byte) (rows [][]string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	return Table(tbl), nil
}

// Table renders every row of tbl canonically: the row's values in column
// order, each as Value renders it.
func Table(tbl arrow.Table) [][]string {
	rows := make([][]string, tbl.NumRows())
	for c := range int(tbl.NumCols()) {
		at := 0
		for _, chunk := range tbl.Column(c).Data().Chunks() {
			for i := range chunk.Len() {
				rows[at] = append(rows[at], Value(chunk, i))
				at++
			}
		}
	}
	return rows
}

// Value renders one value in a form that does not depend on the width of
// the type holding it: integers of every width in decimal, floats by
// their float64 value (NaN as NaN), strings and binaries alike as quoted
// bytes (a float16 as its two little-endian bytes: Iceberg has no float16
// and reads it as fixed(2), as Java does), decimals with their scale,
// timestamps as UTC digits to the nanosecond with a Z when adjusted to
// UTC, lists as [..], maps as {k: v, ..}, structs as {v, ..} in field
// order; dictionaries as their values and extensions as their storage
// (a variant by its metadata and value, NULL only for a SQL NULL).
func Value(arr arrow.Array, i int) string {
	if va, ok := arr.(*extensions.VariantArray); ok {
		// arrow-go reports a variant null (a value) as null too: the
		// storage tells SQL NULL
		return Value(va.Storage(), i)
	}
	if arr.IsNull(i) {
		return "null"
	}
	switch a := arr.(type) {
	case *array.Null:
		return "null"
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i))
	case *array.Int8:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int16:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *array.Uint8:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint16:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint32:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint64:
		return strconv.FormatUint(a.Value(i), 10)
	case *array.Float16:
		b := a.Value(i).Uint16()
		return Bytes([]byte{byte(b), byte(b >> 8)})
	case *array.Float32:
		return Float(float64(a.Value(i)))
	case *array.Float64:
		return Float(a.Value(i))
	case *array.String:
		return Bytes([]byte(a.Value(i)))
	case *array.LargeString:
		return Bytes([]byte(a.Value(i)))
	case *array.StringView:
		return Bytes([]byte(a.Value(i)))
	case *array.Binary:
		return Bytes(a.Value(i))
	case *array.LargeBinary:
		return Bytes(a.Value(i))
	case *array.BinaryView:
		return Bytes(a.Value(i))
	case *array.FixedSizeBinary:
		return Bytes(a.Value(i))
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Decimal256:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal256Type).Scale)
	case *array.Decimal64:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal64Type).Scale)
	case *array.Decimal32:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal32Type).Scale)
	case *array.Date32:
		return Date(int64(a.Value(i)))
	case *array.Date64:
		return Date(int64(a.Value(i)) / 86400000)
	case *array.Timestamp:
		tt := a.DataType().(*arrow.TimestampType)
		return Timestamp(toTime(int64(a.Value(i)), tt.Unit), tt.TimeZone != "")
	case *array.Time32:
		return Time(toTime(int64(a.Value(i)), a.DataType().(*arrow.Time32Type).Unit))
	case *array.Time64:
		return Time(toTime(int64(a.Value(i)), a.DataType().(*arrow.Time64Type).Unit))
	case *array.Map:
		start, end := a.ValueOffsets(i)
		keys, items := a.Keys(), a.Items()
		parts := make([]string, 0, end-start)
		for j := start; j < end; j++ {
			parts = append(parts, Value(keys, int(j))+": "+Value(items, int(j)))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		vals := a.ListValues()
		parts := make([]string, 0, end-start)
		for j := start; j < end; j++ {
			parts = append(parts, Value(vals, int(j)))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *array.Struct:
		parts := make([]string, a.NumField())
		for f := range a.NumField() {
			parts[f] = Value(a.Field(f), i)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *array.Dictionary:
		return Value(a.Dictionary(), a.GetValueIndex(i))
	case array.ExtensionArray:
		return Value(a.Storage(), i)
	}
	return arr.DataType().String() + ":" + arr.ValueStr(i)
}

// Float renders a floating-point value by its float64 value; every NaN is
// NaN, and -0 keeps its sign.
func Float(f float64) string {
	if math.IsNaN(f) {
		return "NaN"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// Bytes renders a string or a binary value as quoted bytes.
func Bytes(b []byte) string { return strconv.Quote(string(b)) }

// Date renders days since the Unix epoch.
func Date(days int64) string {
	return time.Unix(days*86400, 0).UTC().Format("2006-01-02")
}

// Timestamp renders a time in UTC to the nanosecond, with a Z when the
// value is adjusted to UTC (an instant).
func Timestamp(t time.Time, utc bool) string {
	s := t.UTC().Format("2006-01-02T15:04:05.999999999")
	if utc {
		s += "Z"
	}
	return s
}

// Time renders a time of day (t's offset from the Unix epoch).
func Time(t time.Time) string {
	return t.UTC().Format("15:04:05.999999999")
}

// toTime converts a count of units since the Unix epoch without
// overflowing (Spark's INT96 reaches years past 2262, beyond int64
// nanoseconds).
func toTime(v int64, u arrow.TimeUnit) time.Time {
	per := map[arrow.TimeUnit]int64{arrow.Second: 1, arrow.Millisecond: 1e3, arrow.Microsecond: 1e6, arrow.Nanosecond: 1e9}[u]
	sec, frac := v/per, v%per
	if frac < 0 {
		sec, frac = sec-1, frac+per
	}
	return time.Unix(sec, frac*(1e9/per))
}
