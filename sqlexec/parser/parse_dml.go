package parser

import (
	"slices"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

func parseExplain(p *cursor) (Statement, error) {
	p.next() // EXPLAIN, DESC or DESCRIBE
	s := &ExplainStmt{}
	if p.peek().isOp("(") && slices.ContainsFunc(explainOptionNames, p.peekAt(1).isKw) {
		if err := p.explainOptions(s); err != nil {
			return nil, err
		}
	}
	for {
		if p.acceptKw("ANALYZE") {
			s.Analyze = true
		} else if p.oneOf("VERBOSE", "EXTENDED", "FORMATTED", "COST", "CODEGEN") == "" {
			break
		}
	}
	if p.atEnd() {
		return nil, p.errorf("expected a statement to explain")
	}
	if p.isKw("EXPLAIN") || ((p.isKw("DESC") || p.isKw("DESCRIBE")) && p.c.extension(p.i, p.end) != nil) {
		return nil, p.errorf("EXPLAIN cannot explain EXPLAIN")
	}
	inner, err := p.c.statement(p.i, p.end)
	if err != nil {
		return nil, err
	}
	p.i = p.end
	s.Stmt = inner
	return s, nil
}

var explainOptionNames = []string{"ANALYZE", "TIMING", "SUMMARY", "BUFFERS", "VERBOSE", "COSTS"}

// explainOptions parses Postgres's EXPLAIN (option [value], ...): ANALYZE,
// and what ANALYZE prints (TIMING, SUMMARY, BUFFERS); VERBOSE and COSTS
// are accepted and change nothing.
func (p *cursor) explainOptions(s *ExplainStmt) error {
	p.next() // (
	at := p.pos()
	var analyzeOnly string
	err := p.commaList(func() error {
		name := p.oneOf(explainOptionNames...)
		if name == "" {
			return p.errorf("unknown EXPLAIN option %s (expected ANALYZE, TIMING, SUMMARY, BUFFERS, VERBOSE or COSTS)", p.describe())
		}
		on := true
		switch v := p.oneOf("ON", "TRUE", "OFF", "FALSE"); v {
		case "OFF", "FALSE":
			on = false
		case "":
			if t := p.peek(); t.kind == tkNumber && (p.c.src[t.pos:t.end] == "0" || p.c.src[t.pos:t.end] == "1") {
				on = p.c.src[t.pos:t.end] == "1"
				p.next()
			}
		}
		switch name {
		case "ANALYZE":
			s.Analyze = on
		case "TIMING":
			s.NoTiming, analyzeOnly = !on, name
		case "SUMMARY":
			s.NoSummary, analyzeOnly = !on, name
		case "BUFFERS":
			s.NoBuffers, analyzeOnly = !on, name
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := p.expectOp(")"); err != nil {
		return err
	}
	if analyzeOnly != "" && !s.Analyze {
		return newParseError(p.c.src, at, "EXPLAIN option "+analyzeOnly+" requires ANALYZE")
	}
	return nil
}

func parseInsertOverwrite(p *cursor) (Statement, error) {
	p.i += 2 // INSERT OVERWRITE
	p.acceptKw("TABLE")
	at := p.pos()
	t, err := p.tableRef()
	if err != nil {
		return nil, err
	}
	s := &InsertOverwriteStmt{Table: t}
	if p.acceptKw("PARTITION") {
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		for {
			col, err := p.ident("a partition column")
			if err != nil {
				return nil, err
			}
			pv := PartitionValue{Column: col}
			if p.acceptOp("=") {
				if pv.Value, err = p.expr(stopAt(",")); err != nil {
					return nil, err
				}
			}
			s.Partition = append(s.Partition, pv)
			if !p.acceptOp(",") {
				break
			}
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	if p.atEnd() {
		return nil, p.errorf("expected a query after INSERT OVERWRITE %s", t)
	}
	// Parse `INSERT INTO <placeholder> <rest>` so the source gets TiDB's
	// own INSERT grammar (column list, SELECT, VALUES, TABLE).
	rw := p.c.newRewrite()
	m := &mappedText{}
	m.synth("INSERT INTO "+rw.add(t, at)+" ", p.pos())
	if err := p.c.rewriteRefs(p.i, p.end, m, rw); err != nil {
		return nil, err
	}
	node, refs, err := p.c.tidbParse(m, p.pos(), rw)
	if err != nil {
		return nil, err
	}
	ins, ok := node.(*ast.InsertStmt)
	if !ok || ins.IsReplace || ins.Setlist || ins.OnDuplicate != nil {
		return nil, p.errorf("expected a query or VALUES")
	}
	s.Insert, s.SourceText = ins, p.c.text(p.i, p.end)
	p.refs.merge(refs)
	s.Refs = p.refs
	p.i = p.end
	return s, nil
}

func parseCall(p *cursor) (Statement, error) {
	p.next()
	name, err := p.name("a procedure name")
	if err != nil {
		return nil, err
	}
	s := &CallStmt{Name: name}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	if !p.acceptOp(")") {
		for {
			var a CallArg
			if p.peek().isName() && p.peekAt(1).isOp("=>") {
				a.Name = p.next().val
				p.next()
			} else if len(s.Args) > 0 && s.Args[len(s.Args)-1].Name != "" {
				return nil, p.errorf("a positional argument cannot follow a named one")
			}
			if a.Value, err = p.expr(stopAt(",")); err != nil {
				return nil, err
			}
			s.Args = append(s.Args, a)
			if !p.acceptOp(",") {
				break
			}
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	s.Refs = p.refs
	return s, nil
}

func parseMerge(p *cursor) (Statement, error) {
	p.next()
	if err := p.expectKw("INTO"); err != nil {
		return nil, err
	}
	s := &MergeStmt{}
	var err error
	if s.Target, err = p.tableRef(); err != nil {
		return nil, err
	}
	if s.TargetAlias, err = p.alias("USING"); err != nil {
		return nil, err
	}
	if err := p.expectKw("USING"); err != nil {
		return nil, err
	}
	if p.peek().isOp("(") {
		close, err := p.c.skipParens(p.i, p.end)
		if err != nil {
			return nil, err
		}
		q, refs, err := p.c.parseQuery(p.i+1, close-1)
		if err != nil {
			return nil, err
		}
		p.refs.merge(refs)
		s.SourceQuery = q
		p.i = close
	} else {
		end, ref, err := p.c.tableFactor(p.i, p.end)
		if err != nil {
			return nil, err
		}
		if ref == nil {
			if ref, err = p.tableRef(); err != nil {
				return nil, err
			}
		}
		p.i = end
		s.SourceTable = ref
	}
	if s.SourceAlias, err = p.alias("ON"); err != nil {
		return nil, err
	}
	if err := p.expectKw("ON"); err != nil {
		return nil, err
	}
	if s.On, err = p.expr(stopAt("WHEN")); err != nil {
		return nil, err
	}
	for p.acceptKw("WHEN") {
		c, err := p.mergeClause()
		if err != nil {
			return nil, err
		}
		s.Clauses = append(s.Clauses, c)
	}
	if len(s.Clauses) == 0 {
		return nil, p.errorf("expected WHEN [NOT] MATCHED, found %s", p.describe())
	}
	s.Refs = p.refs
	return s, nil
}

// alias reads [AS] alias before the keyword next.
func (p *cursor) alias(next string) (string, error) {
	if p.acceptKw("AS") {
		return p.ident("an alias")
	}
	if t := p.peek(); t.isName() && !t.isKw(next) {
		p.next()
		return t.val, nil
	}
	return "", nil
}

func (p *cursor) mergeClause() (MergeClause, error) {
	var c MergeClause
	switch {
	case p.acceptKw("MATCHED"):
		c.Match = Matched
	case p.acceptKw("NOT", "MATCHED", "BY", "SOURCE"):
		c.Match = NotMatchedBySource
	case p.acceptKw("NOT", "MATCHED"):
		c.Match = NotMatched
		p.acceptKw("BY", "TARGET")
	default:
		return c, p.errorf("expected MATCHED or NOT MATCHED, found %s", p.describe())
	}
	var err error
	if p.acceptKw("AND") {
		if c.Cond, err = p.expr(stopAt("THEN")); err != nil {
			return c, err
		}
	}
	if err := p.expectKw("THEN"); err != nil {
		return c, err
	}
	switch {
	case p.acceptKw("DELETE"):
		c.Action = MergeDelete
	case p.acceptKw("UPDATE", "SET"):
		if p.acceptOp("*") {
			c.Action = MergeUpdateStar
			break
		}
		c.Action = MergeUpdate
		for {
			col, err := p.name("a column name")
			if err != nil {
				return c, err
			}
			if err := p.expectOp("="); err != nil {
				return c, err
			}
			v, err := p.expr(stopAt(",", "WHEN"))
			if err != nil {
				return c, err
			}
			c.Set = append(c.Set, Assignment{Column: col, Value: v})
			if !p.acceptOp(",") {
				break
			}
		}
	case p.acceptKw("INSERT"):
		if p.acceptOp("*") {
			c.Action = MergeInsertStar
			break
		}
		c.Action = MergeInsert
		if p.acceptOp("(") {
			for {
				col, err := p.ident("a column name")
				if err != nil {
					return c, err
				}
				c.InsertColumns = append(c.InsertColumns, col)
				if !p.acceptOp(",") {
					break
				}
			}
			if err := p.expectOp(")"); err != nil {
				return c, err
			}
		}
		if err := p.expectKw("VALUES"); err != nil {
			return c, err
		}
		if err := p.expectOp("("); err != nil {
			return c, err
		}
		for {
			v, err := p.expr(stopAt(","))
			if err != nil {
				return c, err
			}
			c.InsertValues = append(c.InsertValues, v)
			if !p.acceptOp(",") {
				break
			}
		}
		if err := p.expectOp(")"); err != nil {
			return c, err
		}
		if len(c.InsertColumns) > 0 && len(c.InsertColumns) != len(c.InsertValues) {
			return c, p.errorf("INSERT lists %d columns but %d values", len(c.InsertColumns), len(c.InsertValues))
		}
	default:
		return c, p.errorf("expected UPDATE, DELETE or INSERT, found %s", p.describe())
	}
	if c.Match == NotMatched && (c.Action != MergeInsert && c.Action != MergeInsertStar) {
		return c, p.errorf("WHEN NOT MATCHED can only INSERT")
	}
	if c.Match != NotMatched && (c.Action == MergeInsert || c.Action == MergeInsertStar) {
		return c, p.errorf("only WHEN NOT MATCHED can INSERT")
	}
	if c.Match == NotMatchedBySource && c.Action == MergeUpdateStar {
		return c, p.errorf("WHEN NOT MATCHED BY SOURCE cannot UPDATE SET *")
	}
	return c, nil
}
