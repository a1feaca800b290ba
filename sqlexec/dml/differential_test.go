package dml_test

import (
	"database/sql"
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

// long runs the differential test with more seeds and steps.
var long = flag.Bool("dml.long", false, "longer randomized DML tests")

// TestDifferentialAgainstSQLite runs random DELETE, UPDATE and
// MERGE-as-upsert sequences on a small table in every write mode and
// compares the full table with SQLite running the same statements.
func TestDifferentialAgainstSQLite(t *testing.T) {
	steps, seeds := 10, int64(1)
	if *long {
		steps, seeds = 40, 5
	}
	for _, mode := range modes {
		for _, partitioned := range []bool{false, true} {
			for seed := int64(1); seed <= seeds; seed++ {
				t.Run(fmt.Sprintf("%s/partitioned=%v/seed=%d", mode, partitioned, seed), func(t *testing.T) {
					runDifferential(t, mode, partitioned, seed, steps)
				})
			}
		}
	}
}

func runDifferential(t *testing.T, mode string, partitioned bool, seed int64, steps int) {
	rng := rand.New(rand.NewSource(seed))
	l := newLake(t)
	lite, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	lite.SetMaxOpenConns(1)
	ddl := "CREATE TABLE t (id BIGINT NOT NULL, k INT, v INT)"
	if partitioned {
		ddl += " PARTITIONED BY (k)"
	}
	l.exec(ddl)
	l.setModes("t", mode)
	if _, err := lite.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, k INT, v INT)"); err != nil {
		t.Fatal(err)
	}
	both := func(icesql, sqlite string) {
		t.Helper()
		if _, err := l.db.Exec(icesql); err != nil {
			t.Fatalf("icesql: %s: %v", icesql, err)
		}
		if _, err := lite.Exec(sqlite); err != nil {
			t.Fatalf("sqlite: %s: %v", sqlite, err)
		}
		equalRows(t, icesql, l.rows("t"), sqliteRows(t, lite))
	}
	var vals []string
	for id := 0; id < 20; id++ {
		vals = append(vals, fmt.Sprintf("(%d, %d, %s)", id, rng.Intn(4), randValue(rng)))
	}
	ins := "INSERT INTO t VALUES " + strings.Join(vals, ", ")
	both(ins, ins)
	for i := 0; i < steps; i++ {
		switch rng.Intn(3) {
		case 0:
			w := randWhere(rng)
			both("DELETE FROM t WHERE "+w, "DELETE FROM t WHERE "+w)
		case 1:
			w := randWhere(rng)
			set := fmt.Sprintf("v = v + %d", rng.Intn(10))
			if rng.Intn(3) == 0 {
				set = fmt.Sprintf("k = %d", rng.Intn(4))
			}
			both("UPDATE t SET "+set+" WHERE "+w, "UPDATE t SET "+set+" WHERE "+w)
		default:
			n := 1 + rng.Intn(6)
			ids := rng.Perm(30)[:n]
			var sel, rows []string
			for _, id := range ids {
				k, v := rng.Intn(4), randValue(rng)
				sel = append(sel, fmt.Sprintf("SELECT %d AS id, %d AS k, %s AS v", id, k, v))
				rows = append(rows, fmt.Sprintf("(%d, %d, %s)", id, k, v))
			}
			merge := "MERGE INTO t USING (" + strings.Join(sel, " UNION ALL ") + ") s ON t.id = s.id " +
				"WHEN MATCHED THEN UPDATE SET k = s.k, v = s.v WHEN NOT MATCHED THEN INSERT *"
			upsert := "INSERT INTO t VALUES " + strings.Join(rows, ", ") +
				" ON CONFLICT(id) DO UPDATE SET k = excluded.k, v = excluded.v"
			both(merge, upsert)
		}
	}
}

func randValue(rng *rand.Rand) string {
	if rng.Intn(8) == 0 {
		return "NULL"
	}
	return fmt.Sprint(rng.Intn(100))
}

func randWhere(rng *rand.Rand) string {
	switch rng.Intn(5) {
	case 0:
		return fmt.Sprintf("k = %d", rng.Intn(4))
	case 1:
		return fmt.Sprintf("v < %d", rng.Intn(100))
	case 2:
		return fmt.Sprintf("id %% %d = 0", 2+rng.Intn(4))
	case 3:
		return fmt.Sprintf("k = %d AND v > %d", rng.Intn(4), rng.Intn(100))
	}
	return "v IS NULL"
}

func sqliteRows(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rs, err := db.Query("SELECT id, k, v FROM t")
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var out []string
	for rs.Next() {
		var id, k, v sql.NullInt64
		if err := rs.Scan(&id, &k, &v); err != nil {
			t.Fatal(err)
		}
		parts := []string{}
		for _, x := range []sql.NullInt64{id, k, v} {
			if x.Valid {
				parts = append(parts, fmt.Sprint(x.Int64))
			} else {
				parts = append(parts, "NULL")
			}
		}
		out = append(out, strings.Join(parts, " "))
	}
	slices.Sort(out)
	return out
}
