package parser

// viewExtension picks the parser of a view statement whose leading
// keywords are kw(0), kw(1), ...; nil when it is not one.
func viewExtension(kw func(int) string) func(*cursor) (Statement, error) {
	switch kw(0) {
	case "CREATE":
		k := 1
		if kw(1) == "OR" && kw(2) == "REPLACE" {
			k = 3
		}
		if kw(k) == "GLOBAL" {
			k++
		}
		if kw(k) == "TEMPORARY" || kw(k) == "TEMP" {
			k++
		}
		if kw(k) == "VIEW" {
			return parseCreateView
		}
	case "DROP":
		if kw(1) == "VIEW" {
			return parseDropView
		}
	case "SHOW":
		if kw(1) == "VIEWS" {
			return parseShowViews
		}
		if kw(1) == "CREATE" && kw(2) == "VIEW" {
			return parseShowCreateView
		}
	case "ALTER":
		if kw(1) == "VIEW" {
			return parseAlterView
		}
	}
	return nil
}

func parseCreateView(p *cursor) (Statement, error) {
	s := &CreateViewStmt{}
	p.next() // CREATE
	s.OrReplace = p.acceptKw("OR", "REPLACE")
	if p.isKw("GLOBAL") || p.isKw("TEMPORARY") || p.isKw("TEMP") {
		return nil, p.errorf("temporary views are not supported (views are stored in the catalog)")
	}
	if err := p.expectKw("VIEW"); err != nil {
		return nil, err
	}
	s.IfNotExists = p.acceptKw("IF", "NOT", "EXISTS")
	if s.OrReplace && s.IfNotExists {
		return nil, p.errorf("CREATE OR REPLACE VIEW cannot take IF NOT EXISTS")
	}
	var err error
	if s.View, err = p.tableRef(); err != nil {
		return nil, err
	}
	if p.acceptOp("(") {
		err := p.commaList(func() error {
			var c ViewColumn
			var err error
			if c.Name, err = p.ident("a column name"); err != nil {
				return err
			}
			if p.acceptKw("COMMENT") {
				if c.Comment, err = p.str("a comment"); err != nil {
					return err
				}
			}
			s.Columns = append(s.Columns, c)
			return nil
		})
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for {
		at := p.pos()
		w := p.oneOf("COMMENT", "TBLPROPERTIES", "AS")
		if w == "" {
			return nil, p.errorf("expected COMMENT, TBLPROPERTIES or AS query, found %s", p.describe())
		}
		if seen[w] {
			return nil, newParseError(p.c.src, at, w+" given twice")
		}
		seen[w] = true
		switch w {
		case "COMMENT":
			s.Comment, err = p.str("a comment")
		case "TBLPROPERTIES":
			s.Properties, err = p.properties()
		case "AS":
			return s, p.viewQuery(&s.Query, &s.Refs)
		}
		if err != nil {
			return nil, err
		}
	}
}

// viewQuery parses the rest of the statement as the view's query.
func (p *cursor) viewQuery(q **Query, refs *RefMap) error {
	query, r, err := p.c.parseQuery(p.i, p.end)
	if err != nil {
		return err
	}
	*q, *refs = query, r
	p.i = p.end
	return nil
}

func parseDropView(p *cursor) (Statement, error) {
	p.i += 2 // DROP VIEW
	s := &DropViewStmt{IfExists: p.acceptKw("IF", "EXISTS")}
	var err error
	s.View, err = p.tableRef()
	return s, err
}

func parseShowViews(p *cursor) (Statement, error) {
	p.i += 2 // SHOW VIEWS
	in, like, err := p.showFilter()
	if err != nil {
		return nil, err
	}
	return &ShowViewsStmt{In: in, Like: like}, nil
}

func parseShowCreateView(p *cursor) (Statement, error) {
	p.i += 3 // SHOW CREATE VIEW
	v, err := p.tableRef()
	return &ShowCreateViewStmt{View: v}, err
}

func parseAlterView(p *cursor) (Statement, error) {
	p.i += 2 // ALTER VIEW
	v, err := p.tableRef()
	if err != nil {
		return nil, err
	}
	s := &AlterViewStmt{View: v}
	switch {
	case p.acceptKw("AS"):
		c := &CreateViewStmt{Alter: true, View: v}
		return c, p.viewQuery(&c.Query, &c.Refs)
	case p.acceptKw("RENAME", "TO"):
		s.RenameTo, err = p.tableRef()
		return s, err
	case p.acceptKw("SET", "TBLPROPERTIES"), p.acceptKw("SET", "PROPERTIES"):
		s.Set, err = p.properties()
		return s, err
	case p.acceptKw("UNSET", "TBLPROPERTIES"), p.acceptKw("UNSET", "PROPERTIES"):
		s.IfExists = p.acceptKw("IF", "EXISTS")
		s.Unset, err = p.propertyKeyList()
		return s, err
	}
	return nil, p.errorf("expected AS, RENAME TO, SET TBLPROPERTIES or UNSET TBLPROPERTIES, found %s", p.describe())
}
