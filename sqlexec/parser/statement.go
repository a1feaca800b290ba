package parser

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
)

// Statement is one parsed statement: a *TiDBStmt for what TiDB parses
// natively, or one of the extension statement types of this package.
// String prints canonical SQL that parses back to an equal statement.
type Statement interface {
	String() string
	// TableRefs maps every *ast.TableName inside the statement's TiDB
	// subtrees to its TableRef.
	TableRefs() RefMap
	statement()
}

// TiDBStmt is a statement parsed by TiDB. Text is the statement as
// written; Node may contain rewritten table names, which Refs resolves.
type TiDBStmt struct {
	Node ast.StmtNode
	Text string
	Refs RefMap
}

func (s *TiDBStmt) String() string    { return s.Text }
func (s *TiDBStmt) TableRefs() RefMap { return s.Refs }

func (*TiDBStmt) statement()            {}
func (*CreateNamespaceStmt) statement() {}
func (*DropNamespaceStmt) statement()   {}
func (*ShowNamespacesStmt) statement()  {}
func (*ShowTablesStmt) statement()      {}
func (*UseStmt) statement()             {}
func (*CreateTableStmt) statement()     {}
func (*DropTableStmt) statement()       {}
func (*AlterTableStmt) statement()      {}
func (*ShowPropertiesStmt) statement()  {}
func (*ShowCreateTableStmt) statement() {}
func (*DescribeStmt) statement()        {}
func (*InsertOverwriteStmt) statement() {}
func (*MergeStmt) statement()           {}
func (*CallStmt) statement()            {}
func (*ExplainStmt) statement()         {}

// noRefs is embedded by statements without TiDB subtrees.
type noRefs struct{}

func (noRefs) TableRefs() RefMap { return nil }

func itoa(n int) string { return strconv.Itoa(n) }

// restore prints a TiDB node as SQL.
func restore(n ast.Node) string {
	var b strings.Builder
	if err := n.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &b)); err != nil {
		return "?"
	}
	return b.String()
}
