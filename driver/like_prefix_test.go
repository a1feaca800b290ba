package driver_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/sqltest"
)

// col LIKE 'prefix%' prunes files and row groups by the bounds of col, and
// answers as LIKE does: escapes, other wildcards after the prefix, NOT,
// ILIKE and a custom ESCAPE (which do not prune) included.
func TestLikePrefixPrunes(t *testing.T) {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE u (id BIGINT, name STRING) TBLPROPERTIES ('write.parquet.row-group-size-bytes'='1')",
		"INSERT INTO u VALUES (1, 'apple'), (2, 'apricot'), (3, 'a%b'), (4, 'Apple')",
		"INSERT INTO u VALUES (5, 'banana'), (6, 'blueberry'), (7, NULL)",
		// one row group per row
		"INSERT INTO u WITH RECURSIVE s(id) AS (SELECT 100 UNION ALL SELECT id + 1 FROM s WHERE id < 129) SELECT id, concat('k', CAST(id AS STRING)) FROM s",
	)
	tests := []struct {
		where string
		ids   string
		files string // "files n/m" in EXPLAIN
		rgs   string // "row groups: read ..." in EXPLAIN ANALYZE
	}{
		{"name LIKE 'ap%'", "1,2", "files 1/3", ""},
		{"name LIKE 'apr%'", "2", "files 1/3", ""},
		{"name LIKE 'b%y'", "6", "files 1/3", ""},
		{"name LIKE 'a\\%%'", "3", "files 1/3", ""},
		{"name LIKE 'a_r%'", "2", "files 1/3", ""},
		{"name LIKE 'c%'", "", "files 0/3", ""},
		{"name LIKE 'k12%'", "120,121,122,123,124,125,126,127,128,129", "files 1/3", "row groups: read 10 of 30 (skipped 20 by statistics)"},
		{"name LIKE 'k1_9'", "109,119,129", "files 1/3", ""},
		{"name LIKE '%a'", "5", "files 3/3", ""},
		{"name NOT LIKE 'a%' AND id < 100", "4,5,6", "files 2/3", ""}, // by id only
		{"name ILIKE 'ap%'", "1,2,4", "files 3/3", ""},
		{"name LIKE 'a#%%' ESCAPE '#'", "3", "files 3/3", ""},
	}
	for _, tc := range tests {
		t.Run(tc.where, func(t *testing.T) {
			q := "SELECT id FROM u WHERE " + tc.where + " ORDER BY id"
			if got := strings.Join(sqltest.QueryStrings(t, db, q), ","); got != tc.ids {
				t.Errorf("ids %q, want %q", got, tc.ids)
			}
			plan := strings.Join(sqltest.QueryStrings(t, db, "EXPLAIN "+q), "\n")
			if !strings.Contains(plan, tc.files) {
				t.Errorf("no %q in the plan:\n%s", tc.files, plan)
			}
			if tc.rgs != "" {
				an := sqltest.QueryStrings(t, db, "EXPLAIN ANALYZE "+q)
				if !slices.ContainsFunc(an, func(l string) bool { return strings.Contains(l, tc.rgs) }) {
					t.Errorf("no %q in\n%s", tc.rgs, strings.Join(an, "\n"))
				}
			}
		})
	}
}
