package parser

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Options adjusts parsing.
type Options struct {
	// Catalogs are the catalog names a leading name part may be (case
	// insensitive), as in catalog.ns.t. Without them every leading part is
	// a namespace.
	Catalogs []string
}

// Parse splits a script into statements and parses each.
func Parse(sql string) ([]Statement, error) { return ParseWith(sql, Options{}) }

// ParseOne parses a script that must hold exactly one statement.
func ParseOne(sql string) (Statement, error) {
	stmts, err := Parse(sql)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, newParseError(sql, 0, "expected exactly one statement")
	}
	return stmts[0], nil
}

// ParseWith is Parse with options.
func ParseWith(sql string, opts Options) ([]Statement, error) {
	toks, err := lex(sql)
	if err != nil {
		return nil, err
	}
	c := &parseCtx{src: sql, toks: toks, opts: &opts}
	var out []Statement
	start := 0
	for i, t := range toks {
		if !t.isOp(";") && t.kind != tkEOF {
			continue
		}
		if t.kind != tkEOF && c.triggerBodyOpen(start, i) {
			continue
		}
		if i > start {
			st, err := c.statement(start, i)
			if err != nil {
				return nil, err
			}
			out = append(out, st)
		}
		start = i + 1
	}
	return out, nil
}

// parseCtx is the state shared by all statements of one script.
type parseCtx struct {
	src      string
	toks     []token
	opts     *Options
	phPrefix string
}

// text returns the source of tokens [from, to).
func (c *parseCtx) text(from, to int) string {
	if from >= to {
		return ""
	}
	return c.src[c.toks[from].pos:c.toks[to-1].end]
}

// statement parses tokens [from, to) as one statement.
func (c *parseCtx) statement(from, to int) (Statement, error) {
	if ext := c.extension(from, to); ext != nil {
		p := &cursor{c: c, i: from, end: to}
		st, err := ext(p)
		if err != nil {
			return nil, err
		}
		if !p.atEnd() {
			return nil, p.errorf("unexpected input after the statement")
		}
		return st, nil
	}
	return c.tidbStatement(from, to)
}

// tidbStatement parses a statement TiDB understands, after rewriting the
// table references it cannot parse.
func (c *parseCtx) tidbStatement(from, to int) (*TiDBStmt, error) {
	rw := c.newRewrite()
	m := &mappedText{}
	if err := c.rewriteRefs(from, to, m, rw); err != nil {
		return nil, err
	}
	node, refs, err := c.tidbParse(m, c.toks[from].pos, rw)
	if err != nil {
		return nil, err
	}
	return &TiDBStmt{Node: node, Text: c.text(from, to), Refs: refs}, nil
}

// extension picks the extension-layer parser for a statement, or nil when
// TiDB parses it.
func (c *parseCtx) extension(from, to int) func(*cursor) (Statement, error) {
	kw := func(k int) string {
		if from+k < to && c.toks[from+k].kind == tkIdent {
			return strings.ToUpper(c.toks[from+k].val)
		}
		return ""
	}
	isNS := func(w string) bool { return w == "NAMESPACE" || w == "DATABASE" || w == "SCHEMA" }
	if ext := viewExtension(kw); ext != nil {
		return ext
	}
	if ext := noIcebergFeature(kw); ext != nil {
		return ext
	}
	switch kw(0) {
	case "CREATE":
		w := kw(1)
		if w == "OR" && kw(2) == "REPLACE" {
			w = kw(3)
		}
		switch {
		case w == "TABLE":
			return parseCreateTable
		case isNS(w):
			return parseCreateNamespace
		}
	case "REPLACE":
		if kw(1) == "TABLE" {
			return parseCreateTable
		}
	case "DROP":
		switch w := kw(1); {
		case w == "TABLE":
			return parseDropTable
		case isNS(w):
			return parseDropNamespace
		}
	case "SHOW":
		switch kw(1) {
		case "NAMESPACES", "DATABASES", "SCHEMAS", "TABLES", "TBLPROPERTIES":
			return parseShow
		case "CREATE":
			if kw(2) == "TABLE" {
				return parseShow
			}
		}
	case "USE":
		return parseUse
	case "SET":
		if c.isPropertySet(from, to) {
			return parseSet
		}
	case "RESET":
		return parseReset
	case "ALTER":
		if kw(1) == "TABLE" {
			return parseAlterTable
		}
	case "DESC", "DESCRIBE":
		switch kw(1) {
		case "SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE", "VALUES":
			return parseExplain
		}
		if from+1 < to && c.toks[from+1].isOp("(") {
			return parseExplain
		}
		return parseDescribe
	case "EXPLAIN":
		return parseExplain
	case "INSERT":
		if kw(1) == "OVERWRITE" {
			return parseInsertOverwrite
		}
	case "MERGE":
		return parseMerge
	case "CALL":
		return parseCall
	case "COPY":
		return parseCopy
	}
	return nil
}

// Expr is an expression embedded in an extension statement, parsed by
// TiDB, with its source text.
type Expr struct {
	Node ast.ExprNode
	Text string
}

func (e *Expr) String() string { return e.Text }

// Query is a SELECT (or set operation) embedded in an extension statement.
type Query struct {
	Node ast.ResultSetNode
	Text string
}

func (q *Query) String() string { return q.Text }

// parseExpr parses tokens [from, to) as one expression.
func (c *parseCtx) parseExpr(from, to int) (*Expr, RefMap, error) {
	if from >= to {
		return nil, nil, newParseError(c.src, c.toks[from].pos, "expected an expression")
	}
	rw := c.newRewrite()
	m := &mappedText{}
	m.synth("SELECT ", c.toks[from].pos)
	if err := c.rewriteRefs(from, to, m, rw); err != nil {
		return nil, nil, err
	}
	node, refs, err := c.tidbParse(m, c.toks[from].pos, rw)
	if err != nil {
		return nil, nil, err
	}
	sel, ok := node.(*ast.SelectStmt)
	if !ok || sel.From != nil || sel.Where != nil || sel.GroupBy != nil || sel.OrderBy != nil ||
		sel.Limit != nil || sel.Having != nil || sel.Fields == nil || len(sel.Fields.Fields) != 1 ||
		sel.Fields.Fields[0].Expr == nil || sel.Fields.Fields[0].AsName.L != "" || sel.With != nil {
		return nil, nil, newParseError(c.src, c.toks[from].pos, "expected one expression")
	}
	return &Expr{Node: sel.Fields.Fields[0].Expr, Text: c.text(from, to)}, refs, nil
}

// parseQuery parses tokens [from, to) as a SELECT, WITH or set operation.
func (c *parseCtx) parseQuery(from, to int) (*Query, RefMap, error) {
	if from >= to {
		return nil, nil, newParseError(c.src, c.toks[from].pos, "expected a query")
	}
	st, err := c.tidbStatement(from, to)
	if err != nil {
		return nil, nil, err
	}
	rs, ok := st.Node.(ast.ResultSetNode)
	if !ok {
		return nil, nil, newParseError(c.src, c.toks[from].pos, "expected a query")
	}
	return &Query{Node: rs, Text: st.Text}, st.Refs, nil
}
