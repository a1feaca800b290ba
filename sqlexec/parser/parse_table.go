package parser

import "strings"

func parseCreateTable(p *cursor) (Statement, error) {
	s := &CreateTableStmt{}
	if p.acceptKw("REPLACE") {
		s.OrReplace = true
	} else {
		p.next() // CREATE
		s.OrReplace = p.acceptKw("OR", "REPLACE")
	}
	if err := p.expectKw("TABLE"); err != nil {
		return nil, err
	}
	s.IfNotExists = p.acceptKw("IF", "NOT", "EXISTS")
	var err error
	if s.Table, err = p.tableRef(); err != nil {
		return nil, err
	}
	if p.acceptOp("(") {
		err := p.commaList(func() error {
			if done, err := p.tableConstraint(s); done || err != nil {
				return err
			}
			c, err := p.columnDef(false)
			s.Columns = append(s.Columns, c)
			return err
		})
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		if err := s.collectPrimaryKey(p); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for !p.atEnd() {
		at := p.pos()
		w := p.oneOf("USING", "PARTITIONED", "LOCATION", "COMMENT", "TBLPROPERTIES", "AS")
		if w == "" {
			if p.isKw("SELECT") || p.isKw("WITH") || p.peek().isOp("(") {
				w = "AS"
			} else {
				return nil, p.errorf("expected USING, PARTITIONED BY, LOCATION, COMMENT, TBLPROPERTIES or AS SELECT, found %s", p.describe())
			}
		}
		if seen[w] {
			return nil, newParseError(p.c.src, at, w+" given twice")
		}
		seen[w] = true
		switch w {
		case "USING":
			s.Using, err = p.ident("a table provider")
		case "PARTITIONED":
			if err = p.expectKw("BY"); err == nil {
				s.PartitionBy, err = p.partitionTerms()
			}
		case "LOCATION":
			s.Location, err = p.str("a location")
		case "COMMENT":
			s.Comment, err = p.str("a comment")
		case "TBLPROPERTIES":
			s.Properties, err = p.properties()
		case "AS":
			q, refs, qerr := p.c.parseQuery(p.i, p.end)
			if qerr != nil {
				return nil, qerr
			}
			s.AsSelect, s.Refs = q, refs
			p.i = p.end
		}
		if err != nil {
			return nil, err
		}
	}
	if len(s.Columns) == 0 && s.AsSelect == nil {
		return nil, p.errorf("CREATE TABLE needs a column list or AS SELECT")
	}
	return s, nil
}

// columnDef reads name TYPE [NOT NULL|NULL] [COMMENT 'c'] and, for ALTER
// TABLE, [FIRST | AFTER col]. Names may be dotted paths when nested.
func (p *cursor) columnDef(alter bool) (ColumnDef, error) {
	var c ColumnDef
	path, err := p.name("a column name")
	if err != nil {
		return c, err
	}
	c.Name = strings.Join(path, ".")
	if c.Type, err = p.typ(); err != nil {
		return c, err
	}
	for {
		switch {
		case p.acceptKw("NOT", "NULL"):
			c.NotNull = true
		case p.acceptKw("NULL"):
		case !alter && p.acceptKw("PRIMARY", "KEY"):
			c.PrimaryKey = true
			p.oneOf("ASC", "DESC")
			p.acceptKw("NOT", "ENFORCED")
		case !alter && p.acceptKw("UNIQUE"):
			c.Unique = true
		case p.acceptKw("COMMENT"):
			if c.Comment, err = p.str("a comment"); err != nil {
				return c, err
			}
		case alter && p.acceptKw("FIRST"):
			c.First = true
		case alter && p.acceptKw("AFTER"):
			after, err := p.name("a column name")
			if err != nil {
				return c, err
			}
			c.After = strings.Join(after, ".")
		default:
			return c, nil
		}
	}
}

// partitionTerms reads (term, ...).
func (p *cursor) partitionTerms() ([]PartitionTerm, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	var ts []PartitionTerm
	for {
		t, err := p.partitionTerm()
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
		if !p.acceptOp(",") {
			break
		}
	}
	return ts, p.expectOp(")")
}

// transformNames maps Spark's transform spellings to Iceberg's names.
var transformNames = map[string]string{
	"YEARS": "year", "YEAR": "year", "MONTHS": "month", "MONTH": "month",
	"DAYS": "day", "DAY": "day", "DATE": "day", "HOURS": "hour", "HOUR": "hour",
	"DATE_HOUR": "hour", "BUCKET": "bucket", "TRUNCATE": "truncate",
	"IDENTITY": "identity", "VOID": "void",
}

// partitionTerm reads col | fn(col) | bucket(N, col) | truncate(W, col).
// truncate(col, W) and bucket(col, N), the older order, are accepted too.
func (p *cursor) partitionTerm() (PartitionTerm, error) {
	var t PartitionTerm
	fn, isFn := transformNames[strings.ToUpper(p.peek().val)]
	if !(p.peek().kind == tkIdent && isFn && p.peekAt(1).isOp("(")) {
		path, err := p.name("a column name or transform")
		if err != nil {
			return t, err
		}
		t.Transform, t.Column = "identity", strings.Join(path, ".")
		return t, nil
	}
	p.i += 2
	t.Transform = fn
	if fn == "bucket" || fn == "truncate" {
		what := "bucket count"
		if fn == "truncate" {
			what = "truncate width"
		}
		paramFirst := p.peek().kind == tkNumber
		var err error
		if paramFirst {
			if t.Param, err = p.smallInt(what, 1); err != nil {
				return t, err
			}
			if err := p.expectOp(","); err != nil {
				return t, err
			}
		}
		path, err := p.name("a column name")
		if err != nil {
			return t, err
		}
		t.Column = strings.Join(path, ".")
		if !paramFirst {
			if err := p.expectOp(","); err != nil {
				return t, err
			}
			if t.Param, err = p.smallInt(what, 1); err != nil {
				return t, err
			}
		}
	} else {
		path, err := p.name("a column name")
		if err != nil {
			return t, err
		}
		t.Column = strings.Join(path, ".")
	}
	return t, p.expectOp(")")
}

func parseDropTable(p *cursor) (Statement, error) {
	p.i += 2 // DROP TABLE
	s := &DropTableStmt{IfExists: p.acceptKw("IF", "EXISTS")}
	var err error
	if s.Table, err = p.tableRef(); err != nil {
		return nil, err
	}
	s.Purge = p.acceptKw("PURGE")
	return s, nil
}

func parseDescribe(p *cursor) (Statement, error) {
	p.next()
	p.acceptKw("TABLE")
	s := &DescribeStmt{}
	if (p.isKw("EXTENDED") || p.isKw("FORMATTED")) && p.peekAt(1).isName() {
		p.i++
		s.Extended = true
	}
	var err error
	if s.Table, err = p.tableRef(); err != nil {
		return nil, err
	}
	return s, nil
}

// tableConstraint reads a table constraint of a CREATE TABLE column list,
// [CONSTRAINT name] PRIMARY KEY (cols) [NOT ENFORCED] or UNIQUE (cols),
// reporting whether there was one.
func (p *cursor) tableConstraint(s *CreateTableStmt) (bool, error) {
	named := p.isKw("CONSTRAINT") && p.peekAt(1).isName()
	k := 0
	if named {
		k = 2
	}
	isAt := func(kws ...string) bool {
		for j, kw := range kws {
			t := p.peekAt(k + j)
			if t.kind != tkIdent || !strings.EqualFold(t.val, kw) {
				return false
			}
		}
		return p.peekAt(k + len(kws)).isOp("(")
	}
	switch {
	case isAt("PRIMARY", "KEY"):
		p.i += k + 2
		if s.PrimaryKey != nil {
			return true, p.errorf("PRIMARY KEY given twice")
		}
		cols, err := p.paths(true)
		if err != nil {
			return true, err
		}
		s.PrimaryKey = cols
		p.acceptKw("NOT", "ENFORCED")
		return true, nil
	case isAt("UNIQUE"):
		p.i += k + 1
		cols, err := p.paths(true)
		s.Unique = append(s.Unique, cols...)
		return true, err
	}
	return false, nil
}

// collectPrimaryKey folds the columns marked PRIMARY KEY into s.PrimaryKey
// and UNIQUE ones into s.Unique; a table has one primary key, given
// either way.
func (s *CreateTableStmt) collectPrimaryKey(p *cursor) error {
	var marked []string
	for _, c := range s.Columns {
		if c.PrimaryKey {
			marked = append(marked, c.Name)
		}
		if c.Unique {
			s.Unique = append(s.Unique, c.Name)
		}
	}
	switch {
	case len(marked) > 1:
		return p.errorf("more than one column is marked PRIMARY KEY; list a composite key as PRIMARY KEY (a, b)")
	case len(marked) == 1 && s.PrimaryKey != nil:
		return p.errorf("PRIMARY KEY given twice")
	case len(marked) == 1:
		s.PrimaryKey = marked
	}
	return nil
}
