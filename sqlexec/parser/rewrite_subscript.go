package parser

import "strings"

// SubscriptMarker is the call x[k] is rewritten into for TiDB, which has
// no subscripts: __icesql_subscript(x, k). Chains nest:
// m['a'][0] becomes __icesql_subscript(__icesql_subscript(m, 'a'), 0).
// The planner gives it Spark's meaning: a map lookup, a 0-based array
// index or a struct field.
const SubscriptMarker = "__icesql_subscript"

// subscripts records, by token index, how the subscripts of a statement
// are rewritten: marker calls opened before the token starting their
// operand, and the brackets turned into ", " and ")".
type subscripts struct {
	opens    map[int]int
	brackets map[int]string
}

// notOperand are words that can precede "(" without naming a function,
// so (x)[k] after them subscripts the parenthesized expression alone.
var notOperand = map[string]bool{
	"SELECT": true, "WHERE": true, "AND": true, "OR": true, "NOT": true, "IN": true,
	"ON": true, "BY": true, "WHEN": true, "THEN": true, "ELSE": true, "HAVING": true,
	"AS": true, "FROM": true, "IS": true, "LIKE": true, "BETWEEN": true, "DISTINCT": true,
	"ALL": true, "ANY": true, "SOME": true, "EXISTS": true, "VALUES": true, "SET": true,
	"USING": true, "JOIN": true, "LIMIT": true, "OFFSET": true, "XOR": true, "DIV": true,
	"MOD": true, "REGEXP": true, "RLIKE": true, "ESCAPE": true, "UNION": true,
	"EXCEPT": true, "INTERSECT": true, "CASE": true, "OVER": true, "INTO": true,
	"RETURN": true, "TABLE": true, "WITH": true,
}

// planSubscripts finds the subscripts in tokens [from, to); it returns
// nil when there are none.
func (c *parseCtx) planSubscripts(from, to int) (*subscripts, error) {
	toks := c.toks
	var s *subscripts
	startOf := map[int]int{} // closing bracket -> start of its whole operand
	for i := from; i < to; i++ {
		// x[k].f: a field of a subscripted struct is one more subscript,
		// x[k]['f'], so the chain nests.
		if _, after := startOf[i-1]; after && toks[i].isOp(".") && i+1 < to && toks[i+1].isName() {
			s.opens[startOf[i-1]]++
			s.brackets[i], s.brackets[i+1] = ", ", QuoteString(toks[i+1].val)+")"
			startOf[i+1] = startOf[i-1]
			i++
			continue
		}
		if !toks[i].isOp("[") {
			if toks[i].isOp("]") && (s == nil || s.brackets[i] == "") {
				return nil, newParseError(c.src, toks[i].pos, "unbalanced ] in expression")
			}
			continue
		}
		closing, err := c.matchBracket(i, to)
		if err != nil {
			return nil, err
		}
		start, err := c.subscriptOperand(from, i, startOf)
		if err != nil {
			return nil, err
		}
		if closing == i+1 {
			return nil, newParseError(c.src, toks[closing].pos, "expected a key or an index inside [ ]")
		}
		if s == nil {
			s = &subscripts{opens: map[int]int{}, brackets: map[int]string{}}
		}
		s.opens[start]++
		s.brackets[i], s.brackets[closing] = ", ", ")"
		startOf[closing] = start
	}
	return s, nil
}

// matchBracket returns the index of the "]" closing toks[i].
func (c *parseCtx) matchBracket(i, to int) (int, error) {
	depth := 0
	for j := i; j < to; j++ {
		switch {
		case c.toks[j].isOp("["):
			depth++
		case c.toks[j].isOp("]"):
			depth--
			if depth == 0 {
				return j, nil
			}
		}
	}
	return 0, newParseError(c.src, c.toks[i].pos, "unbalanced [ in expression")
}

// subscriptOperand finds the first token of the operand a "[" at token
// i applies to: a (qualified) name, a call, a parenthesized expression or
// an earlier subscript of the same chain.
func (c *parseCtx) subscriptOperand(from, i int, startOf map[int]int) (int, error) {
	toks := c.toks
	p := i - 1
	if p < from {
		return 0, newParseError(c.src, toks[i].pos, "a subscript [ ] must follow an array, map or struct expression")
	}
	if start, ok := startOf[p]; ok { // the end of an earlier subscript: "]" or x[k].f's f
		return start, nil
	}
	switch t := toks[p]; {
	case t.isOp(")"):
		open, ok := c.matchParenBack(from, p)
		if !ok {
			return 0, newParseError(c.src, t.pos, "unbalanced parenthesis")
		}
		if open > from && toks[open-1].isName() && !(toks[open-1].kind == tkIdent && notOperand[strings.ToUpper(toks[open-1].val)]) {
			return open - 1, nil
		}
		return open, nil
	case t.isName() && !(t.kind == tkIdent && notOperand[strings.ToUpper(t.val)]):
		for p-2 >= from && toks[p-1].isOp(".") && toks[p-2].isName() {
			p -= 2
		}
		return p, nil
	}
	return 0, newParseError(c.src, toks[i].pos, "a subscript [ ] must follow an array, map or struct expression")
}

// matchParenBack returns the index of the "(" that the ")" at token p
// closes.
func (c *parseCtx) matchParenBack(from, p int) (int, bool) {
	depth := 0
	for j := p; j >= from; j-- {
		switch {
		case c.toks[j].isOp(")"):
			depth++
		case c.toks[j].isOp("("):
			depth--
			if depth == 0 {
				return j, true
			}
		}
	}
	return 0, false
}

// emit writes the rewrite due at token i into m: marker calls opened
// before it, or a bracket replaced. It reports whether token i was
// consumed (a bracket) and moves copied past what it wrote.
func (s *subscripts) emit(c *parseCtx, i int, m *mappedText, copied *int) bool {
	if s == nil {
		return false
	}
	t := c.toks[i]
	if n := s.opens[i]; n > 0 {
		m.copy(c.src, *copied, t.pos)
		m.synth(strings.Repeat(SubscriptMarker+"(", n), t.pos)
		*copied = t.pos
	}
	rep, ok := s.brackets[i]
	if !ok {
		return false
	}
	m.copy(c.src, *copied, t.pos)
	m.synth(rep, t.pos)
	*copied = t.end
	return true
}
