package driver_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/sqltest"
)

// icesql.write.parquet.row-group-row-limit cuts row groups by rows, and
// a selective scan reads only the groups its predicate can match; a bad
// value is refused when set.
func TestRowGroupRowLimitPrunes(t *testing.T) {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE t (id BIGINT, v STRING) TBLPROPERTIES ('icesql.write.parquet.row-group-row-limit'='10')",
		"INSERT INTO t WITH RECURSIVE s(id) AS (SELECT 0 UNION ALL SELECT id + 1 FROM s WHERE id < 29) SELECT id, CAST(id AS STRING) FROM s",
	)
	q := "SELECT v FROM t WHERE id = 25"
	if got := strings.Join(sqltest.QueryStrings(t, db, q), ","); got != "25" {
		t.Fatalf("got %q", got)
	}
	an := sqltest.QueryStrings(t, db, "EXPLAIN ANALYZE "+q)
	want := "row groups: read 1 of 3 (skipped 2 by statistics)"
	if !slices.ContainsFunc(an, func(l string) bool { return strings.Contains(l, want) }) {
		t.Errorf("no %q in\n%s", want, strings.Join(an, "\n"))
	}
	for _, v := range []string{"0", "-3", "ten"} {
		_, err := db.Exec("ALTER TABLE t SET TBLPROPERTIES ('icesql.write.parquet.row-group-row-limit'='" + v + "')")
		var pe *iceberg.PropertyError
		if !errors.As(err, &pe) {
			t.Errorf("limit %s: %v, want a PropertyError", v, err)
		}
	}
}
