package load

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// csvScanner splits CSV records the way PostgreSQL's COPY ... CSV
// does: a quote character starts and ends a quoted section (where the
// delimiter and newlines are data), and inside one the escape character
// makes the next quote or escape character literal. When escape and
// quote are the same, a doubled quote is one quote. It records whether
// each field had a quoted section, since only an unquoted field can
// match the NULL string.
type csvScanner struct {
	in                   *bufio.Reader
	path                 string
	delim, quote, escape rune
	line                 int64 // lines read so far
	fields               []string
	quoted               []bool
	fieldLine            []int64 // line each field starts on
	buf                  strings.Builder
}

func newCSVScanner(path string, in io.Reader, opts Options) *csvScanner {
	return &csvScanner{in: bufio.NewReaderSize(in, 64<<10), path: path, delim: opts.Delimiter, quote: opts.Quote, escape: opts.Escape}
}

// read reads the next record into fields, or returns io.EOF after the
// last. A blank line is a record of one unquoted empty field.
func (s *csvScanner) read() error {
	s.fields, s.quoted, s.fieldLine = s.fields[:0], s.quoted[:0], s.fieldLine[:0]
	r, _, err := s.in.ReadRune()
	if err == io.EOF {
		return io.EOF
	}
	s.line++
	s.startField()
	inQuotes := false
	quoteLine := s.line
	for {
		if err != nil {
			if err != io.EOF {
				return &InputError{File: s.path, Line: s.line, Msg: "read", Err: err}
			}
			if inQuotes {
				return &InputError{File: s.path, Line: quoteLine, Msg: fmt.Sprintf("quoted field (%c) is not closed before the end of the file", s.quote)}
			}
			s.endField()
			return nil
		}
		switch {
		case inQuotes && r == s.escape && s.escape != s.quote:
			next, _, nerr := s.in.ReadRune()
			if nerr == nil && (next == s.quote || next == s.escape) {
				s.buf.WriteRune(next)
			} else {
				s.buf.WriteRune(r)
				if nerr == nil {
					s.in.UnreadRune()
				}
			}
		case inQuotes && r == s.quote:
			next, _, nerr := s.in.ReadRune()
			if nerr == nil && next == s.quote && s.escape == s.quote {
				s.buf.WriteRune(s.quote)
			} else {
				inQuotes = false
				if nerr == nil {
					s.in.UnreadRune()
				}
			}
		case inQuotes:
			if r == '\n' {
				s.line++
			}
			s.buf.WriteRune(r)
		case r == s.quote:
			inQuotes, quoteLine = true, s.line
			s.quoted[len(s.quoted)-1] = true
		case r == s.delim:
			s.endField()
			s.startField()
		case r == '\n':
			s.endField()
			return nil
		case r == '\r':
			if next, _, nerr := s.in.ReadRune(); nerr == nil && next != '\n' {
				s.in.UnreadRune()
			}
			s.endField()
			return nil
		default:
			s.buf.WriteRune(r)
		}
		r, _, err = s.in.ReadRune()
	}
}

func (s *csvScanner) startField() {
	s.buf.Reset()
	s.quoted = append(s.quoted, false)
	s.fieldLine = append(s.fieldLine, s.line)
}

func (s *csvScanner) endField() { s.fields = append(s.fields, s.buf.String()) }

// errCSVOption: QUOTE, ESCAPE and DELIMITER that cannot work together.
var errCSVOption = errors.New("QUOTE, ESCAPE and DELIMITER must be single characters, the delimiter unlike the quote, none a newline")

// checkCSVOptions validates the characters that split records.
func checkCSVOptions(o Options) error {
	for _, r := range []rune{o.Delimiter, o.Quote, o.Escape} {
		if r == '\n' || r == '\r' || r == 0 {
			return errCSVOption
		}
	}
	if o.Delimiter == o.Quote || o.Delimiter == o.Escape {
		return errCSVOption
	}
	return nil
}
