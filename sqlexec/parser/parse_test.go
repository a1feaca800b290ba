package parser

import (
	"errors"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// TestCanonicalString checks each form's canonical text and that the text
// parses back to itself.
func TestCanonicalString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"create namespace if not exists a.b comment 'c' with dbproperties ('k'='v')", "CREATE NAMESPACE IF NOT EXISTS a.b COMMENT 'c' WITH DBPROPERTIES ('k' = 'v')"},
		{"CREATE DATABASE db", "CREATE NAMESPACE db"},
		{"copy (select a from t where s = ')') to 'o''s.csv' with (format csv, header false, delimiter '|')", "COPY (select a from t where s = ')') TO 'o''s.csv' (FORMAT csv, HEADER false, DELIMITER '|')"},
		{"COPY ns.t TO 'x.txt' WITH CSV HEADER NULL 'NA'", "COPY ns.t TO 'x.txt' (FORMAT csv, HEADER, NULL 'NA')"},
		{"COPY t TO 'x.parquet' (OVERWRITE)", "COPY t TO 'x.parquet' (OVERWRITE)"},
		{"create schema `my db`", "CREATE NAMESPACE `my db`"},
		{"DROP SCHEMA IF EXISTS db CASCADE", "DROP NAMESPACE IF EXISTS db CASCADE"},
		{"show databases", "SHOW NAMESPACES"},
		{"SHOW NAMESPACES IN a", "SHOW NAMESPACES IN a"},
		{"show tables from db like 't%'", "SHOW TABLES IN db LIKE 't%'"},
		{"use a.b", "USE a.b"},
		{"create table t (a int) using iceberg", "CREATE TABLE t (a INT) USING iceberg"},
		{"CREATE TABLE IF NOT EXISTS ns.t (id bigint not null comment 'id', s varchar(10), c char(2), x text, y long, f real, d double, n numeric, m decimal(38, 9), b bool, dt date, tm time, ts timestamp, tn timestamp_ntz, tl timestamp_ltz, bin varbinary(3), bl blob, u uuid, fx fixed(16), arr array<int>, mp map<string, array<bigint>>, st struct<a: int, b string not null comment 'b'>)",
			"CREATE TABLE IF NOT EXISTS ns.t (id BIGINT NOT NULL COMMENT 'id', s STRING, c STRING, x STRING, y BIGINT, f FLOAT, d DOUBLE, n DECIMAL(10, 0), m DECIMAL(38, 9), b BOOLEAN, dt DATE, tm TIME, ts TIMESTAMP, tn TIMESTAMP_NTZ, tl TIMESTAMP, bin BINARY, bl BINARY, u UUID, fx FIXED(16), arr ARRAY<INT>, mp MAP<STRING, ARRAY<BIGINT>>, st STRUCT<a: INT, b: STRING NOT NULL COMMENT 'b'>)"},
		{"CREATE TABLE t (ts timestamp, id int, s string) PARTITIONED BY (years(ts), month(ts), days(ts), hours(ts), bucket(16, id), truncate(4, s), s) LOCATION '/x' COMMENT 'c' TBLPROPERTIES ('format-version'='2', write.format.default = 'parquet')",
			"CREATE TABLE t (ts TIMESTAMP, id INT, s STRING) PARTITIONED BY (year(ts), month(ts), day(ts), hour(ts), bucket(16, id), truncate(4, s), s) LOCATION '/x' COMMENT 'c' TBLPROPERTIES ('format-version' = '2', 'write.format.default' = 'parquet')"},
		{"create or replace table t using iceberg as select * from a.b.c", "CREATE OR REPLACE TABLE t USING iceberg AS select * from a.b.c"},
		{"drop table if exists ns.t purge", "DROP TABLE IF EXISTS ns.t PURGE"},
		{"alter table t set tblproperties ('k'='v', 'n' = 1)", "ALTER TABLE t SET TBLPROPERTIES ('k' = 'v', 'n' = '1')"},
		{"ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('k', 'j')", "ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('k', 'j')"},
		{"alter table t add column c int comment 'x'", "ALTER TABLE t ADD COLUMNS (c INT COMMENT 'x')"},
		{"alter table t add columns (a int, p.z double after y)", "ALTER TABLE t ADD COLUMNS (a INT, p.z DOUBLE AFTER y)"},
		{"alter table t drop column c", "ALTER TABLE t DROP COLUMNS (c)"},
		{"alter table t rename column a to b", "ALTER TABLE t RENAME COLUMN a TO b"},
		{"alter table t alter column c type bigint", "ALTER TABLE t ALTER COLUMN c TYPE BIGINT"},
		{"alter table t alter column c drop not null", "ALTER TABLE t ALTER COLUMN c DROP NOT NULL"},
		{"alter table t add partition field days(ts) as d", "ALTER TABLE t ADD PARTITION FIELD day(ts) AS d"},
		{"alter table t drop partition field bucket(16, id)", "ALTER TABLE t DROP PARTITION FIELD bucket(16, id)"},
		{"alter table t replace partition field d with hours(ts)", "ALTER TABLE t REPLACE PARTITION FIELD d WITH hour(ts)"},
		{"alter table ns.t rename to ns.t2", "ALTER TABLE ns.t RENAME TO ns.t2"},
		{"ALTER TABLE t CREATE BRANCH IF NOT EXISTS b AS OF VERSION 3 RETAIN 7 DAYS WITH SNAPSHOT RETENTION 2 SNAPSHOTS 3 HOURS", "ALTER TABLE t CREATE BRANCH IF NOT EXISTS b AS OF VERSION 3 RETAIN 7 DAYS WITH SNAPSHOT RETENTION 2 SNAPSHOTS 3 HOURS"},
		{"alter table t create or replace tag v1 retain 30 minutes", "ALTER TABLE t CREATE OR REPLACE TAG v1 RETAIN 30 MINUTES"},
		{"alter table t replace branch b as of version 5", "ALTER TABLE t REPLACE BRANCH b AS OF VERSION 5"},
		{"alter table t drop tag if exists v1", "ALTER TABLE t DROP TAG IF EXISTS v1"},
		{"alter table t write ordered by a, bucket(4, b) desc nulls first", "ALTER TABLE t WRITE ORDERED BY a ASC NULLS FIRST, bucket(4, b) DESC NULLS FIRST"},
		{"alter table t write distributed by partition locally ordered by a", "ALTER TABLE t WRITE DISTRIBUTED BY PARTITION LOCALLY ORDERED BY a ASC NULLS FIRST"},
		{"alter table t set identifier fields id, p.q", "ALTER TABLE t SET IDENTIFIER FIELDS id, p.q"},
		{"show tblproperties t ('k')", "SHOW TBLPROPERTIES t ('k')"},
		{"describe extended ns.t", "DESCRIBE TABLE EXTENDED ns.t"},
		{"desc table t", "DESCRIBE TABLE t"},
		{"show create table ns.t", "SHOW CREATE TABLE ns.t"},
		{"insert overwrite t partition (d = '2026-01-01', h) select * from s", "INSERT OVERWRITE TABLE t PARTITION (d = '2026-01-01', h) select * from s"},
		{"merge into t using s on t.id = s.id when matched then update set * when not matched then insert *", "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"},
		{"MERGE INTO db.t AS x USING (SELECT * FROM u) y ON x.id = y.id WHEN MATCHED AND y.op = 'd' THEN DELETE WHEN NOT MATCHED BY TARGET AND y.v > 0 THEN INSERT (id, v) VALUES (y.id, y.v) WHEN NOT MATCHED BY SOURCE THEN UPDATE SET v = 0",
			"MERGE INTO db.t AS x USING (SELECT * FROM u) AS y ON x.id = y.id WHEN MATCHED AND y.op = 'd' THEN DELETE WHEN NOT MATCHED AND y.v > 0 THEN INSERT (id, v) VALUES (y.id, y.v) WHEN NOT MATCHED BY SOURCE THEN UPDATE SET v = 0"},
		{"call system.rollback_to_snapshot('db.t', 1)", "CALL system.rollback_to_snapshot('db.t', 1)"},
		{"CALL cat.system.expire_snapshots(table => 'db.t', retain_last => 5)", "CALL cat.system.expire_snapshots(`table` => 'db.t', retain_last => 5)"},
		{"explain select 1", "EXPLAIN select 1"},
		{"explain analyze merge into t using s on a = b when matched then delete", "EXPLAIN ANALYZE MERGE INTO t USING s ON a = b WHEN MATCHED THEN DELETE"},
		{"explain (analyze, timing off, summary false, buffers 0) select 1", "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF, BUFFERS OFF) select 1"},
		{"explain (analyze on, timing on, costs off) select 1", "EXPLAIN ANALYZE select 1"},
		{"explain (verbose) select 1", "EXPLAIN select 1"},
		{"explain (select 1)", "EXPLAIN (select 1)"},
		{"select * from t version as of 1 a", "select * from t version as of 1 a"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			st := mustParseOne(t, tc.in)
			if got := st.String(); got != tc.want {
				t.Fatalf("String()\n got %s\nwant %s", got, tc.want)
			}
			again := mustParseOne(t, tc.want)
			if again.String() != tc.want {
				t.Fatalf("round trip changed the text: %s", again.String())
			}
		})
	}
}

func mustParseOne(t *testing.T, sql string) Statement {
	t.Helper()
	st, err := ParseOne(sql)
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	return st
}

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"select 1; select 2;", 2},
		{"select ';'; select `a;b` from t -- c;\n; /* ; */ select \"x;\"", 3},
		{";;", 0},
		{"# only a comment", 0},
		{"select 1 # ;\n", 1},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			st, err := Parse(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if len(st) != tc.want {
				t.Fatalf("got %d statements, want %d", len(st), tc.want)
			}
		})
	}
}

func TestTiDBPassThrough(t *testing.T) {
	tests := []struct {
		in   string
		node any
	}{
		{"BEGIN", &ast.BeginStmt{}},
		{"start transaction", &ast.BeginStmt{}},
		{"COMMIT", &ast.CommitStmt{}},
		{"rollback", &ast.RollbackStmt{}},
		{"LOAD DATA LOCAL INFILE 'f.csv' INTO TABLE t FIELDS TERMINATED BY ',' IGNORE 1 LINES", &ast.LoadDataStmt{}},
		{"insert into t (a, b) values (1, 2)", &ast.InsertStmt{}},
		{"insert into t select * from u", &ast.InsertStmt{}},
		{"update t set a = 1", &ast.UpdateStmt{}},
		{"delete from t where a = 1", &ast.DeleteStmt{}},
		{"select a from t union all select b from u", &ast.SetOprStmt{}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			st, ok := mustParseOne(t, tc.in).(*TiDBStmt)
			if !ok {
				t.Fatalf("not a TiDB statement")
			}
			if got, want := typeName(st.Node), typeName(tc.node); got != want {
				t.Fatalf("node %s, want %s", got, want)
			}
		})
	}
}

func typeName(v any) string {
	return fmtType(v)
}

func TestColumnTypes(t *testing.T) {
	st := mustParseOne(t, "create table t (a map<string, struct<x: int not null>>, b decimal(9), c timestamp, d timestamp_ntz)").(*CreateTableStmt)
	want := []iceberg.Type{
		&iceberg.MapType{Key: iceberg.StringType{}, Value: &iceberg.StructType{FieldList: []iceberg.NestedField{{Name: "x", Type: iceberg.IntType{}, Required: true}}}},
		iceberg.DecimalType{Precision: 9, Scale: 0},
		iceberg.TimestampTzType{},
		iceberg.TimestampType{},
	}
	for i, w := range want {
		if !iceberg.TypesEqual(st.Columns[i].Type, w) {
			t.Errorf("column %d: got %s, want %s", i, st.Columns[i].Type, w)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		in        string
		line, col int
	}{
		{"select * frm t", 1, 10},
		{"select 'abc", 1, 8},
		{"select 1;\n  selec 2", 2, 3},
		{"create table t (a nosuchtype)", 1, 19},
		{"create table t (a decimal(40, 2))", 1, 26},
		{"create table t (a fixed)", 1, 19},
		{"create table t", 1, 15},
		{"alter table t frobnicate", 1, 15},
		{"merge into t using s on a = b", 1, 30},
		{"merge into t using s on a = b when not matched then delete", 1, 59},
		{"select * from a.b.c version as of x", 1, 35},
		{"select * from a.b.c where (", 1, 28},
		{"call system.p(a => 1, 2)", 1, 23},
		{"create table t (a int) partitioned by (bucket(0, a))", 1, 47},
		{"drop namespace", 1, 15},
		{"select /* unterminated", 1, 8},
		{"select `a", 1, 8},
		{"copy t from 'x.csv'", 1, 8},
		{"copy (select 1 to 'x'", 1, 7},
		{"copy t to x.csv", 1, 11},
		{"copy t to 'x' (format csv,)", 1, 27},
		{"explain (timing off) select 1", 1, 10},
		{"explain (analyze, timming off) select 1", 1, 19},
		{"explain (analyze select 1", 1, 18},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, err := Parse(tc.in)
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) {
				t.Fatalf("got %v, want a *ParseError", err)
			}
			if pe.Line != tc.line || pe.Col != tc.col {
				t.Fatalf("at %d:%d, want %d:%d (%v)", pe.Line, pe.Col, tc.line, tc.col, err)
			}
		})
	}
}
