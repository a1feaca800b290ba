package load

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// newCSV reads CSV records. With a header, columns are matched by name
// (case-insensitively) and table columns missing from the file are
// NULL; without one, each record must have one field per table column.
// An unquoted field equal to opts.Null (default: empty) is NULL; blank
// lines are skipped.
func newCSV(path string, in io.Reader, cols []Column, opts Options, b *batcher) (func() (arrow.RecordBatch, error), error) {
	if err := checkCSVOptions(opts); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadCommand, err)
	}
	sc := newCSVScanner(path, in, opts)
	// fieldCol[i] is the table column of field i.
	var fieldCol []int
	if opts.Header {
		if err := sc.read(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil, &InputError{File: path, Msg: "empty file: no header line"}
			}
			return nil, err
		}
		var err error
		if fieldCol, err = matchHeader(path, sc.fields, cols); err != nil {
			return nil, err
		}
	} else {
		fieldCol = make([]int, len(cols))
		for i := range cols {
			fieldCol[i] = i
		}
	}
	vals := make([]any, len(cols))
	return func() (arrow.RecordBatch, error) {
		for {
			if err := sc.read(); err != nil {
				if errors.Is(err, io.EOF) {
					return b.flush()
				}
				return nil, err
			}
			if len(sc.fields) == 1 && sc.fields[0] == "" && !sc.quoted[0] && len(fieldCol) != 1 {
				continue
			}
			if len(sc.fields) != len(fieldCol) {
				return nil, &InputError{File: path, Line: sc.fieldLine[0], Msg: fmt.Sprintf("%d fields, want %d", len(sc.fields), len(fieldCol))}
			}
			clear(vals)
			for i, s := range sc.fields {
				c := fieldCol[i]
				if !sc.quoted[i] && s == opts.Null {
					continue
				}
				v, err := fromText(cols[c].Type, s)
				if err != nil {
					return nil, &ValueError{File: path, Line: sc.fieldLine[i], Column: cols[c].Name, Field: i + 1, Value: s, Type: typeName(cols[c].Type), Err: err}
				}
				vals[c] = v
			}
			for c, v := range vals {
				if err := b.append(c, v); err != nil {
					return nil, err
				}
			}
			if b.endRow() {
				return b.flush()
			}
		}
	}, nil
}

// matchHeader maps the header's fields to table columns.
func matchHeader(path string, header []string, cols []Column) ([]int, error) {
	fieldCol := make([]int, len(header))
	seen := map[int]bool{}
	for i, h := range header {
		fieldCol[i] = -1
		for j, c := range cols {
			if strings.EqualFold(strings.TrimSpace(h), c.Name) {
				fieldCol[i] = j
			}
		}
		if fieldCol[i] < 0 {
			return nil, &InputError{File: path, Line: 1, Msg: fmt.Sprintf("header field %d %q is not a column of the table", i+1, h)}
		}
		if seen[fieldCol[i]] {
			return nil, &InputError{File: path, Line: 1, Msg: fmt.Sprintf("header names column %q twice", h)}
		}
		seen[fieldCol[i]] = true
	}
	return fieldCol, nil
}
