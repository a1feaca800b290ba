package parser

import (
	"fmt"
	"strconv"
	"strings"
)

// cursor walks the tokens of one extension statement.
type cursor struct {
	c    *parseCtx
	i    int
	end  int
	refs RefMap
}

func (p *cursor) peekAt(k int) token {
	if p.i+k < p.end {
		return p.c.toks[p.i+k]
	}
	return token{kind: tkEOF, pos: p.c.toks[p.end].pos, end: p.c.toks[p.end].pos}
}

func (p *cursor) peek() token { return p.peekAt(0) }
func (p *cursor) atEnd() bool { return p.i >= p.end }
func (p *cursor) next() token { t := p.peek(); p.i = min(p.i+1, p.end); return t }
func (p *cursor) pos() int    { return p.peek().pos }
func (p *cursor) describe() string {
	t := p.peek()
	if t.kind == tkEOF {
		return "end of statement"
	}
	return strconv.Quote(p.c.src[t.pos:t.end])
}

// errorf reports an error at the current token.
func (p *cursor) errorf(format string, args ...any) error {
	return newParseError(p.c.src, p.pos(), fmt.Sprintf(format, args...))
}

// isKw reports whether the next tokens are the keywords kws.
func (p *cursor) isKw(kws ...string) bool {
	for k, kw := range kws {
		if !p.peekAt(k).isKw(kw) {
			return false
		}
	}
	return true
}

// acceptKw consumes the keywords kws if they come next.
func (p *cursor) acceptKw(kws ...string) bool {
	if !p.isKw(kws...) {
		return false
	}
	p.i += len(kws)
	return true
}

func (p *cursor) expectKw(kws ...string) error {
	for _, kw := range kws {
		if !p.acceptKw(kw) {
			return p.errorf("expected %s, found %s", kw, p.describe())
		}
	}
	return nil
}

// oneOf consumes and returns the first of kws that comes next, or "".
func (p *cursor) oneOf(kws ...string) string {
	for _, kw := range kws {
		if p.acceptKw(kw) {
			return kw
		}
	}
	return ""
}

func (p *cursor) acceptOp(op string) bool {
	if p.peek().isOp(op) {
		p.i++
		return true
	}
	return false
}

func (p *cursor) expectOp(op string) error {
	if !p.acceptOp(op) {
		return p.errorf("expected %q, found %s", op, p.describe())
	}
	return nil
}

// ident reads one identifier (quoted or not).
func (p *cursor) ident(what string) (string, error) {
	t := p.peek()
	if !t.isName() {
		return "", p.errorf("expected %s, found %s", what, p.describe())
	}
	p.i++
	return t.val, nil
}

// name reads a dotted name; the dots must touch their parts.
func (p *cursor) name(what string) ([]string, error) {
	first, err := p.ident(what)
	if err != nil {
		return nil, err
	}
	parts := []string{first}
	for p.peek().isOp(".") && p.peekAt(1).isName() {
		p.i++
		parts = append(parts, p.next().val)
	}
	return parts, nil
}

// tableRef reads a table name (no time travel).
func (p *cursor) tableRef() (*TableRef, error) {
	parts, err := p.name("a table name")
	if err != nil {
		return nil, err
	}
	return newTableRef(parts, p.c.opts), nil
}

// str reads a string literal.
func (p *cursor) str(what string) (string, error) {
	t := p.peek()
	if t.kind != tkString {
		return "", p.errorf("expected %s (a quoted string), found %s", what, p.describe())
	}
	p.i++
	return t.val, nil
}

// integer reads a non-negative integer literal.
func (p *cursor) integer(what string) (int64, error) {
	t := p.peek()
	if t.kind != tkNumber {
		return 0, p.errorf("expected %s (an integer), found %s", what, p.describe())
	}
	n, err := strconv.ParseInt(t.val, 10, 64)
	if err != nil {
		return 0, p.errorf("%s must be an integer, found %s", what, p.describe())
	}
	p.i++
	return n, nil
}

// smallInt reads an integer that fits an int and is at least lo.
func (p *cursor) smallInt(what string, lo int) (int, error) {
	at := p.pos()
	n, err := p.integer(what)
	if err != nil {
		return 0, err
	}
	if n < int64(lo) || n > 1<<31-1 {
		return 0, newParseError(p.c.src, at, fmt.Sprintf("%s out of range: %d", what, n))
	}
	return int(n), nil
}

// scanExpr finds the end of an expression starting at the cursor: the
// first token at parenthesis and CASE depth 0 for which stop is true.
func (p *cursor) scanExpr(stop func(t token) bool) int {
	depth, cases := 0, 0
	for j := p.i; j < p.end; j++ {
		t := p.c.toks[j]
		switch {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			if depth == 0 {
				return j
			}
			depth--
		case depth == 0 && t.isKw("CASE"):
			cases++
		case depth == 0 && cases > 0 && t.isKw("END"):
			cases--
		case depth == 0 && cases == 0 && stop(t):
			return j
		}
	}
	return p.end
}

// expr parses an expression ending before the first stop token.
func (p *cursor) expr(stop func(t token) bool) (*Expr, error) {
	end := p.scanExpr(stop)
	if end == p.i {
		return nil, p.errorf("expected an expression, found %s", p.describe())
	}
	e, refs, err := p.c.parseExpr(p.i, end)
	if err != nil {
		return nil, err
	}
	p.refs.merge(refs)
	p.i = end
	return e, nil
}

// stopAt makes a stop function for the given operators and keywords.
func stopAt(words ...string) func(t token) bool {
	return func(t token) bool {
		for _, w := range words {
			if (t.kind == tkOp && t.val == w) || t.isKw(w) {
				return true
			}
		}
		return false
	}
}

// Property is one key/value pair of TBLPROPERTIES or DBPROPERTIES.
type Property struct{ Key, Value string }

// properties reads ('k' = 'v', ...); keys may also be unquoted dotted
// names and values numbers or true/false.
func (p *cursor) properties() ([]Property, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	var props []Property
	for {
		k, err := p.propertyKey()
		if err != nil {
			return nil, err
		}
		if err := p.expectOp("="); err != nil {
			return nil, err
		}
		t := p.peek()
		switch {
		case t.kind == tkString || t.kind == tkNumber || t.isKw("TRUE") || t.isKw("FALSE"):
			p.i++
		default:
			return nil, p.errorf("expected a property value, found %s", p.describe())
		}
		v := t.val
		if t.kind == tkIdent {
			v = strings.ToLower(v)
		}
		props = append(props, Property{Key: k, Value: v})
		if !p.acceptOp(",") {
			break
		}
	}
	return props, p.expectOp(")")
}

func (p *cursor) propertyKey() (string, error) {
	if t := p.peek(); t.kind == tkString {
		p.i++
		return t.val, nil
	}
	parts, err := p.name("a property key")
	if err != nil {
		return "", err
	}
	return strings.Join(parts, "."), nil
}

func printProperties(props []Property) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, kv := range props {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(QuoteString(kv.Key) + " = " + QuoteString(kv.Value))
	}
	b.WriteByte(')')
	return b.String()
}
