package parser

import "strings"

// CreateNamespaceStmt is CREATE {NAMESPACE|DATABASE|SCHEMA}.
type CreateNamespaceStmt struct {
	noRefs
	IfNotExists bool
	Namespace   []string
	Comment     string
	Location    string
	Properties  []Property
}

// DropNamespaceStmt is DROP {NAMESPACE|DATABASE|SCHEMA}.
type DropNamespaceStmt struct {
	noRefs
	IfExists  bool
	Namespace []string
	Cascade   bool
}

// ShowNamespacesStmt is SHOW {NAMESPACES|DATABASES|SCHEMAS} [IN ns] [LIKE p].
type ShowNamespacesStmt struct {
	noRefs
	In   []string // nil: top level
	Like string   // "" when absent
}

// ShowTablesStmt is SHOW TABLES [FROM|IN ns] [LIKE p].
type ShowTablesStmt struct {
	noRefs
	In   []string // nil: current namespace
	Like string
}

// UseStmt is USE ns.
type UseStmt struct {
	noRefs
	Namespace []string
}

func (s *CreateNamespaceStmt) String() string {
	var b strings.Builder
	b.WriteString("CREATE NAMESPACE ")
	if s.IfNotExists {
		b.WriteString("IF NOT EXISTS ")
	}
	b.WriteString(QuoteName(s.Namespace))
	if s.Comment != "" {
		b.WriteString(" COMMENT " + QuoteString(s.Comment))
	}
	if s.Location != "" {
		b.WriteString(" LOCATION " + QuoteString(s.Location))
	}
	if len(s.Properties) > 0 {
		b.WriteString(" WITH DBPROPERTIES " + printProperties(s.Properties))
	}
	return b.String()
}

func (s *DropNamespaceStmt) String() string {
	out := "DROP NAMESPACE "
	if s.IfExists {
		out += "IF EXISTS "
	}
	out += QuoteName(s.Namespace)
	if s.Cascade {
		out += " CASCADE"
	}
	return out
}

func (s *ShowNamespacesStmt) String() string { return showFilterSQL("SHOW NAMESPACES", s.In, s.Like) }

func (s *ShowTablesStmt) String() string { return showFilterSQL("SHOW TABLES", s.In, s.Like) }

func (s *UseStmt) String() string { return "USE " + QuoteName(s.Namespace) }

var nsWords = []string{"NAMESPACE", "DATABASE", "SCHEMA"}

func parseCreateNamespace(p *cursor) (Statement, error) {
	s := &CreateNamespaceStmt{}
	p.next() // CREATE
	p.oneOf(nsWords...)
	s.IfNotExists = p.acceptKw("IF", "NOT", "EXISTS")
	var err error
	if s.Namespace, err = p.name("a namespace name"); err != nil {
		return nil, err
	}
	for !p.atEnd() {
		switch {
		case p.acceptKw("COMMENT"):
			s.Comment, err = p.str("a comment")
		case p.acceptKw("LOCATION"):
			s.Location, err = p.str("a location")
		case p.acceptKw("WITH"):
			if p.oneOf("DBPROPERTIES", "PROPERTIES") == "" {
				return nil, p.errorf("expected DBPROPERTIES after WITH, found %s", p.describe())
			}
			var props []Property
			props, err = p.properties()
			s.Properties = append(s.Properties, props...)
		default:
			return nil, p.errorf("expected COMMENT, LOCATION or WITH DBPROPERTIES, found %s", p.describe())
		}
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

func parseDropNamespace(p *cursor) (Statement, error) {
	s := &DropNamespaceStmt{}
	p.next()
	p.oneOf(nsWords...)
	s.IfExists = p.acceptKw("IF", "EXISTS")
	var err error
	if s.Namespace, err = p.name("a namespace name"); err != nil {
		return nil, err
	}
	switch p.oneOf("CASCADE", "RESTRICT") {
	case "CASCADE":
		s.Cascade = true
	}
	return s, nil
}

func parseUse(p *cursor) (Statement, error) {
	p.next()
	p.oneOf(nsWords...)
	ns, err := p.name("a namespace name")
	if err != nil {
		return nil, err
	}
	return &UseStmt{Namespace: ns}, nil
}

// parseShow handles SHOW NAMESPACES/TABLES/TBLPROPERTIES/CREATE TABLE.
func parseShow(p *cursor) (Statement, error) {
	p.next() // SHOW
	switch w := p.oneOf("NAMESPACES", "DATABASES", "SCHEMAS", "TABLES", "TBLPROPERTIES", "CREATE"); w {
	case "TBLPROPERTIES":
		t, err := p.tableRef()
		if err != nil {
			return nil, err
		}
		s := &ShowPropertiesStmt{Table: t}
		if p.acceptOp("(") {
			if s.Key, err = p.propertyKey(); err != nil {
				return nil, err
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
		}
		return s, nil
	case "CREATE":
		if err := p.expectKw("TABLE"); err != nil {
			return nil, err
		}
		t, err := p.tableRef()
		if err != nil {
			return nil, err
		}
		return &ShowCreateTableStmt{Table: t}, nil
	default:
		in, like, err := p.showFilter()
		if err != nil {
			return nil, err
		}
		if w == "TABLES" {
			return &ShowTablesStmt{In: in, Like: like}, nil
		}
		return &ShowNamespacesStmt{In: in, Like: like}, nil
	}
}
