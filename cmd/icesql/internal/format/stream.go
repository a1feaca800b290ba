package format

import (
	"bufio"
	"fmt"
	"io"
)

// AlignWindow is how many rows the aligned format reads before it fixes
// the column widths; later rows are printed as they come, and a wider
// value than its column overflows it rather than re-aligning the table.
const AlignWindow = 1000

// RowWriter prints a result one row at a time, so a result need not fit
// in memory. Call Close after the last row: it prints what is still
// held back and any footer.
type RowWriter interface {
	WriteRow(row []any) error
	// Flush pushes buffered output to the underlying writer.
	Flush() error
	Close() error
}

// NewRowWriter starts printing a result with the given columns in
// format f.
func NewRowWriter(w io.Writer, f Format, columns []string) (RowWriter, error) {
	newWriter, ok := writers[f]
	if !ok {
		return nil, &UnknownFormatError{Name: string(f)}
	}
	b := bufio.NewWriter(w)
	return &shapeChecker{rowPrinter: newWriter(b, columns), out: b, columns: len(columns)}, nil
}

// rowPrinter is one format's printer, writing into a bufio.Writer.
type rowPrinter interface {
	row(row []any) error
	end() error
}

// shapeChecker checks every row's width before the format sees it.
type shapeChecker struct {
	rowPrinter
	out     *bufio.Writer
	columns int
	rows    int
}

func (s *shapeChecker) WriteRow(row []any) error {
	s.rows++
	if len(row) != s.columns {
		return fmt.Errorf("%w: row %d has %d values for %d columns", ErrShape, s.rows, len(row), s.columns)
	}
	return s.row(row)
}

func (s *shapeChecker) Flush() error { return s.out.Flush() }

func (s *shapeChecker) Close() error {
	if err := s.end(); err != nil {
		return err
	}
	return s.out.Flush()
}
