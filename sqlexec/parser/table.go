package parser

import (
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// ColumnDef is a column of CREATE TABLE or ALTER TABLE ADD COLUMN. Name
// may be a dotted path (a.b) for a nested column in ALTER TABLE.
type ColumnDef struct {
	Name    string
	Type    iceberg.Type
	NotNull bool
	Comment string
	// First and After place an added column (ALTER TABLE only).
	First bool
	After string
	// PrimaryKey and Unique are the column constraints of CREATE TABLE;
	// CreateTableStmt gathers them.
	PrimaryKey bool
	Unique     bool
}

func (c ColumnDef) String() string {
	s := quotePath(c.Name) + " " + TypeSQL(c.Type)
	if c.NotNull {
		s += " NOT NULL"
	}
	if c.Comment != "" {
		s += " COMMENT " + QuoteString(c.Comment)
	}
	if c.First {
		s += " FIRST"
	}
	if c.After != "" {
		s += " AFTER " + quotePath(c.After)
	}
	return s
}

// PartitionTerm is a partition or sort transform of a source column:
// Transform is "identity", "year", "month", "day", "hour", "bucket",
// "truncate" or "void"; Param is bucket's N or truncate's W.
type PartitionTerm struct {
	Transform string
	Param     int
	Column    string // dotted path to the source column
	Name      string // AS name, "" when absent
}

func (t PartitionTerm) String() string {
	col := quotePath(t.Column)
	var s string
	switch t.Transform {
	case "identity":
		s = col
	case "bucket", "truncate":
		s = t.Transform + "(" + itoa(t.Param) + ", " + col + ")"
	default:
		s = t.Transform + "(" + col + ")"
	}
	if t.Name != "" {
		s += " AS " + QuoteIdent(t.Name)
	}
	return s
}

// IcebergTransform is the transform's name in Iceberg metadata
// ("bucket[16]", "day", "identity").
func (t PartitionTerm) IcebergTransform() string {
	switch t.Transform {
	case "bucket", "truncate":
		return t.Transform + "[" + itoa(t.Param) + "]"
	}
	return t.Transform
}

// CreateTableStmt is CREATE [OR REPLACE] TABLE or REPLACE TABLE.
type CreateTableStmt struct {
	OrReplace   bool
	IfNotExists bool
	Table       *TableRef
	Columns     []ColumnDef // may be empty with AsSelect
	// PrimaryKey names the key columns (column or table form), nil when
	// none: they become the table's identifier fields.
	PrimaryKey []string
	// Unique names the columns of UNIQUE constraints (refused: Iceberg
	// has no unique constraints).
	Unique      []string
	Using       string // provider as written, "" when absent
	PartitionBy []PartitionTerm
	Location    string
	Comment     string
	Properties  []Property
	AsSelect    *Query
	Refs        RefMap
}

func (s *CreateTableStmt) TableRefs() RefMap { return s.Refs }

func (s *CreateTableStmt) String() string {
	var b strings.Builder
	writeCreateHead(&b, s.OrReplace, "TABLE", s.IfNotExists, s.Table)
	if len(s.Columns) > 0 {
		b.WriteString(" (")
		for i, c := range s.Columns {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.String())
		}
		if len(s.PrimaryKey) > 0 {
			b.WriteString(", PRIMARY KEY (" + joinPaths(s.PrimaryKey) + ") NOT ENFORCED")
		}
		if len(s.Unique) > 0 {
			b.WriteString(", UNIQUE (" + joinPaths(s.Unique) + ")")
		}
		b.WriteString(")")
	}
	if s.Using != "" {
		b.WriteString(" USING " + QuoteIdent(s.Using))
	}
	if len(s.PartitionBy) > 0 {
		b.WriteString(" PARTITIONED BY (" + joinTerms(s.PartitionBy) + ")")
	}
	if s.Location != "" {
		b.WriteString(" LOCATION " + QuoteString(s.Location))
	}
	if s.Comment != "" {
		b.WriteString(" COMMENT " + QuoteString(s.Comment))
	}
	if len(s.Properties) > 0 {
		b.WriteString(" TBLPROPERTIES " + printProperties(s.Properties))
	}
	if s.AsSelect != nil {
		b.WriteString(" AS " + s.AsSelect.Text)
	}
	return b.String()
}

// DropTableStmt is DROP TABLE [IF EXISTS] t [PURGE].
type DropTableStmt struct {
	noRefs
	IfExists bool
	Table    *TableRef
	Purge    bool
}

func (s *DropTableStmt) String() string {
	out := "DROP TABLE "
	if s.IfExists {
		out += "IF EXISTS "
	}
	out += s.Table.String()
	if s.Purge {
		out += " PURGE"
	}
	return out
}

// ShowPropertiesStmt is SHOW TBLPROPERTIES t [('key')].
type ShowPropertiesStmt struct {
	noRefs
	Table *TableRef
	Key   string // "" for all
}

func (s *ShowPropertiesStmt) String() string {
	out := "SHOW TBLPROPERTIES " + s.Table.String()
	if s.Key != "" {
		out += " (" + QuoteString(s.Key) + ")"
	}
	return out
}

// ShowCreateTableStmt is SHOW CREATE TABLE t.
type ShowCreateTableStmt struct {
	noRefs
	Table *TableRef
}

func (s *ShowCreateTableStmt) String() string { return "SHOW CREATE TABLE " + s.Table.String() }

// DescribeStmt is DESCRIBE [TABLE] [EXTENDED|FORMATTED] t.
type DescribeStmt struct {
	noRefs
	Table    *TableRef
	Extended bool
}

func (s *DescribeStmt) String() string {
	out := "DESCRIBE TABLE "
	if s.Extended {
		out += "EXTENDED "
	}
	return out + s.Table.String()
}

// writeCreateHead writes "CREATE [OR REPLACE] kind [IF NOT EXISTS] name".
func writeCreateHead(b *strings.Builder, orReplace bool, kind string, ifNotExists bool, name *TableRef) {
	b.WriteString("CREATE ")
	if orReplace {
		b.WriteString("OR REPLACE ")
	}
	b.WriteString(kind + " ")
	if ifNotExists {
		b.WriteString("IF NOT EXISTS ")
	}
	b.WriteString(name.String())
}

func joinTerms(ts []PartitionTerm) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}

// quotePath quotes a dotted column path part by part.
func quotePath(path string) string { return QuoteName(strings.Split(path, ".")) }
