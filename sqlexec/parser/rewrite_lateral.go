package parser

import (
	"strings"
)

// Markers for Spark's table-generating syntax, which TiDB cannot parse:
//
//	t LATERAL VIEW [OUTER] g(x) e AS a, b
//	  -> t CROSS JOIN (SELECT __icesql_lateral_view(<0|1>, 'e', g(x), 'a', 'b')) AS `__icesql_lateral`
//	g(x) AS (a, b)    (a select item)
//	  -> __icesql_generator_as(g(x), 'a', 'b')
//
// A FROM list with commas is parenthesized first (FROM (a, b) CROSS JOIN
// ...), since Spark applies lateral views to the whole list. The planner
// recognises the markers.
const (
	LateralViewMarker = "__icesql_lateral_view"
	GeneratorAsMarker = "__icesql_generator_as"
)

// generatorNames are the functions whose select items may take AS (a, b).
var generatorNames = map[string]bool{
	"EXPLODE": true, "EXPLODE_OUTER": true, "POSEXPLODE": true, "POSEXPLODE_OUTER": true,
	"INLINE": true, "INLINE_OUTER": true, "STACK": true, "JSON_TUPLE": true,
}

// lateralStop are words that cannot be a lateral view's table or column
// alias, so they end its clause.
var lateralStop = map[string]bool{
	"LATERAL": true, "AS": true, "JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true,
	"CROSS": true, "FULL": true, "NATURAL": true, "ON": true, "USING": true, "OUTER": true,
	"STRAIGHT_JOIN": true, "FROM": true,
}

// isAliasAt reports whether token k (below to) can be a lateral view's or
// a generator's alias.
func (c *parseCtx) isAliasAt(k, to int) bool {
	t := c.toks
	return k < to && (t[k].kind == tkQuotedIdent || t[k].kind == tkIdent &&
		!lateralStop[strings.ToUpper(t[k].val)] && !fromListEnd[strings.ToUpper(t[k].val)])
}

// lateralEdit replaces tokens [i, end) by text; end == i inserts text
// before token i, which is then processed as usual.
type lateralEdit struct {
	end  int
	text string
}

// laterals records the rewrites of LATERAL VIEW clauses and generator
// alias lists in one statement, by token index.
type laterals struct {
	edits map[int]lateralEdit
	opens map[int]bool // FROM tokens after which "(" opens the FROM list
}

// lateralLevel is the scanning state of one parenthesis level.
type lateralLevel struct {
	query, inFrom, comma, seen bool
	from                       int
}

// planLaterals finds the LATERAL VIEW clauses and generator alias lists
// in tokens [from, to); it returns nil when there are none.
func (c *parseCtx) planLaterals(from, to int) (*laterals, error) {
	toks := c.toks
	var l *laterals
	add := func(i int, e lateralEdit) {
		l = l.ensure()
		l.edits[i] = e
	}
	stack := []lateralLevel{{}}
	skip := map[int]int{} // a replaced ")" -> the token after its replacement
	for i := from; i < to; i++ {
		t := toks[i]
		if next, ok := skip[i]; ok {
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			i = next - 1
			continue
		}
		top := &stack[len(stack)-1]
		switch {
		case t.isOp("("):
			stack = append(stack, lateralLevel{})
		case t.isOp(")"):
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case t.isKw("SELECT"):
			*top = lateralLevel{query: true}
		case t.isKw("FROM") && top.query:
			top.from, top.inFrom, top.comma, top.seen = i, true, false, false
		case t.isOp(",") && top.inFrom && !top.seen:
			top.comma = true
		case t.isKw("LATERAL") && i+1 < to && toks[i+1].isKw("VIEW"):
			if !top.inFrom {
				return nil, newParseError(c.src, t.pos, "LATERAL VIEW must follow the tables of a FROM clause")
			}
			lv, err := c.lateralView(i, to)
			if err != nil {
				return nil, err
			}
			prefix := ""
			if top.comma && !top.seen {
				prefix = ")"
				l = l.ensure()
				l.opens[top.from] = true
			}
			top.seen = true
			add(i, lateralEdit{end: lv.gen, text: prefix + " CROSS JOIN (SELECT " + LateralViewMarker + "(" + lv.flag + ", " + QuoteString(lv.alias) + ", "})
			add(lv.close, lateralEdit{end: lv.end, text: ")" + quotedNames(lv.names) + ")) AS `__icesql_lateral`"})
			skip[lv.close] = lv.end
			i = lv.gen // the call's name; its "(" comes next
		case t.kind == tkIdent && generatorNames[strings.ToUpper(t.val)] && i+1 < to && toks[i+1].isOp("("):
			end, err := c.skipParens(i+1, to)
			if err != nil {
				return nil, err
			}
			listEnd, names, ok, err := c.aliasList(end, to)
			if err != nil {
				return nil, err
			}
			if ok {
				add(i, lateralEdit{end: i, text: GeneratorAsMarker + "("})
				add(end-1, lateralEdit{end: listEnd, text: ")" + quotedNames(names) + ")"})
				skip[end-1] = listEnd
			}
		case t.kind == tkIdent && fromListEnd[strings.ToUpper(t.val)]:
			top.inFrom = false
		}
	}
	return l, nil
}

func (l *laterals) ensure() *laterals {
	if l == nil {
		l = &laterals{edits: map[int]lateralEdit{}, opens: map[int]bool{}}
	}
	return l
}

func quotedNames(names []string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(", ")
		b.WriteString(QuoteString(n))
	}
	return b.String()
}

// lateralClause is one LATERAL VIEW clause: tokens [LATERAL, end), the
// generator's name at gen and its closing parenthesis at close.
type lateralClause struct {
	gen, close, end int
	flag, alias     string
	names           []string
}

// lateralView reads LATERAL VIEW [OUTER] g(args) [alias] [[AS] col, ...]
// starting at token i.
func (c *parseCtx) lateralView(i, to int) (*lateralClause, error) {
	toks := c.toks
	lv := &lateralClause{flag: "0"}
	k := i + 2
	if k < to && toks[k].isKw("OUTER") {
		lv.flag = "1"
		k++
	}
	if k+1 >= to || !toks[k].isName() || !toks[k+1].isOp("(") {
		return nil, newParseError(c.src, toks[min(k, len(toks)-1)].pos, "expected a generator call such as explode(...) after LATERAL VIEW")
	}
	lv.gen = k
	end, err := c.skipParens(k+1, to)
	if err != nil {
		return nil, err
	}
	lv.close, k = end-1, end
	isAlias := func(k int) bool { return c.isAliasAt(k, to) }
	if isAlias(k) {
		lv.alias = toks[k].val
		k++
	}
	hasAs := k < to && toks[k].isKw("AS")
	if hasAs {
		k++
	}
	if hasAs || (lv.alias != "" && isAlias(k)) {
		for {
			if !isAlias(k) {
				return nil, newParseError(c.src, toks[min(k, len(toks)-1)].pos, "expected a column name for the lateral view")
			}
			lv.names = append(lv.names, toks[k].val)
			k++
			if k+1 < to && toks[k].isOp(",") {
				k++
				continue
			}
			break
		}
	}
	lv.end = k
	return lv, nil
}

// aliasList reads AS (a, b, ...) at token i; ok is false when there is
// no parenthesized alias list there.
func (c *parseCtx) aliasList(i, to int) (end int, names []string, ok bool, err error) {
	toks := c.toks
	if i+2 >= to || !toks[i].isKw("AS") || !toks[i+1].isOp("(") || !toks[i+2].isName() {
		return 0, nil, false, nil
	}
	k := i + 2
	for {
		if !c.isAliasAt(k, to) {
			return 0, nil, false, newParseError(c.src, toks[min(k, len(toks)-1)].pos, "expected a column name in the generator's alias list")
		}
		names = append(names, toks[k].val)
		k++
		if k < to && toks[k].isOp(",") {
			k++
			continue
		}
		if k < to && toks[k].isOp(")") {
			return k + 1, names, true, nil
		}
		return 0, nil, false, newParseError(c.src, toks[min(k, len(toks)-1)].pos, "expected , or ) in the generator's alias list")
	}
}

// emit writes the rewrite due at token i into m. When it replaced tokens
// it returns the index of the token after them and true.
func (l *laterals) emit(c *parseCtx, i int, m *mappedText, copied *int) (int, bool) {
	if l == nil {
		return i, false
	}
	e, ok := l.edits[i]
	if !ok {
		return i, false
	}
	t := c.toks[i]
	m.copy(c.src, *copied, t.pos)
	m.synth(e.text, t.pos)
	if e.end == i {
		*copied = t.pos
		return i, false
	}
	*copied = c.toks[e.end-1].end
	return e.end, true
}

// openFrom opens the parenthesis around a FROM list that lateral views
// follow, right after the FROM token at i.
func (l *laterals) openFrom(c *parseCtx, i int, m *mappedText, copied *int) {
	if l == nil || !l.opens[i] {
		return
	}
	t := c.toks[i]
	m.copy(c.src, *copied, t.end)
	m.synth(" (", t.end)
	*copied = t.end
}

// frames keeps the rewriter's parenthesis levels right over replaced
// tokens [from, to).
func (l *laterals) frames(c *parseCtx, stack []frame, from, to int) []frame {
	for j := from; j < to; j++ {
		switch {
		case c.toks[j].isOp("("):
			stack = append(stack, frame{})
		case c.toks[j].isOp(")") && len(stack) > 1:
			stack = stack[:len(stack)-1]
		}
	}
	return stack
}
