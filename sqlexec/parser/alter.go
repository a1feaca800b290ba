package parser

import (
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// AlterTableStmt is ALTER TABLE t <action>.
type AlterTableStmt struct {
	noRefs
	Table  *TableRef
	Action AlterAction
}

func (s *AlterTableStmt) String() string {
	return "ALTER TABLE " + s.Table.String() + " " + s.Action.String()
}

// AlterAction is one of the *...Action types below.
type AlterAction interface {
	String() string
	alterAction()
}

type (
	SetPropertiesAction   struct{ Properties []Property }
	UnsetPropertiesAction struct {
		IfExists bool
		Keys     []string
	}
	AddColumnsAction  struct{ Columns []ColumnDef }
	DropColumnsAction struct {
		IfExists bool
		Columns  []string // dotted paths
	}
	RenameColumnAction struct{ From, To string }
	// AlterColumnAction changes one column; unset fields are unchanged.
	AlterColumnAction struct {
		Column      string
		Type        iceberg.Type // nil: unchanged
		DropNotNull bool
		SetNotNull  bool
		Comment     *string
		First       bool
		After       string
	}
	AddPartitionFieldAction struct{ Term PartitionTerm }
	// DropPartitionFieldAction names the field by transform; an identity
	// term may also be a partition field name.
	DropPartitionFieldAction    struct{ Term PartitionTerm }
	ReplacePartitionFieldAction struct{ From, To PartitionTerm }
	RenameTableAction           struct{ To *TableRef }
	// CreateRefAction is CREATE [OR REPLACE] | REPLACE BRANCH|TAG.
	CreateRefAction struct {
		Tag         bool // false: branch
		Name        string
		Create      bool // CREATE given (REPLACE alone: false)
		Replace     bool // OR REPLACE or REPLACE
		IfNotExists bool
		AsOfVersion *int64
		// RetainMs is the ref's max age (RETAIN n unit), 0 when absent.
		RetainMs int64
		// Snapshot retention of a branch: 0 when absent.
		MinSnapshotsToKeep int
		MaxSnapshotAgeMs   int64
	}
	DropRefAction struct {
		Tag      bool
		Name     string
		IfExists bool
	}
	// WriteOrderAction is WRITE [LOCALLY] ORDERED BY ..., WRITE
	// DISTRIBUTED BY PARTITION [LOCALLY ORDERED BY ...] or WRITE UNORDERED.
	WriteOrderAction struct {
		DistributedByPartition bool
		Locally                bool
		Unordered              bool
		Fields                 []SortTerm
	}
	// IdentifierFieldsAction is SET or DROP IDENTIFIER FIELDS.
	IdentifierFieldsAction struct {
		Drop    bool
		Columns []string
	}
)

// SortTerm is one field of a write order.
type SortTerm struct {
	Term       PartitionTerm
	Desc       bool
	NullsFirst bool // default: first for ASC, last for DESC
}

func (t SortTerm) String() string {
	s := t.Term.String()
	if t.Desc {
		s += " DESC"
	} else {
		s += " ASC"
	}
	if t.NullsFirst {
		return s + " NULLS FIRST"
	}
	return s + " NULLS LAST"
}

func (SetPropertiesAction) alterAction()         {}
func (UnsetPropertiesAction) alterAction()       {}
func (AddColumnsAction) alterAction()            {}
func (DropColumnsAction) alterAction()           {}
func (RenameColumnAction) alterAction()          {}
func (AlterColumnAction) alterAction()           {}
func (AddPartitionFieldAction) alterAction()     {}
func (DropPartitionFieldAction) alterAction()    {}
func (ReplacePartitionFieldAction) alterAction() {}
func (RenameTableAction) alterAction()           {}
func (CreateRefAction) alterAction()             {}
func (DropRefAction) alterAction()               {}
func (WriteOrderAction) alterAction()            {}
func (IdentifierFieldsAction) alterAction()      {}

func (a SetPropertiesAction) String() string {
	return "SET TBLPROPERTIES " + printProperties(a.Properties)
}

func (a UnsetPropertiesAction) String() string {
	s := "UNSET TBLPROPERTIES "
	if a.IfExists {
		s += "IF EXISTS "
	}
	q := make([]string, len(a.Keys))
	for i, k := range a.Keys {
		q[i] = QuoteString(k)
	}
	return s + "(" + strings.Join(q, ", ") + ")"
}

func (a AddColumnsAction) String() string {
	q := make([]string, len(a.Columns))
	for i, c := range a.Columns {
		q[i] = c.String()
	}
	return "ADD COLUMNS (" + strings.Join(q, ", ") + ")"
}

func (a DropColumnsAction) String() string {
	s := "DROP COLUMNS "
	if a.IfExists {
		s += "IF EXISTS "
	}
	return s + "(" + joinPaths(a.Columns) + ")"
}

func (a RenameColumnAction) String() string {
	return "RENAME COLUMN " + quotePath(a.From) + " TO " + QuoteIdent(a.To)
}

func (a AlterColumnAction) String() string {
	s := "ALTER COLUMN " + quotePath(a.Column)
	switch {
	case a.Type != nil:
		s += " TYPE " + TypeSQL(a.Type)
	case a.DropNotNull:
		s += " DROP NOT NULL"
	case a.SetNotNull:
		s += " SET NOT NULL"
	case a.Comment != nil:
		s += " COMMENT " + QuoteString(*a.Comment)
	case a.First:
		s += " FIRST"
	case a.After != "":
		s += " AFTER " + quotePath(a.After)
	}
	return s
}

func (a AddPartitionFieldAction) String() string  { return "ADD PARTITION FIELD " + a.Term.String() }
func (a DropPartitionFieldAction) String() string { return "DROP PARTITION FIELD " + a.Term.String() }
func (a ReplacePartitionFieldAction) String() string {
	return "REPLACE PARTITION FIELD " + a.From.String() + " WITH " + a.To.String()
}
func (a RenameTableAction) String() string { return "RENAME TO " + a.To.String() }

func refKind(tag bool) string {
	if tag {
		return "TAG"
	}
	return "BRANCH"
}

func (a CreateRefAction) String() string {
	var b strings.Builder
	switch {
	case a.Create && a.Replace:
		b.WriteString("CREATE OR REPLACE ")
	case a.Create:
		b.WriteString("CREATE ")
	default:
		b.WriteString("REPLACE ")
	}
	b.WriteString(refKind(a.Tag) + " ")
	if a.IfNotExists {
		b.WriteString("IF NOT EXISTS ")
	}
	b.WriteString(QuoteIdent(a.Name))
	if a.AsOfVersion != nil {
		b.WriteString(" AS OF VERSION " + i64toa(*a.AsOfVersion))
	}
	if a.RetainMs > 0 {
		b.WriteString(" RETAIN " + printDuration(a.RetainMs))
	}
	if a.MinSnapshotsToKeep > 0 || a.MaxSnapshotAgeMs > 0 {
		b.WriteString(" WITH SNAPSHOT RETENTION")
		if a.MinSnapshotsToKeep > 0 {
			b.WriteString(" " + itoa(a.MinSnapshotsToKeep) + " SNAPSHOTS")
		}
		if a.MaxSnapshotAgeMs > 0 {
			b.WriteString(" " + printDuration(a.MaxSnapshotAgeMs))
		}
	}
	return b.String()
}

func (a DropRefAction) String() string {
	s := "DROP " + refKind(a.Tag) + " "
	if a.IfExists {
		s += "IF EXISTS "
	}
	return s + QuoteIdent(a.Name)
}

func (a WriteOrderAction) String() string {
	if a.Unordered {
		return "WRITE UNORDERED"
	}
	s := "WRITE"
	if a.DistributedByPartition {
		s += " DISTRIBUTED BY PARTITION"
	}
	if len(a.Fields) == 0 {
		return s
	}
	if a.Locally {
		s += " LOCALLY"
	}
	q := make([]string, len(a.Fields))
	for i, f := range a.Fields {
		q[i] = f.String()
	}
	return s + " ORDERED BY " + strings.Join(q, ", ")
}

func (a IdentifierFieldsAction) String() string {
	if a.Drop {
		return "DROP IDENTIFIER FIELDS " + joinPaths(a.Columns)
	}
	return "SET IDENTIFIER FIELDS " + joinPaths(a.Columns)
}

func joinPaths(paths []string) string {
	q := make([]string, len(paths))
	for i, c := range paths {
		q[i] = quotePath(c)
	}
	return strings.Join(q, ", ")
}

var durationUnits = []struct {
	name string
	ms   int64
}{{"DAYS", 86_400_000}, {"HOURS", 3_600_000}, {"MINUTES", 60_000}}

func printDuration(ms int64) string {
	for _, u := range durationUnits {
		if ms%u.ms == 0 {
			return i64toa(ms/u.ms) + " " + u.name
		}
	}
	return i64toa(ms/60_000) + " MINUTES"
}
