package parser

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// InsertOverwriteStmt is INSERT OVERWRITE [TABLE] t [PARTITION (...)]
// [(cols)] query. Insert is the statement as TiDB parses
// `INSERT INTO t [(cols)] query`: its Table is a placeholder that Refs
// maps to Table, and its Columns, Select or Lists are the source.
type InsertOverwriteStmt struct {
	Table     *TableRef
	Partition []PartitionValue
	Insert    *ast.InsertStmt
	// SourceText is everything after the PARTITION clause, as written.
	SourceText string
	Refs       RefMap
}

// PartitionValue is k = v (static) or k alone (dynamic, Value nil).
type PartitionValue struct {
	Column string
	Value  *Expr
}

func (s *InsertOverwriteStmt) TableRefs() RefMap { return s.Refs }

func (s *InsertOverwriteStmt) String() string {
	out := "INSERT OVERWRITE TABLE " + s.Table.String()
	if len(s.Partition) > 0 {
		q := make([]string, len(s.Partition))
		for i, pv := range s.Partition {
			q[i] = QuoteIdent(pv.Column)
			if pv.Value != nil {
				q[i] += " = " + pv.Value.Text
			}
		}
		out += " PARTITION (" + strings.Join(q, ", ") + ")"
	}
	return out + " " + s.SourceText
}

// MergeStmt is MERGE INTO target USING source ON cond WHEN ....
type MergeStmt struct {
	Target      *TableRef
	TargetAlias string
	// Exactly one of SourceTable and SourceQuery is set.
	SourceTable *TableRef
	SourceQuery *Query
	SourceAlias string
	On          *Expr
	Clauses     []MergeClause
	Refs        RefMap
}

// MergeMatch says which rows a WHEN clause applies to.
type MergeMatch int

const (
	Matched MergeMatch = iota
	NotMatched
	NotMatchedBySource
)

// MergeActionKind is what a WHEN clause does.
type MergeActionKind int

const (
	MergeUpdate MergeActionKind = iota
	MergeUpdateStar
	MergeDelete
	MergeInsert
	MergeInsertStar
)

// MergeClause is one WHEN clause.
type MergeClause struct {
	Match  MergeMatch
	Cond   *Expr // AND condition, nil when absent
	Action MergeActionKind
	Set    []Assignment // MergeUpdate
	// InsertColumns may be empty (all columns in order) for MergeInsert.
	InsertColumns []string
	InsertValues  []*Expr
}

// Assignment is column = value; Column may be qualified (t.a).
type Assignment struct {
	Column []string
	Value  *Expr
}

func (s *MergeStmt) TableRefs() RefMap { return s.Refs }

func (s *MergeStmt) String() string {
	var b strings.Builder
	b.WriteString("MERGE INTO " + s.Target.String())
	if s.TargetAlias != "" {
		b.WriteString(" AS " + QuoteIdent(s.TargetAlias))
	}
	b.WriteString(" USING ")
	if s.SourceQuery != nil {
		b.WriteString("(" + s.SourceQuery.Text + ")")
	} else {
		b.WriteString(s.SourceTable.String())
	}
	if s.SourceAlias != "" {
		b.WriteString(" AS " + QuoteIdent(s.SourceAlias))
	}
	b.WriteString(" ON " + s.On.Text)
	for _, c := range s.Clauses {
		b.WriteString(" " + c.String())
	}
	return b.String()
}

func (c MergeClause) String() string {
	var b strings.Builder
	switch c.Match {
	case Matched:
		b.WriteString("WHEN MATCHED")
	case NotMatched:
		b.WriteString("WHEN NOT MATCHED")
	case NotMatchedBySource:
		b.WriteString("WHEN NOT MATCHED BY SOURCE")
	}
	if c.Cond != nil {
		b.WriteString(" AND " + c.Cond.Text)
	}
	b.WriteString(" THEN ")
	switch c.Action {
	case MergeUpdate:
		b.WriteString("UPDATE SET ")
		for i, a := range c.Set {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteName(a.Column) + " = " + a.Value.Text)
		}
	case MergeUpdateStar:
		b.WriteString("UPDATE SET *")
	case MergeDelete:
		b.WriteString("DELETE")
	case MergeInsertStar:
		b.WriteString("INSERT *")
	case MergeInsert:
		b.WriteString("INSERT ")
		if len(c.InsertColumns) > 0 {
			q := make([]string, len(c.InsertColumns))
			for i, col := range c.InsertColumns {
				q[i] = QuoteIdent(col)
			}
			b.WriteString("(" + strings.Join(q, ", ") + ") ")
		}
		q := make([]string, len(c.InsertValues))
		for i, v := range c.InsertValues {
			q[i] = v.Text
		}
		b.WriteString("VALUES (" + strings.Join(q, ", ") + ")")
	}
	return b.String()
}

// CallStmt is CALL [catalog.]system.proc(args).
type CallStmt struct {
	// Name is the procedure name as written (e.g. ["system", "expire_snapshots"]).
	Name []string
	Args []CallArg
	Refs RefMap
}

// Procedure is the last part of the name, lower-cased.
func (s *CallStmt) Procedure() string { return strings.ToLower(s.Name[len(s.Name)-1]) }

// CallArg is a named (name => value) or positional (Name "") argument.
type CallArg struct {
	Name  string
	Value *Expr
}

func (s *CallStmt) TableRefs() RefMap { return s.Refs }

func (s *CallStmt) String() string {
	q := make([]string, len(s.Args))
	for i, a := range s.Args {
		q[i] = a.Value.Text
		if a.Name != "" {
			q[i] = QuoteIdent(a.Name) + " => " + q[i]
		}
	}
	return "CALL " + QuoteName(s.Name) + "(" + strings.Join(q, ", ") + ")"
}

// ExplainStmt is EXPLAIN [ANALYZE] stmt (also DESCRIBE stmt), or with
// Postgres's option list EXPLAIN (ANALYZE, TIMING OFF, ...) stmt.
type ExplainStmt struct {
	Analyze bool
	// NoTiming, NoSummary and NoBuffers leave out of EXPLAIN ANALYZE
	// the operators' times, the total planning and execution times, and
	// the bytes read (TIMING OFF, SUMMARY OFF, BUFFERS OFF).
	NoTiming, NoSummary, NoBuffers bool
	Stmt                           Statement
}

func (s *ExplainStmt) TableRefs() RefMap { return s.Stmt.TableRefs() }

func (s *ExplainStmt) String() string {
	if s.NoTiming || s.NoSummary || s.NoBuffers {
		opts := []string{"ANALYZE"}
		for _, o := range []struct {
			off  bool
			name string
		}{{s.NoTiming, "TIMING"}, {s.NoSummary, "SUMMARY"}, {s.NoBuffers, "BUFFERS"}} {
			if o.off {
				opts = append(opts, o.name+" OFF")
			}
		}
		return "EXPLAIN (" + strings.Join(opts, ", ") + ") " + s.Stmt.String()
	}
	if s.Analyze {
		return "EXPLAIN ANALYZE " + s.Stmt.String()
	}
	return "EXPLAIN " + s.Stmt.String()
}
