package bench

import (
	"database/sql"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Result is a query's rows with values normalised to int64, float64,
// string or nil, so both engines' answers compare.
type Result struct {
	Rows [][]any
}

// norm maps a driver value onto the few types results compare in.
func norm(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case int64:
		return x
	case int32:
		return int64(x)
	case int:
		return int64(x)
	case uint64:
		return int64(x)
	case float64:
		return x
	case float32:
		return float64(x)
	case string:
		return x
	case []byte:
		return string(x)
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05.999999")
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// readRows drains a database/sql result.
func readRows(rows *sql.Rows) (Result, error) {
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return Result{}, err
	}
	var res Result
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return Result{}, err
		}
		row := make([]any, len(cols))
		for i, v := range vals {
			row[i] = norm(v)
		}
		res.Rows = append(res.Rows, row)
	}
	return res, rows.Err()
}

// readArrow drains an Arrow result.
func readArrow(rr array.RecordReader) (Result, error) {
	defer rr.Release()
	var res Result
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			row := make([]any, rec.NumCols())
			for c := range row {
				row[c] = arrowValue(rec.Column(c), r)
			}
			res.Rows = append(res.Rows, row)
		}
	}
	return res, rr.Err()
}

func arrowValue(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch x := a.(type) {
	case *array.Int64:
		return x.Value(i)
	case *array.Int32:
		return int64(x.Value(i))
	case *array.Float64:
		return x.Value(i)
	case *array.String:
		return x.Value(i)
	case *array.LargeString:
		return x.Value(i)
	case *array.Timestamp:
		unit := x.DataType().(*arrow.TimestampType).Unit
		return norm(x.Value(i).ToTime(unit))
	}
	return fmt.Sprint(a.GetOneForMarshal(i))
}

func cellKey(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case float64:
		return strconv.FormatFloat(x, 'g', 6, 64)
	}
	return fmt.Sprint(v)
}

// Checksum hashes the rows (floats to 6 significant digits; in row order
// only when ordered).
func (r Result) Checksum(ordered bool) string {
	keys := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		var b strings.Builder
		for _, v := range row {
			b.WriteString(cellKey(v))
			b.WriteByte('|')
		}
		keys[i] = b.String()
	}
	if !ordered {
		slices.Sort(keys)
	}
	h := fnv.New64a()
	for _, k := range keys {
		h.Write([]byte(k))
		h.Write([]byte{'\n'})
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// sorted is r with its rows in a canonical order.
func (r Result) sorted() [][]any {
	rows := slices.Clone(r.Rows)
	slices.SortFunc(rows, func(a, b []any) int {
		for i := range a {
			if c := strings.Compare(cellKey(a[i]), cellKey(b[i])); c != 0 {
				return c
			}
		}
		return 0
	})
	return rows
}

// Diff says how got differs from want, or "" when they agree (floats to a
// relative 1e-9: the engines add in different orders).
func Diff(want, got Result, ordered bool) string {
	if len(want.Rows) != len(got.Rows) {
		return fmt.Sprintf("%d rows, want %d", len(got.Rows), len(want.Rows))
	}
	w, g := want.Rows, got.Rows
	if !ordered {
		w, g = want.sorted(), got.sorted()
	}
	for i := range w {
		if len(w[i]) != len(g[i]) {
			return fmt.Sprintf("row %d: %d columns, want %d", i, len(g[i]), len(w[i]))
		}
		for c := range w[i] {
			if !sameValue(w[i][c], g[i][c]) {
				return fmt.Sprintf("row %d column %d: %v, want %v", i, c, g[i][c], w[i][c])
			}
		}
	}
	return ""
}

func sameValue(a, b any) bool {
	fa, aok := a.(float64)
	fb, bok := b.(float64)
	if aok && bok {
		return fa == fb || math.Abs(fa-fb) <= 1e-9*math.Max(math.Abs(fa), math.Abs(fb))
	}
	if aok || bok { // an integral float against an integer
		ia, ib := toFloat(a), toFloat(b)
		return !math.IsNaN(ia) && ia == ib
	}
	return a == b
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	}
	return math.NaN()
}
