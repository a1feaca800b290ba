package sqlexec_test

import (
	"database/sql"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/sqltest"
	"github.com/icesql/icesql/sqlexec"
)

// A parallel scan of one large file reads it in splits at its row group
// starts; with position deletes applied and row groups skipped by
// statistics, the answers equal an unsplit scan's, and EXPLAIN ANALYZE
// counts the file once and each row group once.
func TestScanSplitsOneFile(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	old := *sqlexec.MinSplitBytes
	defer func() { *sqlexec.MinSplitBytes = old }()

	db, err := sql.Open("iceberg", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, `CREATE TABLE t (id BIGINT, v STRING, x DOUBLE) TBLPROPERTIES (
		'icesql.write.parquet.row-group-row-limit'='500', 'write.delete.mode'='merge-on-read', 'format-version'='2')`)
	mustExec(t, db, `INSERT INTO t WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 199),
		r AS (SELECT a.i * 100 + b.i AS id FROM s a JOIN s b ON b.i < 100)
		SELECT id, concat('v', CAST(id % 13 AS STRING)), id / 4.0 FROM r ORDER BY id`)
	mustExec(t, db, "DELETE FROM t WHERE id % 7 = 0")
	if n := queryInt64(t, db, "SELECT count(*) FROM t.files WHERE content = 0"); n != 1 {
		t.Fatalf("%d data files, want one to split", n)
	}
	queries := []string{
		"SELECT count(*), sum(id), sum(x) FROM t",
		"SELECT id % 10, count(*), sum(id), min(v), max(v) FROM t GROUP BY id % 10 ORDER BY 1",
		"SELECT count(*), sum(id) FROM t WHERE id >= 12345 AND id < 15000",
		"SELECT v, count(*) FROM t WHERE x > 100 GROUP BY v ORDER BY v",
	}
	answers := func() []string {
		var out []string
		for _, q := range queries {
			out = append(out, strings.Join(sqltest.QueryStrings(t, db, q), "\n"))
		}
		return out
	}
	*sqlexec.MinSplitBytes = 1 << 40
	whole := answers()
	*sqlexec.MinSplitBytes = 1
	split := answers()
	for i := range queries {
		if whole[i] != split[i] {
			t.Errorf("%s:\nsplit:\n%s\nwhole:\n%s", queries[i], split[i], whole[i])
		}
	}
	// The closed form of the first answer: ids 0..19999 without the
	// multiples of 7.
	var cnt, sum int64
	for id := int64(0); id < 20000; id++ {
		if id%7 != 0 {
			cnt++
			sum += id
		}
	}
	var gotCnt, gotSum int64
	var gotX float64
	if err := db.QueryRow(queries[0]).Scan(&gotCnt, &gotSum, &gotX); err != nil || gotCnt != cnt || gotSum != sum || gotX != float64(sum)/4 {
		t.Errorf("count, sum, sum(x) = %d, %d, %v (%v), want %d, %d, %v", gotCnt, gotSum, gotX, err, cnt, sum, float64(sum)/4)
	}
	an := sqltest.QueryStrings(t, db, "EXPLAIN ANALYZE SELECT count(*), sum(id) FROM t WHERE id >= 12345 AND id < 15000")
	for _, want := range []string{"read 1; manifests", "row groups: read 6 of 40 (skipped 34 by statistics)", "delete files: applied 1"} {
		if !slices.ContainsFunc(an, func(l string) bool { return strings.Contains(l, want) }) {
			t.Errorf("no %q in\n%s", want, strings.Join(an, "\n"))
		}
	}
}
