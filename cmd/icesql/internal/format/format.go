// Package format prints query results as the shell's output formats.
package format

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Format is an output format.
type Format string

// The output formats.
const (
	Aligned  Format = "aligned"
	CSV      Format = "csv"
	TSV      Format = "tsv"
	JSON     Format = "json"
	Markdown Format = "markdown"
	Expanded Format = "expanded"
)

var writers = map[Format]func(io.Writer, *Result) error{
	Aligned:  writeAligned,
	CSV:      writeCSV,
	TSV:      writeTSV,
	JSON:     writeJSON,
	Markdown: writeMarkdown,
	Expanded: writeExpanded,
}

// Names lists the formats, sorted.
func Names() []string {
	var out []string
	for f := range writers {
		out = append(out, string(f))
	}
	sort.Strings(out)
	return out
}

// Parse checks a format name (case-insensitive).
func Parse(name string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(name)))
	if _, ok := writers[f]; !ok {
		return "", &UnknownFormatError{Name: name}
	}
	return f, nil
}

// Result is a query result held in memory: column names and rows of
// values as database/sql scans them into any (nil is NULL).
type Result struct {
	Columns []string
	Rows    [][]any
}

// Write prints r in format f.
func Write(w io.Writer, f Format, r *Result) error {
	write, ok := writers[f]
	if !ok {
		return &UnknownFormatError{Name: string(f)}
	}
	for i, row := range r.Rows {
		if len(row) != len(r.Columns) {
			return fmt.Errorf("%w: row %d has %d values for %d columns", ErrShape, i+1, len(row), len(r.Columns))
		}
	}
	return write(w, r)
}

// rowCount is the psql-style footer.
func rowCount(n int) string {
	if n == 1 {
		return "(1 row)"
	}
	return fmt.Sprintf("(%d rows)", n)
}
