package driver_test

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/sqltest"
	"github.com/icesql/icesql/sqlexec"
)

// EXPLAIN ANALYZE through database/sql: one text column named plan, as
// EXPLAIN; every operator line carries its counters and times, scans
// their files, row groups and bytes read, and the summary ends it. Times
// are checked for their form only.
func TestExplainAnalyze(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE t (id BIGINT, p STRING) PARTITIONED BY (p) TBLPROPERTIES ('write.parquet.row-group-size-bytes'='1')")
	mustExec(t, db, "INSERT INTO t WITH RECURSIVE s(id) AS (SELECT 0 UNION ALL SELECT id + 1 FROM s WHERE id < 29) SELECT id, CAST(id % 3 AS STRING) FROM s")

	rows, err := db.Query("EXPLAIN ANALYZE SELECT p, count(*) FROM t WHERE id >= 20 GROUP BY p ORDER BY p")
	if err != nil {
		t.Fatal(err)
	}
	cols, err := rows.Columns()
	if err != nil || len(cols) != 1 || cols[0] != "plan" {
		t.Fatalf("columns %v (%v), want [plan]", cols, err)
	}
	var first strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		first.WriteString(line + "\n")
	}
	rows.Close()
	bytes := regexp.MustCompile(`(?m)^ +bytes read: (\d+)$`).FindStringSubmatch(first.String())
	if bytes == nil || bytes[1] == "0" || !strings.Contains(first.String(), "data files from the cache: 0\n") {
		t.Errorf("the first run read no bytes, or found files in the cache:\n%s", first.String())
	}
	// The first run read the files from storage; this one finds the
	// small files in the engine's cache and reads no byte.
	lines := sqltest.QueryStrings(t, db, "EXPLAIN ANALYZE SELECT p, count(*) FROM t WHERE id >= 20 GROUP BY p ORDER BY p")
	text := strings.Join(lines, "\n")
	op := regexp.MustCompile(`^( *)(\S.*)  \(actual rows=(\d+) batches=(\d+) time=\d+\.\d{3}ms self=\d+\.\d{3}ms\)$`)
	var ops []string
	scanRows := -1
	for _, l := range lines {
		m := op.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		ops = append(ops, strings.Fields(m[2])[0])
		if strings.HasPrefix(m[2], "Scan t") {
			scanRows, _ = strconv.Atoi(m[3])
		}
	}
	if strings.Join(ops, " ") != "Sort Project Aggregate Scan" {
		t.Fatalf("operators %v, want Sort Project Aggregate Scan:\n%s", ops, text)
	}
	if scanRows != 10 {
		t.Errorf("scan returned %d rows, want 10:\n%s", scanRows, text)
	}
	for _, want := range []string{
		"files: planned 3 of 3 (pruned 0 by partition, 0 by metrics), read 3",
		// one row a row group: ids 20..29 pass the statistics
		"row groups: read 10 of 30 (skipped 20 by statistics)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	for _, want := range []string{"bytes read: 0\n", "data files from the cache: 3\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("a repeated query: no %q in\n%s", want, text)
		}
	}
	n := len(lines)
	if n < 2 || !regexp.MustCompile(`^Planning time: \d+\.\d{3}ms$`).MatchString(lines[n-2]) ||
		!regexp.MustCompile(`^Execution time: \d+\.\d{3}ms$`).MatchString(lines[n-1]) {
		t.Errorf("no summary at the end:\n%s", text)
	}
}

// A write under EXPLAIN ANALYZE happens, as in Postgres, and its row
// query is what is shown.
func TestExplainAnalyzeRunsWrites(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE t (id BIGINT, v STRING)")
	mustExec(t, db, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	text := strings.Join(sqltest.QueryStrings(t, db, "EXPLAIN ANALYZE DELETE FROM t WHERE id = 2"), "\n")
	for _, want := range []string{"Scan t ", "files: planned 1 of 1", "Rows affected: 1", "Execution time: "} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if got := queryInt(t, db, "SELECT count(*) FROM t"); got != 2 {
		t.Errorf("%d rows after EXPLAIN ANALYZE DELETE, want 2", got)
	}
	mustExec(t, db, "EXPLAIN ANALYZE UPDATE t SET v = 'z' WHERE id = 3")
	if got := queryInt(t, db, "SELECT count(*) FROM t WHERE v = 'z'"); got != 1 {
		t.Errorf("%d rows updated by EXPLAIN ANALYZE UPDATE, want 1", got)
	}
	// inside a transaction the write is rolled back with it
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("EXPLAIN ANALYZE DELETE FROM t"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := queryInt(t, db, "SELECT count(*) FROM t"); got != 2 {
		t.Errorf("%d rows after a rolled back EXPLAIN ANALYZE DELETE, want 2", got)
	}
	_, err = db.Exec("EXPLAIN ANALYZE DROP TABLE t")
	if !errors.Is(err, sqlexec.ErrNotSupported) || !strings.Contains(err.Error(), "EXPLAIN ANALYZE of DROP TABLE") {
		t.Errorf("EXPLAIN ANALYZE DROP TABLE: %v, want ErrNotSupported naming the statement", err)
	}
}
