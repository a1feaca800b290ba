package parser

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

func fmtType(v any) string { return fmt.Sprintf("%T", v) }

// refSummary is the comparable part of a TableRef.
type refSummary struct {
	Catalog, Table, Meta, Branch, Tag string
	NS                                string
	Version                           any
	Timestamp                         string
}

func summarize(r *TableRef) refSummary {
	return refSummary{r.Catalog, r.Table, r.MetadataTable, r.Branch, r.Tag, fmt.Sprint(r.Namespace), r.VersionAsOf, r.TimestampText}
}

func TestTableRefs(t *testing.T) {
	opts := Options{Catalogs: []string{"prod"}}
	tests := []struct {
		in   string
		want []refSummary
	}{
		{"select * from ns.t.snapshots", []refSummary{{Table: "t", NS: "[ns]", Meta: "snapshots"}}},
		{"select * from t.history", []refSummary{{Table: "t", NS: "[]", Meta: "history"}}},
		{"select * from `t$files`", []refSummary{{Table: "t", NS: "[]", Meta: "files"}}},
		{"select * from prod.db.t", []refSummary{{Catalog: "prod", Table: "t", NS: "[db]"}}},
		{"select * from a.b.t", []refSummary{{Table: "t", NS: "[a b]"}}},
		{"select * from db.t.branch_audit", []refSummary{{Table: "t", NS: "[db]", Branch: "audit"}}},
		{"select * from t.tag_v1", []refSummary{{Table: "t", NS: "[]", Tag: "v1"}}},
		{"select * from t VERSION AS OF 123 AS a", []refSummary{{Table: "t", NS: "[]", Version: int64(123)}}},
		{"select * from t version as of 'audit'", []refSummary{{Table: "t", NS: "[]", Version: "audit"}}},
		{"select * from t FOR SYSTEM_VERSION AS OF 7", []refSummary{{Table: "t", NS: "[]", Version: int64(7)}}},
		{"select * from t TIMESTAMP AS OF '2026-01-01 00:00:00' a", []refSummary{{Table: "t", NS: "[]", Timestamp: "'2026-01-01 00:00:00'"}}},
		{"select * from t FOR SYSTEM_TIME AS OF (now() - interval 1 day)", []refSummary{{Table: "t", NS: "[]", Timestamp: "(now() - interval 1 day)"}}},
		{"select * from t as of timestamp '2026-01-01'", []refSummary{{Table: "t", NS: "[]", Timestamp: "_UTF8MB4'2026-01-01'"}}},
		{"insert into db.t.branch_audit values (1)", []refSummary{{Table: "t", NS: "[db]", Branch: "audit"}}},
		{"update db.t.branch_x set a = 1", []refSummary{{Table: "t", NS: "[db]", Branch: "x"}}},
		{"select * from a, b.c.d join e.f.g on 1 = 1", []refSummary{
			{Table: "a", NS: "[]"}, {Table: "d", NS: "[b c]"}, {Table: "g", NS: "[e f]"}}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			sts, err := ParseWith(tc.in, opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []refSummary
			ast.Node(sts[0].(*TiDBStmt).Node).Accept(&tableNames{fn: func(n *ast.TableName) {
				r, ok := sts[0].TableRefs()[n]
				if !ok {
					t.Fatalf("table name %s has no ref", n.Name.O)
				}
				got = append(got, summarize(r))
			}})
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestRewrittenAlias checks a rewritten table keeps its written name for
// qualified columns.
func TestRewrittenAlias(t *testing.T) {
	st := mustParseOne(t, "select snapshots.snapshot_id from db.t.snapshots").(*TiDBStmt)
	sel := st.Node.(*ast.SelectStmt)
	ts := sel.From.TableRefs.Left.(*ast.TableSource)
	if ts.AsName.O != "snapshots" {
		t.Fatalf("alias %q, want snapshots", ts.AsName.O)
	}
}

// TestUserPlaceholderName checks a user's table named like a placeholder
// is not taken for one.
func TestUserPlaceholderName(t *testing.T) {
	st := mustParseOne(t, "select * from __icesql_ref_0, a.b.c").(*TiDBStmt)
	var names []string
	st.Node.Accept(&tableNames{fn: func(n *ast.TableName) {
		names = append(names, st.Refs[n].Table)
	}})
	if !reflect.DeepEqual(names, []string{"__icesql_ref_0", "c"}) {
		t.Fatalf("got %v", names)
	}
}

func TestMergeStructure(t *testing.T) {
	st := mustParseOne(t, "merge into db.t t using db.s.branch_b s on t.id = s.id when matched and s.d then delete when matched then update set t.v = s.v, w = (select max(x) from a.b.c) when not matched then insert (id) values (s.id)").(*MergeStmt)
	if st.SourceTable == nil || st.SourceTable.Branch != "b" || st.SourceAlias != "s" || st.TargetAlias != "t" {
		t.Fatalf("source %+v alias %q/%q", st.SourceTable, st.SourceAlias, st.TargetAlias)
	}
	if len(st.Clauses) != 3 || st.Clauses[0].Action != MergeDelete || st.Clauses[1].Action != MergeUpdate || st.Clauses[2].Action != MergeInsert {
		t.Fatalf("clauses %+v", st.Clauses)
	}
	if len(st.Clauses[1].Set) != 2 || st.Clauses[1].Set[0].Value.Node == nil {
		t.Fatalf("set %+v", st.Clauses[1].Set)
	}
	if len(st.Refs) != 1 {
		t.Fatalf("refs of the subquery: %d, want 1", len(st.Refs))
	}
}

func TestCallArgs(t *testing.T) {
	st := mustParseOne(t, "CALL prod.system.expire_snapshots(table => 'db.t', older_than => TIMESTAMP '2026-01-01 00:00:00', retain_last => 5)").(*CallStmt)
	if st.Procedure() != "expire_snapshots" || len(st.Args) != 3 || st.Args[2].Name != "retain_last" {
		t.Fatalf("%+v", st)
	}
	if _, ok := st.Args[0].Value.Node.(ast.ValueExpr); !ok {
		t.Fatalf("arg 0 is %T", st.Args[0].Value.Node)
	}
}

type tableNames struct{ fn func(*ast.TableName) }

func (v *tableNames) Enter(n ast.Node) (ast.Node, bool) {
	if tn, ok := n.(*ast.TableName); ok {
		v.fn(tn)
	}
	return n, false
}
func (v *tableNames) Leave(n ast.Node) (ast.Node, bool) { return n, true }
