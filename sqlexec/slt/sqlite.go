package slt

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// This file reads scripts in the format of SQLite's own sqllogictest
// harness (https://www.sqlite.org/sqllogictest), as its C runner reads
// them: records separated by blank lines, "#" lines ignored anywhere,
// results listed one value per line or as "N values hashing to MD5",
// type strings of I, R and T, sort modes nosort/rowsort/valuesort, an
// optional result label, "hash-threshold N", "halt", and "skipif" /
// "onlyif" lines naming the engine a record is for.

// ScriptKind is the kind of a record of a SQLite-format script.
type ScriptKind int

// Record kinds of a SQLite-format script.
const (
	ScriptStatement ScriptKind = iota // statement ok / statement error
	ScriptQuery
	ScriptHashThreshold
	ScriptHalt
)

// Condition is one skipif/onlyif line before a record.
type Condition struct {
	Only   bool // onlyif (else skipif)
	Engine string
}

// ScriptRecord is one record of a SQLite-format script.
type ScriptRecord struct {
	Kind       ScriptKind
	Line       int
	Conditions []Condition
	ExpectErr  bool   // statement error
	SQL        string // statements and queries
	Types      string // query type string, one of I/R/T per column
	Sort       string // "nosort", "rowsort" or "valuesort"
	Label      string // results of queries with one label must agree
	Expect     []string
	Threshold  int // hash-threshold
}

// Applies reports whether the record runs for the named engine: a
// skipif naming it or an onlyif naming another skips it (names compare
// case-insensitively, as the C harness does).
func (r ScriptRecord) Applies(engine string) bool {
	for _, c := range r.Conditions {
		match := strings.EqualFold(c.Engine, engine)
		if match != c.Only {
			return false
		}
	}
	return true
}

// ParseScript reads a SQLite-format script.
func ParseScript(rd io.Reader) ([]ScriptRecord, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var lines []string
	for sc.Scan() {
		l := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(l) == "" {
			l = ""
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	p := &scriptParser{lines: lines}
	var recs []ScriptRecord
	for {
		rec, ok, err := p.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return recs, nil
		}
		recs = append(recs, rec)
	}
}

type scriptParser struct {
	lines []string
	i     int
}

// line returns the next line that is not a comment, or ok=false at the end.
func (p *scriptParser) line() (string, int, bool) {
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		p.i++
		if !strings.HasPrefix(l, "#") {
			return l, p.i, true
		}
	}
	return "", p.i, false
}

// peekBlank reports whether the next non-comment line is blank or the end.
func (p *scriptParser) peekBlank() bool {
	for j := p.i; j < len(p.lines); j++ {
		if !strings.HasPrefix(p.lines[j], "#") {
			return p.lines[j] == ""
		}
	}
	return true
}

// body reads lines up to a blank line (or, with stopAtDashes, a "----").
func (p *scriptParser) body(stopAtDashes bool) (lines []string, sawDashes bool) {
	for !p.peekBlank() {
		l, _, _ := p.line()
		if stopAtDashes && l == "----" {
			return lines, true
		}
		lines = append(lines, l)
	}
	return lines, false
}

func (p *scriptParser) next() (ScriptRecord, bool, error) {
	var rec ScriptRecord
	var l string
	for {
		var ok bool
		l, rec.Line, ok = p.line()
		if !ok {
			return rec, false, nil
		}
		if l != "" {
			break
		}
	}
	tok := strings.Fields(l)
	for tok[0] == "skipif" || tok[0] == "onlyif" {
		if len(tok) < 2 {
			return rec, false, &SyntaxError{Line: rec.Line, Msg: tok[0] + " without an engine name"}
		}
		rec.Conditions = append(rec.Conditions, Condition{Only: tok[0] == "onlyif", Engine: tok[1]})
		var ok bool
		l, rec.Line, ok = p.line()
		if !ok || l == "" {
			return rec, false, &SyntaxError{Line: rec.Line, Msg: "condition without a record"}
		}
		tok = strings.Fields(l)
	}
	switch tok[0] {
	case "statement":
		if len(tok) < 2 || (tok[1] != "ok" && tok[1] != "error") {
			return rec, false, &SyntaxError{Line: rec.Line, Msg: "statement argument should be 'ok' or 'error'"}
		}
		rec.Kind = ScriptStatement
		rec.ExpectErr = tok[1] == "error"
		sql, _ := p.body(false)
		rec.SQL = strings.Join(sql, "\n")
	case "query":
		rec.Kind = ScriptQuery
		if len(tok) < 2 || strings.Trim(tok[1], "IRT") != "" {
			return rec, false, &SyntaxError{Line: rec.Line, Msg: "query needs a type string of I, R and T"}
		}
		rec.Types = tok[1]
		rec.Sort = "nosort"
		if len(tok) >= 3 {
			rec.Sort = tok[2]
		}
		switch rec.Sort {
		case "nosort", "rowsort", "valuesort":
		default:
			return rec, false, &SyntaxError{Line: rec.Line, Msg: "unknown sort method " + strconv.Quote(rec.Sort)}
		}
		if len(tok) >= 4 {
			rec.Label = tok[3]
		}
		sql, dashes := p.body(true)
		rec.SQL = strings.Join(sql, "\n")
		if dashes {
			rec.Expect, _ = p.body(false)
		}
	case "hash-threshold":
		rec.Kind = ScriptHashThreshold
		n := 0
		if len(tok) >= 2 {
			n, _ = strconv.Atoi(tok[1]) // atoi, as the C harness: junk reads as 0
		}
		rec.Threshold = n
	case "halt":
		rec.Kind = ScriptHalt
	default:
		return rec, false, &SyntaxError{Line: rec.Line, Msg: "unknown record type " + strconv.Quote(tok[0])}
	}
	if rec.Kind <= ScriptQuery && rec.SQL == "" {
		return rec, false, &SyntaxError{Line: rec.Line, Msg: "record has no SQL"}
	}
	// Skip whatever is left of the record (the C harness does too).
	for !p.peekBlank() {
		p.line()
	}
	return rec, true, nil
}
