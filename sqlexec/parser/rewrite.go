package parser

import (
	"strconv"
	"strings"
)

// refSite is one table reference replaced by a placeholder before TiDB
// parsing.
type refSite struct {
	ref   *TableRef
	pos   int // byte offset of the reference in the script
	found bool
}

// rewrite records the placeholders of one TiDB parse.
type rewrite struct {
	prefix string
	byName map[string]*refSite
}

func (c *parseCtx) newRewrite() *rewrite {
	return &rewrite{prefix: c.placeholderPrefix(), byName: map[string]*refSite{}}
}

// placeholderPrefix picks a prefix that occurs nowhere in the script, so
// no name the user wrote can be taken for a placeholder.
func (c *parseCtx) placeholderPrefix() string {
	if c.phPrefix == "" {
		lower := strings.ToLower(c.src)
		p := "__icesql_ref_"
		for k := 0; strings.Contains(lower, p); k++ {
			p = "__icesql" + strconv.Itoa(k) + "_ref_"
		}
		c.phPrefix = p
	}
	return c.phPrefix
}

func (rw *rewrite) add(ref *TableRef, pos int) string {
	name := rw.prefix + strconv.Itoa(len(rw.byName))
	rw.byName[name] = &refSite{ref: ref, pos: pos}
	return name
}

func (rw *rewrite) lookup(name string) *refSite {
	if rw == nil || !strings.HasPrefix(name, rw.prefix) {
		return nil
	}
	return rw.byName[name]
}

// frame is the scanning state of one parenthesis level.
type frame struct {
	query    bool // a SELECT or DELETE started at this level
	fromList bool // commas continue a FROM list
	orderBy  bool // inside an ORDER BY list
}

// Markers for syntax TiDB lacks, rewritten into forms it parses and the
// planner recognises: FULL [OUTER] JOIN becomes STRAIGHT_JOIN (so a
// user's own STRAIGHT_JOIN is rejected), and "NULLS FIRST" / "NULLS LAST"
// after an ORDER BY item become an extra item calling one of these
// functions, which applies to the item before it.
const (
	NullsFirstMarker = "__icesql_nulls_first"
	NullsLastMarker  = "__icesql_nulls_last"
)

// EmptyInListMarker is the only item of x IN (), a list TiDB cannot parse
// (SQLite's empty set): the planner binds the list as empty.
const EmptyInListMarker = "__icesql_empty_in_list"

// fromListEnd are words that end a FROM list at their level.
var fromListEnd = map[string]bool{
	"WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true,
	"WINDOW": true, "UNION": true, "EXCEPT": true, "INTERSECT": true, "SET": true,
	"SELECT": true, "FOR": true, "INTO": true, "LOCK": true, "VALUES": true,
}

// rewriteRefs copies tokens [from, to) of the script into m, replacing
// each table reference TiDB cannot parse (three or more name parts, Spark
// time travel) with a placeholder recorded in rw. Table positions are
// found syntactically: after FROM (in a query level), JOIN, commas of a
// FROM list, INSERT/REPLACE INTO, LOAD DATA ... INTO TABLE and a leading
// UPDATE.
func (c *parseCtx) rewriteRefs(from, to int, m *mappedText, rw *rewrite) error {
	toks := c.toks[:to]
	first := strings.ToUpper(toks[from].val)
	stack := []frame{{}}
	copied := c.toks[from].pos
	intoSeen := false
	casts := map[int]castSite{} // by the index of their AS token
	plainEnd := from            // tokens before it may be a table name left as written
	subs, err := c.planSubscripts(from, to)
	if err != nil {
		return err
	}
	lat, err := c.planLaterals(from, to)
	if err != nil {
		return err
	}
	for i := from; i < to; i++ {
		if next, ok := lat.emit(c, i, m, &copied); ok {
			stack = lat.frames(c, stack, i, next)
			i = next - 1
			continue
		}
		t := toks[i]
		if subs.emit(c, i, m, &copied) {
			continue
		}
		if cs, ok := casts[i]; ok {
			m.copy(c.src, copied, t.pos)
			m.synth(", "+QuoteString(cs.typeName), t.pos)
			copied = toks[cs.close].pos
			i = cs.close - 1
			continue
		}
		top := &stack[len(stack)-1]
		depth0 := len(stack) == 1
		site := false
		switch {
		case t.isKw("CAST") && i+1 < to && toks[i+1].isOp("("):
			as, cs, ok, err := c.sparkCast(i, to)
			if err != nil {
				return err
			}
			if ok {
				casts[as] = cs
				m.copy(c.src, copied, t.pos)
				m.synth(CastMarker, t.pos)
				copied = t.end
			} else if toks[i+1].pos > t.end {
				m.copy(c.src, copied, t.end)
				copied = toks[i+1].pos
			}
			continue
		case i >= plainEnd && c.spacedBuiltinCall(i, to):
			m.copy(c.src, copied, t.end)
			copied = toks[i+1].pos
			continue
		case t.isKw("PARTITION") && !(i+1 < to && (toks[i+1].isKw("BY") || toks[i+1].isOp("("))):
			// Spark reads PARTITION as a name here (the column of the
			// partitions and files metadata tables); TiDB reserves it
			m.copy(c.src, copied, t.pos)
			m.synth(QuoteIdent(t.val), t.pos)
			copied = t.end
			continue
		case t.kind == tkIdent && t.val == pipesConcatName && i+1 < to && toks[i+1].isOp("("):
			// a written concat( must not look like TiDB's node for ||
			m.copy(c.src, copied, t.pos)
			m.synth(writtenConcatName, t.pos)
			copied = t.end
			continue
		case (t.isKw("ARRAY") || t.isKw("CARDINALITY")) && i+1 < to && toks[i+1].isOp("("):
			// TiDB keywords; quoted, they are the functions of that name
			m.copy(c.src, copied, t.pos)
			m.synth("`"+strings.ToLower(t.val)+"`", t.pos)
			copied = t.end
			continue
		case t.isKw("IN") && i+2 < to && toks[i+1].isOp("(") && toks[i+2].isOp(")"):
			// x IN (): TiDB wants an item; the planner reads the marker as none
			m.copy(c.src, copied, toks[i+2].pos)
			m.synth(EmptyInListMarker+"()", toks[i+2].pos)
			copied = toks[i+2].pos
			continue
		case t.isOp("("):
			stack = append(stack, frame{})
		case t.isOp(")"):
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case t.isKw("STRAIGHT_JOIN"):
			return newParseError(c.src, t.pos, "STRAIGHT_JOIN is not supported")
		case t.isKw("FULL") && i+1 < to && (toks[i+1].isKw("JOIN") || toks[i+1].isKw("OUTER") && i+2 < to && toks[i+2].isKw("JOIN")):
			join := i + 1
			if toks[join].isKw("OUTER") {
				join++
			}
			m.copy(c.src, copied, t.pos)
			m.synth("STRAIGHT_JOIN", t.pos)
			copied = toks[join].end
			i, site = join, true
		case t.isKw("ORDER") && i+1 < to && toks[i+1].isKw("BY"):
			top.orderBy = true
		case t.isKw("NULLS") && top.orderBy && i+1 < to && (toks[i+1].isKw("FIRST") || toks[i+1].isKw("LAST")):
			marker := NullsFirstMarker
			if toks[i+1].isKw("LAST") {
				marker = NullsLastMarker
			}
			m.copy(c.src, copied, t.pos)
			m.synth(", "+marker+"()", t.pos)
			copied = toks[i+1].end
			i++
			continue
		case t.isKw("SELECT") || t.isKw("DELETE"):
			top.query, top.fromList, top.orderBy = true, false, false
		case t.isKw("FROM") && top.query:
			site, top.fromList = true, true
			lat.openFrom(c, i, m, &copied)
		case t.isKw("JOIN") || t.isKw("STRAIGHT_JOIN"):
			site = true
		case t.isOp(",") && top.fromList:
			site = true
		case t.isKw("INTO") && depth0 && !intoSeen && (first == "INSERT" || first == "REPLACE" || first == "LOAD"):
			intoSeen, site = true, true
			if first == "LOAD" && i+1 < to && toks[i+1].isKw("TABLE") {
				i++
			}
		case t.isKw("UPDATE") && depth0 && (i == from || toks[i-1].isOp(")")):
			site, top.fromList = true, true
		case t.kind == tkIdent && fromListEnd[strings.ToUpper(t.val)]:
			top.fromList = false
			if !t.isKw("ORDER") {
				top.orderBy = false
			}
		}
		if !site {
			continue
		}
		start := i + 1
		end, ref, err := c.tableFactor(start, to)
		if err != nil {
			return err
		}
		if ref == nil {
			plainEnd = end
			continue
		}
		m.copy(c.src, copied, toks[start].pos)
		m.synth(rw.add(ref, toks[start].pos), toks[start].pos)
		copied = toks[end-1].end
		i = end - 1
	}
	m.copy(c.src, copied, c.toks[to-1].end)
	return nil
}

// spacedBuiltins are the functions TiDB's lexer takes for built-ins
// only when "(" follows the name at once (MySQL without IGNORE_SPACE);
// SQL allows space there (COUNT ( * ), SUM (x)). CAST is handled with
// the Spark casts.
var spacedBuiltins = map[string]bool{
	"BIT_AND": true, "BIT_OR": true, "BIT_XOR": true, "COUNT": true,
	"APPROX_COUNT_DISTINCT": true, "APPROX_PERCENTILE": true, "CURDATE": true,
	"CURTIME": true, "DATE_ADD": true, "DATE_SUB": true, "EXTRACT": true,
	"GROUP_CONCAT": true, "MAX": true, "MID": true, "MIN": true, "NOW": true,
	"POSITION": true, "STD": true, "STDDEV": true, "STDDEV_POP": true,
	"STDDEV_SAMP": true, "SUBSTR": true, "SUBSTRING": true, "SUM": true,
	"SYSDATE": true, "TRANSLATE": true, "TRIM": true, "VARIANCE": true,
	"VAR_POP": true, "VAR_SAMP": true,
}

// spacedBuiltinCall reports whether token i is one of spacedBuiltins
// called with space before its "(": the space is dropped so TiDB parses
// the call. A name in a table position is not (the caller skips those),
// nor a WITH query's name before its column list (max (a) AS (...)).
func (c *parseCtx) spacedBuiltinCall(i, to int) bool {
	toks := c.toks
	t := toks[i]
	if t.kind != tkIdent || i+1 >= to || !toks[i+1].isOp("(") || toks[i+1].pos == t.end || !spacedBuiltins[strings.ToUpper(t.val)] {
		return false
	}
	end, err := c.skipParens(i+1, to)
	if err != nil {
		return false
	}
	return !(end+1 < to && toks[end].isKw("AS") && toks[end+1].isOp("("))
}

// tableFactor reads a table name and Spark time travel at token i. It
// returns a ref only when the reference must be rewritten for TiDB.
func (c *parseCtx) tableFactor(i, to int) (end int, ref *TableRef, err error) {
	toks := c.toks
	if i >= to || !toks[i].isName() {
		return i, nil, nil
	}
	parts := []string{toks[i].val}
	j := i + 1
	for j+1 < to && toks[j].isOp(".") && toks[j+1].isName() && toks[j].pos == toks[j-1].end {
		parts = append(parts, toks[j+1].val)
		j += 2
	}
	r := newTableRef(parts, c.opts)
	travel := false
	for {
		k := j
		if k+3 >= to {
			break
		}
		if toks[k].isKw("FOR") && (toks[k+1].isKw("SYSTEM_VERSION") || toks[k+1].isKw("SYSTEM_TIME")) {
			k++
		}
		if k+3 >= to || !(toks[k].isKw("VERSION") || toks[k].isKw("SYSTEM_VERSION") || toks[k].isKw("TIMESTAMP") || toks[k].isKw("SYSTEM_TIME")) ||
			!toks[k+1].isKw("AS") || !toks[k+2].isKw("OF") {
			break
		}
		isVersion := toks[k].isKw("VERSION") || toks[k].isKw("SYSTEM_VERSION")
		vs := k + 3
		ve, err := c.operand(vs, to)
		if err != nil {
			return 0, nil, err
		}
		if isVersion {
			if r.VersionAsOf != nil {
				return 0, nil, newParseError(c.src, toks[k].pos, "VERSION AS OF given twice")
			}
			v := toks[vs]
			switch {
			case ve == vs+1 && v.kind == tkNumber:
				id, perr := strconv.ParseInt(v.val, 10, 64)
				if perr != nil {
					return 0, nil, newParseError(c.src, v.pos, "snapshot id is not a 64-bit integer")
				}
				r.VersionAsOf = id
			case ve == vs+1 && v.kind == tkString:
				r.VersionAsOf = v.val
			default:
				return 0, nil, newParseError(c.src, v.pos, "expected a snapshot id or a quoted branch or tag name after VERSION AS OF")
			}
		} else {
			if r.TimestampAsOf != nil {
				return 0, nil, newParseError(c.src, toks[k].pos, "TIMESTAMP AS OF given twice")
			}
			e, refs, err := c.parseExpr(vs, ve)
			if err != nil {
				return 0, nil, err
			}
			if len(refs) > 0 {
				return 0, nil, newParseError(c.src, toks[vs].pos, "a time travel timestamp cannot read a table")
			}
			r.TimestampAsOf = e.Node
			r.TimestampText = e.Text
		}
		travel = true
		j = ve
	}
	if len(parts) < 3 && !travel {
		return j, nil, nil
	}
	return j, r, nil
}

// operand finds the end of one operand at token i: a literal, a typed
// literal (TIMESTAMP '...'), or a parenthesized or function-call
// expression. Longer expressions must be parenthesized.
func (c *parseCtx) operand(i, to int) (int, error) {
	toks := c.toks
	if i >= to {
		return 0, newParseError(c.src, toks[min(i, len(toks)-1)].pos, "expected a value after AS OF")
	}
	t := toks[i]
	switch {
	case t.kind == tkString || t.kind == tkNumber:
		return i + 1, nil
	case t.isOp("-") && i+1 < to && toks[i+1].kind == tkNumber:
		return i + 2, nil
	case t.isOp("("):
		return c.skipParens(i, to)
	case t.kind == tkIdent && i+1 < to && toks[i+1].kind == tkString:
		return i + 2, nil
	case t.isName() && i+1 < to && toks[i+1].isOp("("):
		return c.skipParens(i+1, to)
	}
	return 0, newParseError(c.src, t.pos, "expected a literal or a parenthesized expression after AS OF")
}

// skipParens returns the index after the parenthesis that closes toks[i].
func (c *parseCtx) skipParens(i, to int) (int, error) {
	depth := 0
	for j := i; j < to; j++ {
		switch {
		case c.toks[j].isOp("("):
			depth++
		case c.toks[j].isOp(")"):
			depth--
			if depth == 0 {
				return j + 1, nil
			}
		}
	}
	return 0, newParseError(c.src, c.toks[i].pos, "unbalanced parenthesis")
}
