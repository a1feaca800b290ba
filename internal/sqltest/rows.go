// Package sqltest holds what the tests of several packages use to read
// database/sql results.
package sqltest

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// ScanRow scans the current row of rows into one value per column (nil
// for NULL), as the driver returns them.
func ScanRow(rows *sql.Rows, ncols int) ([]any, error) {
	vals := make([]any, ncols)
	ptrs := make([]any, ncols)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, err
	}
	return vals, nil
}

// Rows runs q on db and returns its column names and every row as
// ScanRow reads it.
func Rows(db *sql.DB, q string, args ...any) (cols []string, out [][]any, err error) {
	rows, err := db.Query(q, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	if cols, err = rows.Columns(); err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		vals, err := ScanRow(rows, len(cols))
		if err != nil {
			return nil, nil, err
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	return cols, out, nil
}

// JoinedRows runs q on db and renders every row as its values joined by
// "|": []byte as text, anything else as fmt.Sprint prints it (NULL as
// <nil>).
func JoinedRows(db *sql.DB, q string, args ...any) ([]string, error) {
	_, rows, err := Rows(db, q, args...)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, vals := range rows {
		parts := make([]string, len(vals))
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			parts[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out, nil
}

// QueryStrings is JoinedRows failing the test on an error.
func QueryStrings(tb testing.TB, db *sql.DB, q string, args ...any) []string {
	tb.Helper()
	out, err := JoinedRows(db, q, args...)
	if err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	return out
}
