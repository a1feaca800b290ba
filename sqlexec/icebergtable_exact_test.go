package sqlexec_test

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/sqltest"
)

// Filters the data file reader applies exactly are not evaluated again
// above the scan; the answers must equal those of the same filter
// wrapped in coalesce(), which no scan applies, on row group boundaries,
// NULLs, deletes and a partitioned table's residuals.
func TestExactScanFilters(t *testing.T) {
	db, err := sql.Open("iceberg", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const cols = `(i INT, b BIGINT, d DATE, ts TIMESTAMP, s STRING, x DOUBLE)`
	const props = ` TBLPROPERTIES ('icesql.write.parquet.row-group-row-limit'='500', 'write.delete.mode'='merge-on-read', 'format-version'='2')`
	mustExec(t, db, "CREATE TABLE flat "+cols+props)
	mustExec(t, db, "CREATE TABLE parts "+cols+" PARTITIONED BY (bucket(3, b))"+props)
	// Every 10th row of the second half has NULLs: row groups whose
	// non-null values all match still hold rows that do not.
	const rows = `WITH RECURSIVE s(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM s WHERE k < 2999)
		SELECT CASE WHEN k >= 1500 AND k % 10 = 3 THEN NULL ELSE CAST(k AS INT) END,
			CASE WHEN k >= 1500 AND k % 10 = 3 THEN NULL ELSE k END,
			CASE WHEN k % 10 = 7 THEN NULL ELSE CAST(concat('2024-01-', CAST(CAST(10 + floor(k / 150) AS BIGINT) AS STRING)) AS DATE) END,
			CASE WHEN k % 10 = 7 THEN NULL ELSE CAST(concat('2024-01-', CAST(CAST(10 + floor(k / 144) AS BIGINT) AS STRING), ' ',
				CAST(CAST(10 + floor(k % 144 / 12) AS BIGINT) AS STRING), ':', CAST(10 + k % 12 * 4 AS STRING), ':00') AS TIMESTAMP) END,
			CASE WHEN k % 11 = 5 THEN NULL WHEN k % 17 = 0 THEN '' ELSE concat('v', CAST(k % 13 AS STRING)) END,
			k / 4.0
		FROM s ORDER BY k`
	for _, tb := range []string{"flat", "parts"} {
		mustExec(t, db, "INSERT INTO "+tb+" "+rows)
		mustExec(t, db, "DELETE FROM "+tb+" WHERE b % 7 = 0 OR b = 1000")
	}
	preds := []string{
		"b >= 500 AND b < 1000",  // exactly row groups 1 and 2
		"b > 499 AND b <= 999",   // the same, other operators
		"b >= 1500 AND b < 2500", // whole row groups with NULLs in b
		"b = 999", "b = 1000", "b <> 3", "b < 0", "b >= 0",
		"i >= 250 AND i < 2750", "i IS NULL", "b IS NOT NULL AND b > 2990",
		"d = DATE '2024-01-13'", "d >= DATE '2024-01-13' AND d < DATE '2024-01-17'", "d IS NULL",
		// rows 500 and 1000: row group boundaries
		"ts >= TIMESTAMP '2024-01-13 15:42:00' AND ts < TIMESTAMP '2024-01-16 21:26:00'",
		"ts = TIMESTAMP '2024-01-16 21:26:00'", "ts > TIMESTAMP '2024-01-30 00:00:00'",
		"s = 'v3'", "s < 'v3'", "s = ''", "s IS NULL", "s >= 'v1' AND s <= 'v12'",
		"b < 10 OR b >= 2990", "(b < 100 OR s = 'v4') AND i >= 50",
		"x >= 100 AND x < 200", // not exact (doubles): filtered above the scan
	}
	query := func(tb, where string) string {
		return strings.Join(sqltest.QueryStrings(t, db, "SELECT count(*), sum(b), sum(i), min(s), max(s), min(ts), max(d), sum(x) FROM "+tb+" WHERE "+where), "\n")
	}
	for _, tb := range []string{"flat", "parts"} {
		for _, p := range preds {
			t.Run(tb+"/"+p, func(t *testing.T) {
				if got, want := query(tb, p), query(tb, "coalesce("+p+", false)"); got != want {
					t.Errorf("got\n%s\nwant\n%s", got, want)
				}
			})
		}
	}
}
