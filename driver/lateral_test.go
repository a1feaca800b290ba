package driver_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/icesql/icesql/planner"
)

// TestLateralViewIcebergTable expands the nested columns of an Iceberg
// table written in several files, so the scan runs in parallel under an
// aggregate, and checks the plan reads only the columns it needs.
func TestLateralViewIcebergTable(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE t (id BIGINT, nums ARRAY<INT>, attrs MAP<STRING, INT>, note STRING)")
	var wantRows, wantSum, wantOuter int64
	for f := 0; f < 4; f++ {
		var vals []string
		for i := 0; i < 250; i++ {
			id := f*250 + i
			n := id % 5 // 0..4 elements; every fifth row has an empty array
			elems := make([]string, n)
			for k := range elems {
				elems[k] = fmt.Sprint(id + k)
				wantSum += int64(id + k)
			}
			wantRows += int64(n)
			wantOuter += int64(max(n, 1))
			arr := "ARRAY(" + strings.Join(elems, ", ") + ")"
			if n == 0 {
				arr = "NULL"
			}
			vals = append(vals, fmt.Sprintf("(%d, %s, MAP('k', %d), 'row %d')", id, arr, id, id))
		}
		mustExec(t, db, "INSERT INTO t VALUES "+strings.Join(vals, ", "))
	}
	tests := []struct {
		name, q string
		want    int64
	}{
		{"rows", "SELECT count(*) FROM t LATERAL VIEW explode(nums) e AS x", wantRows},
		{"sum", "SELECT sum(x) FROM t LATERAL VIEW explode(nums) e AS x", wantSum},
		{"outer rows", "SELECT count(*) FROM t LATERAL VIEW OUTER explode(nums) e AS x", wantOuter},
		{"select list", "SELECT count(*) FROM (SELECT id, explode(nums) AS x FROM t) s", wantRows},
		{"positions", "SELECT count(*) FROM t LATERAL VIEW posexplode(nums) e AS p, x WHERE x = id + p", wantRows},
		{"map", "SELECT sum(v) FROM t LATERAL VIEW explode(attrs) e AS k, v", 999 * 1000 / 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := queryInt(t, db, tc.q); got != tc.want {
				t.Fatalf("%s = %d, want %d", tc.q, got, tc.want)
			}
		})
	}

	t.Run("explain prunes unused nested columns", func(t *testing.T) {
		plan := strings.Join(queryStrings(t, db, "EXPLAIN SELECT id, x FROM t LATERAL VIEW explode(nums) e AS x WHERE id > 1 AND x > 20"), "\n")
		for _, want := range []string{"Filter (x#2 > 20)", "Generate explode(nums#1) AS e(x)", "Scan t [id, nums] filters=[(id#0 > 1)]"} {
			if !strings.Contains(plan, want) {
				t.Errorf("plan lacks %q:\n%s", want, plan)
			}
		}
		if strings.Contains(plan, "attrs") || strings.Contains(plan, "note") {
			t.Errorf("plan reads unused columns:\n%s", plan)
		}
	})

	t.Run("errors name the generator", func(t *testing.T) {
		for _, q := range []string{
			"SELECT explode(id) FROM t",
			"SELECT x FROM t LATERAL VIEW explode(nums) e AS x, y",
			"SELECT explode(nums), explode(nums) FROM t",
			"SELECT 1 + explode(nums) FROM t",
		} {
			_, err := db.Query(q)
			var ge *planner.GeneratorError
			if !errors.As(err, &ge) || ge.Func != "explode" {
				t.Errorf("%s: error %v, want a *planner.GeneratorError for explode", q, err)
			}
		}
	})
}
