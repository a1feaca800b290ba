// Package slt runs sqllogictest-style files (DuckDB flavour) against any
// database behind the small DB interface.
//
// Records are separated by blank lines:
//
//	statement ok
//	CREATE TABLE t (a INT)
//
//	statement error <regexp>
//	SELECT nope FROM t
//
//	query IT rowsort
//	SELECT a, b FROM t
//	----
//	1	x
//	NULL	y
//
// A query's type string has one letter per column (I integer, R float,
// T text, B boolean, D date/time; only the count is checked). Result rows
// are one line each, values separated by a tab. rowsort sorts the rows of
// both sides before comparing, valuesort sorts all values, nosort (the
// default) compares in order. "query error <regexp>" expects a failure.
// Lines starting with # are comments; "halt" stops the file.
//
// Values are rendered by the DB: NULL as NULL, booleans true/false,
// integers in decimal, floats with FormatFloat (shortest round-trip form),
// dates as YYYY-MM-DD and timestamps as YYYY-MM-DD HH:MM:SS[.ffffff].
package slt

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// DB is what a test file runs against.
type DB interface {
	Exec(sql string) error
	Query(sql string) (columns []string, rows [][]string, err error)
}

// ErrSyntax reports a malformed test file; wrapped by *SyntaxError.
var ErrSyntax = errors.New("slt: malformed test file")

// SyntaxError locates a malformed record.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("slt: line %d: %s", e.Line, e.Msg) }
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Kind is a record's kind.
type Kind int

// Record kinds.
const (
	StatementOK Kind = iota
	StatementError
	Query
	QueryError
)

// Record is one test case.
type Record struct {
	Kind    Kind
	Line    int
	SQL     string
	ErrorRE *regexp.Regexp
	Types   string
	Sort    string // "", "rowsort", "valuesort", "nosort"
	Expect  []string
}

// Failure is one record whose outcome differed from the file.
type Failure struct {
	Record Record
	Msg    string
}

func (f Failure) String() string {
	return fmt.Sprintf("line %d: %s\n  sql: %s", f.Record.Line, f.Msg, f.Record.SQL)
}

// Parse reads records from r.
func Parse(r io.Reader) ([]Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var lines []string
	for sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var recs []Record
	for i := 0; i < len(lines); {
		line := strings.TrimSpace(lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			i++
			continue
		}
		if line == "halt" {
			break
		}
		rec := Record{Line: i + 1}
		f := strings.Fields(line)
		switch {
		case f[0] == "statement" && len(f) >= 2 && f[1] == "ok":
			rec.Kind = StatementOK
		case f[0] == "statement" && len(f) >= 2 && f[1] == "error":
			rec.Kind = StatementError
		case f[0] == "query" && len(f) >= 2 && f[1] == "error":
			rec.Kind = QueryError
		case f[0] == "query" && len(f) >= 2:
			rec.Kind = Query
			rec.Types = f[1]
			if len(f) >= 3 {
				rec.Sort = f[2]
				if !slices.Contains([]string{"rowsort", "valuesort", "nosort"}, rec.Sort) {
					return nil, &SyntaxError{Line: i + 1, Msg: "unknown sort mode " + rec.Sort}
				}
			}
		default:
			return nil, &SyntaxError{Line: i + 1, Msg: "expected statement or query, got " + strconv.Quote(line)}
		}
		if rec.Kind == StatementError || rec.Kind == QueryError {
			pat := strings.TrimSpace(strings.SplitN(line, "error", 2)[1])
			re, err := regexp.Compile(pat)
			if err != nil {
				return nil, &SyntaxError{Line: i + 1, Msg: "bad error regexp: " + err.Error()}
			}
			rec.ErrorRE = re
		}
		i++
		var sql []string
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" && lines[i] != "----" {
			sql = append(sql, lines[i])
			i++
		}
		rec.SQL = strings.Join(sql, "\n")
		if rec.SQL == "" {
			return nil, &SyntaxError{Line: rec.Line, Msg: "record has no SQL"}
		}
		if i < len(lines) && lines[i] == "----" {
			if rec.Kind != Query {
				return nil, &SyntaxError{Line: i + 1, Msg: "---- after a record that is not a query"}
			}
			i++
			for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
				rec.Expect = append(rec.Expect, lines[i])
				i++
			}
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// RunFile parses and runs a file, returning the failures.
func RunFile(db DB, path string) ([]Failure, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var fails []Failure
	for _, r := range recs {
		if msg := RunRecord(db, r); msg != "" {
			fails = append(fails, Failure{Record: r, Msg: msg})
		}
	}
	return fails, nil
}

// RunRecord runs one record and describes any mismatch ("" if it passed).
func RunRecord(db DB, r Record) string {
	switch r.Kind {
	case StatementOK:
		if err := db.Exec(r.SQL); err != nil {
			return "unexpected error: " + err.Error()
		}
	case StatementError, QueryError:
		var err error
		if r.Kind == StatementError {
			err = db.Exec(r.SQL)
		} else {
			_, _, err = db.Query(r.SQL)
		}
		if err == nil {
			return "expected an error matching " + r.ErrorRE.String()
		}
		if !r.ErrorRE.MatchString(err.Error()) {
			return fmt.Sprintf("error %q does not match %s", err.Error(), r.ErrorRE)
		}
	case Query:
		cols, rows, err := db.Query(r.SQL)
		if err != nil {
			return "unexpected error: " + err.Error()
		}
		if len(cols) != len(r.Types) {
			return fmt.Sprintf("query returned %d columns, type string %q has %d", len(cols), r.Types, len(r.Types))
		}
		got := make([]string, len(rows))
		for i, row := range rows {
			got[i] = strings.Join(row, "\t")
		}
		want := slices.Clone(r.Expect)
		switch r.Sort {
		case "rowsort":
			slices.Sort(got)
			slices.Sort(want)
		case "valuesort":
			got, want = sortedValues(got), sortedValues(want)
		}
		if !slices.Equal(got, want) {
			return fmt.Sprintf("results differ\n--- want\n%s\n--- got\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
		}
	}
	return ""
}

func sortedValues(lines []string) []string {
	var vals []string
	for _, l := range lines {
		vals = append(vals, strings.Split(l, "\t")...)
	}
	slices.Sort(vals)
	return vals
}

// FormatFloat renders a float as result files expect: shortest round-trip
// decimal ('g' form), with NaN, Infinity and -Infinity spelled out.
func FormatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
