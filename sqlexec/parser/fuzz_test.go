package parser

import "testing"

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"select * from ns.t.snapshots version as of 1",
		"create table t (a map<string, array<struct<x: int>>>) partitioned by (bucket(4, a))",
		"merge into t using (select 1) s on a = b when matched then update set a = case when 1 then 2 end",
		"call system.p(a => 1)", "alter table t create branch b retain 1 days",
		"insert overwrite t partition (a = 1) values (1)", "select 'a''b' -- x\n;",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		stmts, err := Parse(sql)
		if err != nil {
			return
		}
		for _, st := range stmts {
			_ = st.String()
		}
	})
}
