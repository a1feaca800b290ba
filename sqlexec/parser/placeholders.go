package parser

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// PlaceholderStyle is how a script writes its placeholders.
type PlaceholderStyle int

const (
	// Positional: ? (or none at all).
	Positional PlaceholderStyle = iota
	// Numbered: $1, $2, ... as Postgres (pgx); a number may repeat.
	Numbered
	// Named: :name or @name, as SQLite (go-sqlite3); a name may repeat.
	Named
)

// Placeholder is one placeholder of a script, in written order.
type Placeholder struct {
	Number int    // of $n; 0 otherwise
	Name   string // of :name or @name, without the sigil; "" otherwise
	Pos    int    // byte offset in the script
	end    int
}

// Placeholders rewrites the $n, :name and @name placeholders of a script
// into ?, padded with spaces so every byte offset stays where it was, and
// lists them in written order. A script of ? placeholders (or none) comes
// back as it is, with Positional. Mixing styles is an error.
func Placeholders(sql string) (string, PlaceholderStyle, []Placeholder, error) {
	if !strings.ContainsAny(sql, "$:@") {
		return sql, Positional, nil, nil
	}
	toks, err := lex(sql)
	if err != nil {
		return sql, Positional, nil, nil // the parser reports it
	}
	var (
		out      []Placeholder
		style    = Positional
		question = -1 // offset of a ?, if any
	)
	// afterValue: the sigil directly follows a name, literal or closing
	// bracket (a:b, x::int, @@var), so it is an operator, not a placeholder.
	afterValue := func(i int) bool {
		if i == 0 || toks[i-1].end != toks[i].pos {
			return false
		}
		p := toks[i-1]
		return p.kind != tkOp || p.isOp(":") || p.isOp("@") || p.isOp(")") || p.isOp("]")
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		var p Placeholder
		var s PlaceholderStyle
		switch {
		case t.isOp("?"):
			if question < 0 {
				question = t.pos
			}
			continue
		case t.kind == tkIdent && len(t.val) > 1 && t.val[0] == '$' && allDigits(t.val[1:]):
			n, err := strconv.Atoi(t.val[1:])
			if err != nil || n < 1 || n > 1<<16 {
				return "", 0, nil, newParseError(sql, t.pos, fmt.Sprintf("placeholder %s: numbers run from $1", t.val))
			}
			p, s = Placeholder{Number: n, Pos: t.pos, end: t.end}, Numbered
		case (t.isOp(":") || t.isOp("@")) && !afterValue(i) && i+1 < len(toks) &&
			toks[i+1].kind == tkIdent && toks[i+1].pos == t.end && isNameStart(toks[i+1].val[0]):
			p, s = Placeholder{Name: toks[i+1].val, Pos: t.pos, end: toks[i+1].end}, Named
			i++
		default:
			continue
		}
		if style != Positional && style != s {
			return "", 0, nil, newParseError(sql, p.Pos, "placeholders mix $n and :name styles; use one style (or ? placeholders)")
		}
		style = s
		out = append(out, p)
	}
	if style == Positional {
		return sql, Positional, nil, nil
	}
	if question >= 0 {
		return "", 0, nil, newParseError(sql, question, "placeholders mix ? with $n or :name; use one style")
	}
	b := []byte(sql)
	for _, p := range out {
		b[p.Pos] = '?'
		for k := p.Pos + 1; k < p.end; k++ {
			b[k] = ' '
		}
	}
	return string(b), style, out, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func isNameStart(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// ParseWithPlaceholders is Placeholders then Parse; syntax errors quote
// the script as written, not as rewritten.
func ParseWithPlaceholders(sql string) ([]Statement, PlaceholderStyle, []Placeholder, error) {
	text, style, list, err := Placeholders(sql)
	if err != nil {
		return nil, 0, nil, err
	}
	stmts, err := Parse(text)
	var pe *ParseError
	if text != sql && errors.As(err, &pe) {
		err = newParseError(sql, pe.Offset, pe.Msg)
	}
	return stmts, style, list, err
}
