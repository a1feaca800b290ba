package parser

import "strings"

// ViewColumn is a column alias of CREATE VIEW v (name [COMMENT 'c'], ...).
type ViewColumn struct {
	Name    string
	Comment string
}

// CreateViewStmt is CREATE [OR REPLACE] VIEW [IF NOT EXISTS] v
// [(col [COMMENT 'c'], ...)] [COMMENT 'c'] [TBLPROPERTIES (...)] AS query,
// and ALTER VIEW v AS query (Replace set, the view must exist).
type CreateViewStmt struct {
	OrReplace   bool
	IfNotExists bool
	// Alter is ALTER VIEW v AS query: replace the query of an existing view
	// keeping its comment and properties.
	Alter      bool
	View       *TableRef
	Columns    []ViewColumn
	Comment    string
	Properties []Property
	// Query.Text is the query exactly as written: the SQL the view stores.
	Query *Query
	Refs  RefMap
}

func (s *CreateViewStmt) TableRefs() RefMap { return s.Refs }

func (s *CreateViewStmt) String() string {
	var b strings.Builder
	if s.Alter {
		return "ALTER VIEW " + s.View.String() + " AS " + s.Query.Text
	}
	writeCreateHead(&b, s.OrReplace, "VIEW", s.IfNotExists, s.View)
	if len(s.Columns) > 0 {
		b.WriteString(" (")
		for i, c := range s.Columns {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteIdent(c.Name))
			if c.Comment != "" {
				b.WriteString(" COMMENT " + QuoteString(c.Comment))
			}
		}
		b.WriteString(")")
	}
	if s.Comment != "" {
		b.WriteString(" COMMENT " + QuoteString(s.Comment))
	}
	if len(s.Properties) > 0 {
		b.WriteString(" TBLPROPERTIES " + printProperties(s.Properties))
	}
	b.WriteString(" AS " + s.Query.Text)
	return b.String()
}

// DropViewStmt is DROP VIEW [IF EXISTS] v.
type DropViewStmt struct {
	noRefs
	IfExists bool
	View     *TableRef
}

func (s *DropViewStmt) String() string {
	out := "DROP VIEW "
	if s.IfExists {
		out += "IF EXISTS "
	}
	return out + s.View.String()
}

// ShowViewsStmt is SHOW VIEWS [FROM|IN ns] [LIKE p].
type ShowViewsStmt struct {
	noRefs
	In   []string // nil: current namespace
	Like string
}

func (s *ShowViewsStmt) String() string { return showFilterSQL("SHOW VIEWS", s.In, s.Like) }

// ShowCreateViewStmt is SHOW CREATE VIEW v.
type ShowCreateViewStmt struct {
	noRefs
	View *TableRef
}

func (s *ShowCreateViewStmt) String() string { return "SHOW CREATE VIEW " + s.View.String() }

// AlterViewStmt is ALTER VIEW v RENAME TO w | SET TBLPROPERTIES (...) |
// UNSET TBLPROPERTIES [IF EXISTS] (...). (ALTER VIEW v AS query is a
// CreateViewStmt.)
type AlterViewStmt struct {
	noRefs
	View     *TableRef
	RenameTo *TableRef
	Set      []Property
	Unset    []string
	IfExists bool // UNSET ... IF EXISTS
}

func (s *AlterViewStmt) String() string {
	out := "ALTER VIEW " + s.View.String()
	switch {
	case s.RenameTo != nil:
		return out + " RENAME TO " + s.RenameTo.String()
	case s.Set != nil:
		return out + " " + SetPropertiesAction{Properties: s.Set}.String()
	}
	return out + " " + UnsetPropertiesAction{Keys: s.Unset, IfExists: s.IfExists}.String()
}

func (*CreateViewStmt) statement()     {}
func (*DropViewStmt) statement()       {}
func (*ShowViewsStmt) statement()      {}
func (*ShowCreateViewStmt) statement() {}
func (*AlterViewStmt) statement()      {}
