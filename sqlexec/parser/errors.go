package parser

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrSyntax is wrapped by every *ParseError; test with errors.Is.
var ErrSyntax = errors.New("sql: syntax error")

// ParseError is malformed SQL: where it went wrong and what was expected.
// Line and Col are 1-based; Col counts characters, not bytes.
type ParseError struct {
	Line, Col int
	// Offset is the byte offset of the error in the script.
	Offset int
	// Near is the start of the text at the error position ("" at end of input).
	Near string
	Msg  string
	// Context is the script's line with a caret under the position, as
	// Caret renders it.
	Context string
}

func (e *ParseError) Error() string {
	var s string
	if e.Near == "" {
		s = fmt.Sprintf("syntax error at line %d column %d at end of input: %s", e.Line, e.Col, e.Msg)
	} else {
		s = fmt.Sprintf("syntax error at line %d column %d near %q: %s", e.Line, e.Col, e.Near, e.Msg)
	}
	if e.Context != "" {
		s += "\n" + e.Context
	}
	return s
}

// Unwrap makes errors.Is(err, ErrSyntax) true.
func (e *ParseError) Unwrap() error { return ErrSyntax }

const nearLen = 40

// newParseError locates byte offset off in src.
func newParseError(src string, off int, msg string) *ParseError {
	off = max(0, min(off, len(src)))
	line, col := lineCol(src, off)
	near := []rune(src[off:])
	if len(near) > nearLen {
		near = near[:nearLen]
	}
	return &ParseError{Line: line, Col: col, Offset: off, Near: string(near), Msg: msg, Context: Caret(src, off)}
}

func lineCol(src string, off int) (line, col int) {
	line, col = 1, 1
	for _, r := range src[:off] {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// caretWidth is how much of a long line Caret shows around the position.
const caretWidth = 72

// Caret renders the line of src holding byte offset off, with a caret
// under that position, as Postgres and DuckDB print errors:
//
//	LINE 1: SELECT * FROM trp
//	                      ^
//
// A long line is cut to the part around the position.
func Caret(src string, off int) string {
	off = max(0, min(off, len(src)))
	start := strings.LastIndexByte(src[:off], '\n') + 1
	end := strings.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += off
	}
	line, _ := lineCol(src, off)
	text, at := src[start:end], off-start
	prefix, suffix := "", ""
	if utf8.RuneCountInString(text) > caretWidth && utf8.RuneCountInString(text[:at]) > caretWidth/2 {
		cut := at
		for n := 0; n < caretWidth/2-8 && cut > 0; n++ {
			_, w := utf8.DecodeLastRuneInString(text[:cut])
			cut -= w
		}
		text, at, prefix = text[cut:], at-cut, "..."
	}
	if utf8.RuneCountInString(text) > caretWidth {
		cut := 0
		for n := 0; n < caretWidth && cut < len(text); n++ {
			_, w := utf8.DecodeRuneInString(text[cut:])
			cut += w
		}
		if cut > at {
			text, suffix = text[:cut], "..."
		}
	}
	head := fmt.Sprintf("LINE %d: %s", line, prefix)
	var pad strings.Builder
	pad.WriteString(strings.Repeat(" ", len(head)))
	for _, r := range text[:at] {
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	return head + strings.TrimRight(text, " \t\r") + suffix + "\n" + pad.String() + "^"
}

// LineCol gives the 1-based line and column (in characters) of byte
// offset off in src.
func LineCol(src string, off int) (line, col int) {
	return lineCol(src, max(0, min(off, len(src))))
}

// NameOffset is the byte offset of the first place sql writes the dotted
// name parts (ignoring case; quoted or not), or -1. With call, only a
// name followed by "(" counts.
func NameOffset(sql string, parts []string, call bool) int {
	toks, err := lex(sql)
	if err != nil || len(parts) == 0 {
		return -1
	}
	for i := range toks {
		k, j := 0, i
		for k < len(parts) && j < len(toks) && toks[j].isName() && strings.EqualFold(toks[j].val, parts[k]) {
			k++
			j++
			if k < len(parts) {
				if j >= len(toks) || !toks[j].isOp(".") {
					break
				}
				j++
			}
		}
		if k < len(parts) || (i > 0 && toks[i-1].isOp(".")) {
			continue
		}
		if call && !(j < len(toks) && toks[j].isOp("(")) {
			continue
		}
		return toks[i].pos
	}
	return -1
}
