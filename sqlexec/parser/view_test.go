package parser

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseViewStatements(t *testing.T) {
	cases := []struct {
		sql   string
		check func(t *testing.T, st Statement)
		print string
	}{
		{
			sql: "CREATE OR REPLACE VIEW db.v (a COMMENT 'first', b) COMMENT 'c' TBLPROPERTIES ('k' = 'v') AS SELECT x, y FROM t WHERE x > 1",
			check: func(t *testing.T, st Statement) {
				s := st.(*CreateViewStmt)
				if !s.OrReplace || s.IfNotExists || s.View.String() != "db.v" || s.Comment != "c" ||
					!reflect.DeepEqual(s.Columns, []ViewColumn{{"a", "first"}, {"b", ""}}) ||
					!reflect.DeepEqual(s.Properties, []Property{{"k", "v"}}) {
					t.Fatalf("%+v", s)
				}
				if s.Query.Text != "SELECT x, y FROM t WHERE x > 1" || len(s.Refs) != 1 {
					t.Fatalf("query %q, refs %v", s.Query.Text, s.Refs)
				}
			},
			print: "CREATE OR REPLACE VIEW db.v (a COMMENT 'first', b) COMMENT 'c' TBLPROPERTIES ('k' = 'v') AS SELECT x, y FROM t WHERE x > 1",
		},
		{
			sql: "create view if not exists v as\n  select 1",
			check: func(t *testing.T, st Statement) {
				s := st.(*CreateViewStmt)
				if !s.IfNotExists || s.View.Table != "v" || s.Query.Text != "select 1" {
					t.Fatalf("%+v", s)
				}
			},
			print: "CREATE VIEW IF NOT EXISTS v AS select 1",
		},
		{
			sql: "ALTER VIEW v AS SELECT * FROM ns.t.snapshots",
			check: func(t *testing.T, st Statement) {
				s := st.(*CreateViewStmt)
				if !s.Alter || len(s.Refs) != 1 {
					t.Fatalf("%+v", s)
				}
			},
			print: "ALTER VIEW v AS SELECT * FROM ns.t.snapshots",
		},
		{sql: "DROP VIEW IF EXISTS a.b", print: "DROP VIEW IF EXISTS a.b"},
		{sql: "SHOW VIEWS IN db LIKE 'v*'", print: "SHOW VIEWS IN db LIKE 'v*'"},
		{sql: "show views", print: "SHOW VIEWS"},
		{sql: "SHOW CREATE VIEW db.v", print: "SHOW CREATE VIEW db.v"},
		{sql: "ALTER VIEW db.v RENAME TO db.w", print: "ALTER VIEW db.v RENAME TO db.w"},
		{sql: "ALTER VIEW v SET TBLPROPERTIES ('a' = '1')", print: "ALTER VIEW v SET TBLPROPERTIES ('a' = '1')"},
		{sql: "ALTER VIEW v UNSET TBLPROPERTIES IF EXISTS ('a', b.c)", print: "ALTER VIEW v UNSET TBLPROPERTIES IF EXISTS ('a', 'b.c')"},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			st, err := ParseOne(c.sql)
			if err != nil {
				t.Fatal(err)
			}
			if c.check != nil {
				c.check(t, st)
			}
			if got := st.String(); got != c.print {
				t.Fatalf("String() = %q, want %q", got, c.print)
			}
			again, err := ParseOne(st.String())
			if err != nil || again.String() != st.String() {
				t.Fatalf("reparse: %v, %q", err, again)
			}
		})
	}
}

func TestParseViewErrors(t *testing.T) {
	for _, sql := range []string{
		"CREATE TEMPORARY VIEW v AS SELECT 1",
		"CREATE OR REPLACE GLOBAL TEMPORARY VIEW v AS SELECT 1",
		"CREATE OR REPLACE VIEW IF NOT EXISTS v AS SELECT 1",
		"CREATE VIEW v",
		"CREATE VIEW v AS",
		"CREATE VIEW v AS DELETE FROM t",
		"CREATE VIEW v COMMENT 'a' COMMENT 'b' AS SELECT 1",
		"CREATE VIEW v (a, ) AS SELECT 1",
		"DROP VIEW",
		"ALTER VIEW v DROP COLUMN a",
		"ALTER VIEW v UNSET TBLPROPERTIES ('a'",
		"SHOW VIEWS IN",
	} {
		t.Run(sql, func(t *testing.T) {
			if _, err := Parse(sql); !errors.Is(err, ErrSyntax) {
				t.Fatalf("err = %v, want ErrSyntax", err)
			}
		})
	}
}

func FuzzParseView(f *testing.F) {
	for _, s := range []string{
		"CREATE OR REPLACE VIEW db.v (a COMMENT 'x', b) COMMENT 'c' TBLPROPERTIES ('k' = 'v') AS SELECT x, y FROM t",
		"ALTER VIEW v AS SELECT * FROM ns.t.snapshots", "ALTER VIEW v UNSET TBLPROPERTIES IF EXISTS ('a', b.c)",
		"DROP VIEW IF EXISTS a.b", "SHOW VIEWS IN db LIKE 'v*'", "SHOW CREATE VIEW v", "ALTER VIEW v RENAME TO w",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		stmts, err := Parse(sql)
		if err != nil {
			return
		}
		for _, st := range stmts {
			switch st.(type) {
			case *CreateViewStmt, *DropViewStmt, *ShowViewsStmt, *ShowCreateViewStmt, *AlterViewStmt:
				again, err := Parse(st.String())
				if err != nil || len(again) != 1 || again[0].String() != st.String() {
					t.Fatalf("%q prints as %q, which parses back as %v (%v)", sql, st.String(), again, err)
				}
			}
		}
	})
}
