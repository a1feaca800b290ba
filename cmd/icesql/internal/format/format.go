// Package format prints query results as the shell's output formats.
package format

import (
	"bufio"
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

var writers = map[Format]func(*bufio.Writer, []string) rowPrinter{
	Aligned:  newAligned,
	CSV:      newCSV,
	TSV:      newTSV,
	JSON:     newJSON,
	Markdown: newMarkdown,
	Expanded: newExpanded,
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
	rw, err := NewRowWriter(w, f, r.Columns)
	if err != nil {
		return err
	}
	for _, row := range r.Rows {
		if err := rw.WriteRow(row); err != nil {
			return err
		}
	}
	return rw.Close()
}

// rowCount is the psql-style footer.
func rowCount(n int) string {
	if n == 1 {
		return "(1 row)"
	}
	return fmt.Sprintf("(%d rows)", n)
}
