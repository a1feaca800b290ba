package parser

import (
	"strings"
	"unicode/utf8"
)

// tokKind classifies the tokens of the extension layer's small lexer. It
// only needs to know where words, literals and punctuation start and end;
// TiDB re-lexes every expression it parses.
type tokKind int

const (
	tkEOF tokKind = iota
	tkIdent
	tkQuotedIdent // `name`
	tkString      // 'x' or "x"
	tkNumber
	tkOp // punctuation and operators
)

type token struct {
	kind tokKind
	// val is the unquoted identifier or unescaped string; raw text otherwise.
	val      string
	pos, end int // byte offsets in the source
}

// isKw reports whether the token is the unquoted keyword kw (upper case).
func (t token) isKw(kw string) bool {
	return t.kind == tkIdent && strings.EqualFold(t.val, kw)
}

func (t token) isOp(op string) bool { return t.kind == tkOp && t.val == op }

// isName reports whether the token can be an identifier.
func (t token) isName() bool { return t.kind == tkIdent || t.kind == tkQuotedIdent }

// lex splits src into tokens, skipping whitespace and comments. The last
// token is always tkEOF at len(src).
func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '#' || (c == '-' && strings.HasPrefix(src[i:], "--") && (i+2 == len(src) || isSpace(src[i+2]))):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, newParseError(src, i, "unterminated comment")
			}
			i += end + 4
		case c == '\'' || c == '"':
			val, end, err := lexString(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tkString, val: val, pos: i, end: end})
			i = end
		case c == '`':
			var b strings.Builder
			j := i + 1
			for {
				k := strings.IndexByte(src[j:], '`')
				if k < 0 {
					return nil, newParseError(src, i, "unterminated quoted identifier")
				}
				b.WriteString(src[j : j+k])
				j += k + 1
				if j < len(src) && src[j] == '`' {
					b.WriteByte('`')
					j++
					continue
				}
				break
			}
			toks = append(toks, token{kind: tkQuotedIdent, val: b.String(), pos: i, end: j})
			i = j
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			j := lexNumber(src, i)
			if j < len(src) && isIdentByte(src[j]) {
				// MySQL allows identifiers that start with digits (1abc).
				for j < len(src) && isIdentByte(src[j]) {
					j++
				}
				toks = append(toks, token{kind: tkIdent, val: src[i:j], pos: i, end: j})
			} else {
				toks = append(toks, token{kind: tkNumber, val: src[i:j], pos: i, end: j})
			}
			i = j
		case isIdentByte(c):
			j := i
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			toks = append(toks, token{kind: tkIdent, val: src[i:j], pos: i, end: j})
			i = j
		default:
			n := opLen(src[i:])
			toks = append(toks, token{kind: tkOp, val: src[i : i+n], pos: i, end: i + n})
			i += n
		}
	}
	toks = append(toks, token{kind: tkEOF, pos: len(src), end: len(src)})
	return toks, nil
}

// lexString reads a quoted string starting at src[i] with MySQL escapes
// (doubled quote, backslash sequences).
func lexString(src string, i int) (string, int, error) {
	q := src[i]
	var b strings.Builder
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case c == q:
			if j+1 < len(src) && src[j+1] == q {
				b.WriteByte(q)
				j += 2
				continue
			}
			return b.String(), j + 1, nil
		case c == '\\' && j+1 < len(src):
			b.WriteString(unescape(src[j+1]))
			j += 2
		default:
			b.WriteByte(c)
			j++
		}
	}
	return "", 0, newParseError(src, i, "unterminated string literal")
}

func unescape(c byte) string {
	switch c {
	case '0':
		return "\x00"
	case 'b':
		return "\b"
	case 'n':
		return "\n"
	case 'r':
		return "\r"
	case 't':
		return "\t"
	case 'Z':
		return "\x1a"
	case '%', '_':
		return "\\" + string(c)
	}
	return string(c)
}

func lexNumber(src string, i int) int {
	j := i
	if strings.HasPrefix(src[i:], "0x") || strings.HasPrefix(src[i:], "0b") {
		j += 2
		for j < len(src) && isHex(src[j]) {
			j++
		}
		return j
	}
	for j < len(src) && isDigit(src[j]) {
		j++
	}
	if j < len(src) && src[j] == '.' {
		j++
		for j < len(src) && isDigit(src[j]) {
			j++
		}
	}
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < len(src) && isDigit(src[k]) {
			for k < len(src) && isDigit(src[k]) {
				k++
			}
			j = k
		}
	}
	return j
}

var multiOps = []string{"<=>", "=>", "<=", ">=", "<>", "!=", "||", "&&", ":=", "->>", "->"}

func opLen(s string) int {
	for _, op := range multiOps {
		if strings.HasPrefix(s, op) {
			return len(op)
		}
	}
	_, n := utf8.DecodeRuneInString(s)
	return n
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// isIdentByte accepts MySQL's unquoted identifier bytes, including any
// byte of a multi-byte UTF-8 character.
func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}
