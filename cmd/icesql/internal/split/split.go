// Package split cuts shell input into SQL statements and meta-commands.
//
// A statement ends at a semicolon outside quotes and comments. A line
// whose first non-blank character, at the start of a statement (line
// comments before it aside), is a backslash is a meta-command that ends
// at the end of that line.
package split

import "strings"

// Piece is one complete statement or meta-command.
type Piece struct {
	// Text is the statement without its terminating semicolon and without
	// surrounding blanks, or the meta-command line without its newline.
	Text string
	// Meta is set for a backslash meta-command.
	Meta bool
	// Line and Col are where the piece starts in the input, 1-based.
	Line, Col int
}

// Position is a 1-based line and column.
type Position struct{ Line, Col int }

// Split returns the complete pieces of text and the unfinished rest: an
// unterminated statement, string or comment. start is the position of
// text's first byte in the whole input, so that pieces of later chunks
// report their true place.
func Split(text string, start Position) (pieces []Piece, rest string) {
	line, col := start.Line, start.Col
	stmtStart := -1 // byte offset of the current statement's first non-blank
	var sLine, sCol int
	advance := func(c byte) {
		if c == '\n' {
			line++
			col = 1
		} else if c&0xC0 != 0x80 { // columns count characters, not UTF-8 continuation bytes
			col++
		}
	}
	i := 0
	for i < len(text) {
		c := text[i]
		if stmtStart < 0 {
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				advance(c)
				i++
				continue
			}
			if c == ';' { // an empty statement
				advance(c)
				i++
				continue
			}
			if c == '-' && i+1 < len(text) && text[i+1] == '-' || c == '#' {
				// A line comment between statements belongs to neither, so
				// a meta-command may follow it on the next line.
				end := strings.IndexByte(text[i:], '\n')
				if end < 0 {
					return pieces, ""
				}
				for _, b := range []byte(text[i : i+end]) {
					advance(b)
				}
				i += end
				continue
			}
			stmtStart, sLine, sCol = i, line, col
			if c == '\\' {
				end := strings.IndexByte(text[i:], '\n')
				if end < 0 {
					return pieces, text[stmtStart:]
				}
				pieces = append(pieces, Piece{Text: strings.TrimSpace(text[i : i+end]), Meta: true, Line: sLine, Col: sCol})
				for _, b := range []byte(text[i : i+end+1]) {
					advance(b)
				}
				i += end + 1
				stmtStart = -1
				continue
			}
		}
		switch {
		case c == '\'' || c == '"' || c == '`':
			end, ok := skipQuoted(text, i)
			if !ok {
				return pieces, text[stmtStart:]
			}
			for _, b := range []byte(text[i:end]) {
				advance(b)
			}
			i = end
			continue
		case c == '-' && i+1 < len(text) && text[i+1] == '-', c == '#':
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				// A trailing line comment ends the input; it is not a
				// statement of its own.
				if strings.TrimSpace(text[stmtStart:i]) == "" {
					return pieces, ""
				}
				return pieces, text[stmtStart:]
			}
			for _, b := range []byte(text[i : i+end]) {
				advance(b)
			}
			i += end
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return pieces, text[stmtStart:]
			}
			for _, b := range []byte(text[i : i+2+end+2]) {
				advance(b)
			}
			i += 2 + end + 2
			continue
		case c == ';':
			body := strings.TrimSpace(text[stmtStart:i])
			if !onlyComments(body) {
				pieces = append(pieces, Piece{Text: body, Line: sLine, Col: sCol})
			}
			stmtStart = -1
		}
		advance(c)
		i++
	}
	if stmtStart < 0 {
		return pieces, ""
	}
	rest = text[stmtStart:]
	if onlyComments(rest) {
		return pieces, ""
	}
	return pieces, rest
}

// skipQuoted returns the offset just past the quoted text starting at
// text[i]. A doubled quote is an escaped quote; in ” and "" strings a
// backslash escapes the next byte too, as in MySQL.
func skipQuoted(text string, i int) (int, bool) {
	q := text[i]
	j := i + 1
	for j < len(text) {
		c := text[j]
		switch {
		case c == '\\' && q != '`':
			j += 2
			continue
		case c == q:
			if j+1 < len(text) && text[j+1] == q {
				j += 2
				continue
			}
			return j + 1, true
		}
		j++
	}
	return len(text), false
}

// onlyComments reports whether s holds nothing but blanks and comments.
func onlyComments(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-', c == '#':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				return true
			}
			i += end
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return false
			}
			i += 2 + end + 2
		default:
			return false
		}
	}
	return true
}
