package parser

import (
	"errors"
	"fmt"
)

// ErrSyntax is wrapped by every *ParseError; test with errors.Is.
var ErrSyntax = errors.New("sql: syntax error")

// ParseError is malformed SQL: where it went wrong and what was expected.
// Line and Col are 1-based; Col counts characters, not bytes.
type ParseError struct {
	Line, Col int
	// Near is the start of the text at the error position ("" at end of input).
	Near string
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Near == "" {
		return fmt.Sprintf("syntax error at line %d column %d at end of input: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("syntax error at line %d column %d near %q: %s", e.Line, e.Col, e.Near, e.Msg)
}

// Unwrap makes errors.Is(err, ErrSyntax) true.
func (e *ParseError) Unwrap() error { return ErrSyntax }

const nearLen = 40

// newParseError locates byte offset off in src.
func newParseError(src string, off int, msg string) *ParseError {
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	line, col := 1, 1
	for _, r := range src[:off] {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	near := []rune(src[off:])
	if len(near) > nearLen {
		near = near[:nearLen]
	}
	return &ParseError{Line: line, Col: col, Near: string(near), Msg: msg}
}
