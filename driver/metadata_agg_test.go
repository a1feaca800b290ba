package driver_test

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/sqltest"
)

// metadataAnswered runs q under EXPLAIN ANALYZE and reports whether the
// plan has a MetadataAggregate and whether it answered from the files'
// metrics (its fallback aggregate never ran).
func metadataAnswered(t *testing.T, db *sql.DB, q string) (planned, answered bool) {
	t.Helper()
	lines := sqltest.QueryStrings(t, db, "EXPLAIN ANALYZE "+q)
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "MetadataAggregate ") {
			continue
		}
		planned = true
		answered = strings.Contains(l, "actual rows=1 ") && i+1 < len(lines) &&
			strings.Contains(lines[i+1], "Aggregate ") && strings.Contains(lines[i+1], "(never executed)")
	}
	return planned, answered
}

// scanForm is q over a scan the metadata rewrite does not apply to (a
// limit that keeps every row), so the rows are read and aggregated.
func scanForm(q, table string) string {
	head, tail, _ := strings.Cut(q, "FROM "+table)
	from := table
	if v, ok := strings.CutPrefix(tail, " VERSION AS OF "); ok {
		id, rest, _ := strings.Cut(v, " ")
		from, tail = table+" VERSION AS OF "+id, " "+rest
	}
	return head + "FROM (SELECT * FROM " + from + " LIMIT 1000000000) " + table + tail
}

// count(*), count(col), min(col) and max(col) without GROUP BY over a
// whole table come from the data files' metrics when those are exact,
// and from a scan otherwise: strings (truncated bounds), a float column
// holding NaN, a column added after some files were written, and rows
// removed by delete files. Each answer is the scan's (differential), at
// the current snapshot and at older ones.
func TestAggregatesFromMetadata(t *testing.T) {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE m (id BIGINT, i INT, d DOUBLE, amt DECIMAL(10,2), dt DATE, ts TIMESTAMP, b BOOLEAN, s STRING)",
	)
	type check struct {
		q        string
		planned  bool // a MetadataAggregate is in the plan
		answered bool // and it answered without a scan
	}
	run := func(t *testing.T, checks []check) {
		t.Helper()
		for _, c := range checks {
			planned, answered := metadataAnswered(t, db, c.q)
			if planned != c.planned || answered != c.answered {
				t.Errorf("%s: planned %v answered %v, want %v %v\n%s", c.q, planned, answered, c.planned, c.answered,
					strings.Join(sqltest.QueryStrings(t, db, "EXPLAIN ANALYZE "+c.q), "\n"))
			}
			got := sqltest.QueryStrings(t, db, c.q)
			table := strings.Fields(strings.SplitN(c.q, " FROM ", 2)[1])[0]
			want := sqltest.QueryStrings(t, db, scanForm(c.q, table))
			if !slices.Equal(got, want) {
				t.Errorf("%s: %v, the scan gives %v", c.q, got, want)
			}
		}
	}
	const all = "SELECT count(*), count(id), count(i), min(i), max(i), min(id), max(id), min(d), max(d), min(amt), max(amt), " +
		"min(dt), max(dt), min(ts), max(ts), min(b), max(b), count(s), count(d) FROM m"
	// an empty table: one row, count 0 and NULL bounds
	run(t, []check{{all, true, true}})
	execAll(t, db,
		"INSERT INTO m VALUES (1, 10, 1.5, 3.25, DATE '2024-01-05', TIMESTAMP '2024-01-05 10:00:00', true, 'b'), (2, NULL, -2.5, NULL, NULL, NULL, NULL, NULL)",
		"INSERT INTO m VALUES (3, -7, 0.25, -1.50, DATE '2023-12-31', TIMESTAMP '2023-12-31 23:59:59', false, 'a')",
		"INSERT INTO m VALUES (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
	)
	first := queryInt(t, db, "SELECT snapshot_id FROM m.snapshots ORDER BY committed_at LIMIT 1")
	run(t, []check{
		{all, true, true},
		{"SELECT count(*) FROM m", true, true},
		{"SELECT max(ts) AS newest, min(i) FROM m", true, true},
		{"SELECT min(s) FROM m", true, false}, // string bounds may be truncated
		{"SELECT count(DISTINCT i) FROM m", false, false},
		{"SELECT count(*) FROM m WHERE i > 0", true, false}, // i is no partition column
		{"SELECT sum(i), count(*) FROM m", false, false},
		{"SELECT count(*) + 1 FROM m", true, true},
		{fmt.Sprintf("SELECT count(*), min(i), max(ts) FROM m VERSION AS OF %d", first), true, true},
	})
	// a NaN makes the float bounds inexact
	execAll(t, db, "INSERT INTO m VALUES (5, 1, CAST('NaN' AS DOUBLE), 1.00, DATE '2024-02-01', TIMESTAMP '2024-02-01 00:00:00', true, 'c')")
	run(t, []check{
		{"SELECT min(d) FROM m", true, false},
		{"SELECT max(d) FROM m", true, false},
		{"SELECT count(d), count(*), max(i) FROM m", true, true},
	})
	// a column added later has no metrics in the older files
	execAll(t, db,
		"ALTER TABLE m ADD COLUMNS (n INT)",
		"INSERT INTO m VALUES (6, 2, 0.5, 2.00, DATE '2024-03-01', TIMESTAMP '2024-03-01 00:00:00', true, 'd', 42)",
	)
	beforeDelete := queryInt(t, db, "SELECT snapshot_id FROM m.snapshots ORDER BY committed_at DESC LIMIT 1")
	run(t, []check{
		{"SELECT min(n), max(n) FROM m", true, false},
		{"SELECT count(n) FROM m", true, false},
		{"SELECT count(*), max(id) FROM m", true, true},
	})
	// rows removed by a delete file: the counts and bounds overstate
	execAll(t, db,
		"ALTER TABLE m SET TBLPROPERTIES ('write.delete.mode'='merge-on-read')",
		"DELETE FROM m WHERE id = 6",
	)
	run(t, []check{
		{"SELECT count(*), max(id) FROM m", true, false},
		{fmt.Sprintf("SELECT count(*), max(id) FROM m VERSION AS OF %d", beforeDelete), true, true},
		{fmt.Sprintf("SELECT count(*), max(id), min(i) FROM m VERSION AS OF %d", first), true, true},
	})
	// a copy-on-write delete rewrites the file: its metrics are exact again
	execAll(t, db,
		"CREATE TABLE e (id BIGINT, v INT) TBLPROPERTIES ('write.delete.mode'='copy-on-write')",
		"INSERT INTO e VALUES (1, 5), (2, 9), (3, 1)",
		"INSERT INTO e VALUES (4, 7)",
		"DELETE FROM e WHERE v = 9",
	)
	run(t, []check{{"SELECT count(*), min(v), max(v), max(id) FROM e", true, true}})

	// a filter that the partition values decide for whole files
	execAll(t, db,
		"CREATE TABLE pt (id BIGINT, region STRING, v INT) PARTITIONED BY (region)",
		"INSERT INTO pt VALUES (1, 'eu', 5), (2, 'eu', 8), (3, 'us', 1), (4, NULL, 9)",
		"INSERT INTO pt VALUES (5, 'eu', 2), (6, 'asia', 7)",
	)
	run(t, []check{
		{"SELECT count(*), min(v), max(v) FROM pt WHERE region = 'eu'", true, true},
		{"SELECT count(*), max(id) FROM pt WHERE region IS NULL", true, true},
		{"SELECT count(*), max(id) FROM pt WHERE region IS NOT NULL", true, true},
		{"SELECT count(*), min(v) FROM pt WHERE region <> 'eu'", true, true},
		{"SELECT count(*), min(v) FROM pt WHERE region > 'b' OR region = 'asia'", true, true},
		{"SELECT count(*) FROM pt WHERE region = 'nowhere'", true, true},
		{"SELECT count(*), min(v) FROM pt WHERE NOT (region = 'eu')", true, true},
		{"SELECT count(*), min(v) FROM pt WHERE v > 3", true, false},
		{"SELECT count(*), min(v) FROM pt WHERE region = 'eu' AND v > 3", true, false},
		{"SELECT count(*) FROM pt WHERE upper(region) = 'EU'", true, false},
	})
}
