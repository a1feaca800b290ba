package load

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// newCSV reads CSV records. With a header, columns are matched by name
// (case-insensitively) and table columns missing from the file are
// NULL; without one, each record must have one field per table column.
// An empty field is NULL.
func newCSV(path string, in io.Reader, cols []Column, opts Options, b *batcher) (func() (arrow.RecordBatch, error), error) {
	cr := csv.NewReader(in)
	cr.Comma = opts.Delimiter
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	// fieldCol[i] is the table column of field i.
	var fieldCol []int
	if opts.Header {
		header, err := cr.Read()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, &InputError{File: path, Msg: "empty file: no header line"}
			}
			return nil, csvError(path, err)
		}
		fieldCol = make([]int, len(header))
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
	} else {
		fieldCol = make([]int, len(cols))
		for i := range cols {
			fieldCol[i] = i
		}
	}
	present := make([]bool, len(cols))
	for _, c := range fieldCol {
		present[c] = true
	}
	vals := make([]any, len(cols))
	return func() (arrow.RecordBatch, error) {
		for {
			rec, err := cr.Read()
			if errors.Is(err, io.EOF) {
				return b.flush()
			}
			if err != nil {
				return nil, csvError(path, err)
			}
			line, _ := cr.FieldPos(0)
			if len(rec) != len(fieldCol) {
				return nil, &InputError{File: path, Line: int64(line), Msg: fmt.Sprintf("%d fields, want %d", len(rec), len(fieldCol))}
			}
			clear(vals)
			for i, s := range rec {
				c := fieldCol[i]
				if s == "" {
					continue
				}
				v, err := fromText(cols[c].Type, s)
				if err != nil {
					l, _ := cr.FieldPos(i)
					return nil, &ValueError{File: path, Line: int64(l), Column: cols[c].Name, Field: i + 1, Value: s, Type: typeName(cols[c].Type), Err: err}
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

func csvError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &InputError{File: path, Line: int64(pe.Line), Msg: fmt.Sprintf("column %d: malformed CSV", pe.Column), Err: pe.Err}
	}
	return &InputError{File: path, Msg: "read", Err: err}
}
